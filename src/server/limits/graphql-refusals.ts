import type { Context, MiddlewareHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { DomainError, isDatabaseUnavailable } from '../../domain/errors.ts';
import { retryAfterUnavailableSeconds } from '../../rest/errors.ts';
import type { AppEnv } from '../app-env.ts';

interface Refusal {
  status: ContentfulStatusCode;
  code: string;
  message: string;
}

const refusedDomainCodes: Partial<Record<DomainError['code'], ContentfulStatusCode>> = {
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  RATE_LIMITED: 429,
  UNAVAILABLE: 503,
};

const codeByHttpStatus: Partial<Record<number, string>> = { 413: 'PAYLOAD_TOO_LARGE', 400: 'BAD_REQUEST' };

function refusalOf(error: unknown): Refusal | undefined {
  if (error instanceof DomainError) {
    const status = refusedDomainCodes[error.code];
    return status ? { status, code: error.code, message: error.message } : undefined;
  }
  if (isDatabaseUnavailable(error)) {
    const message = 'The database is unavailable right now; try again shortly.';
    return { status: 503, code: 'UNAVAILABLE', message };
  }
  if (error instanceof HTTPException) {
    const code = codeByHttpStatus[error.status];
    return code ? { status: error.status as ContentfulStatusCode, code, message: error.message } : undefined;
  }
  return undefined;
}

/** A GraphQL-shaped error body (`{ errors: [{ message, extensions: { code } }] }`) with the HTTP status. */
export function graphqlRefusal(c: Context<AppEnv>, refusal: Refusal): Response {
  if (refusal.status === 401) c.header('WWW-Authenticate', 'Bearer realm="orgraph"');
  if (refusal.status === 503) c.header('Retry-After', String(retryAfterUnavailableSeconds));
  return c.json(
    { errors: [{ message: refusal.message, extensions: { code: refusal.code } }] },
    refusal.status,
  );
}

/**
 * Runs the HTTP-level guards of the graph (token, rate limit, body size) and answers their refusals the way a
 * GraphQL client expects, with the same status codes and headers as REST; REST answers them in the envelope.
 */
export function refuseAsGraphql(guard: MiddlewareHandler<AppEnv>): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    try {
      return await guard(c, next);
    } catch (error) {
      const refusal = refusalOf(error);
      if (!refusal) throw error;
      return graphqlRefusal(c, refusal);
    }
  };
}
