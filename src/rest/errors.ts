import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { DomainError, type DomainErrorCode, isDatabaseUnavailable } from '../domain/errors.ts';
import type { AppEnv } from '../server/app-env.ts';
import { logger } from '../server/observability/logger.ts';
import { errorEnvelope } from './envelope.ts';

const statusByCode: Record<DomainErrorCode, ContentfulStatusCode> = {
  NOT_FOUND: 404,
  INVALID_PARAMETER: 422,
  INVALID_CHIPS: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  RATE_LIMITED: 429,
  UNAVAILABLE: 503,
};

export const retryAfterUnavailableSeconds = 5;

/** Sends an error in the envelope, with the headers its status calls for. */
export function errorResponse(c: Context<AppEnv>, status: ContentfulStatusCode, messages: string[]) {
  if (status === 401) c.header('WWW-Authenticate', 'Bearer realm="orgraph"');
  if (status === 503) c.header('Retry-After', String(retryAfterUnavailableSeconds));
  return c.json(errorEnvelope(c, status, messages), status);
}

/** The one place a thrown error becomes a response; anything unexpected is logged and masked. */
export function handleError(error: Error, c: Context<AppEnv>) {
  if (error instanceof DomainError) return errorResponse(c, statusByCode[error.code], [error.message]);
  if (isDatabaseUnavailable(error)) {
    return errorResponse(c, 503, ['The database is unavailable right now; try again shortly.']);
  }
  if (error instanceof HTTPException) {
    const status = error.status as ContentfulStatusCode;
    return errorResponse(c, status, [error.message || 'The request could not be processed.']);
  }
  logger().error(
    { err: error, correlationId: c.var.correlationId, method: c.req.method, path: c.req.path },
    'unexpected error',
  );
  return errorResponse(c, 500, ['An unexpected error occurred; it has been logged.']);
}
