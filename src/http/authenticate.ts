import type { Context, MiddlewareHandler } from 'hono';
import type { DataArea } from '../auth/plans.ts';
import { bearerToken, findViewer, isPossibleToken } from '../auth/tokens.ts';
import { DomainError } from '../domain/errors.ts';
import type { AppEnv } from './app-env.ts';
import { clientAddress } from './client-address.ts';
import { createRequestContext, type RequestContext } from './context.ts';
import { RequestError } from './errors.ts';
import { authFailureWindowSeconds, type QuotaState, type Quotas } from './limits/quotas.ts';
import { RefusedTokens } from './refused-tokens.ts';
import type { AppServices } from './services.ts';

function tooManyFailures(c: Context<AppEnv>, state: QuotaState): RequestError {
  c.header('Retry-After', String(state.resetSeconds));
  return new RequestError(
    'RATE_LIMITED',
    `Too many refused tokens from this address (${state.limit} per ${state.windowSeconds} s); ` +
      `retry in ${state.resetSeconds} s.`,
  );
}

/**
 * Sets the request context of the caller whose token `tokenOf` reads (the `Authorization` header by default; the
 * reconciliation path reads it from the path, for a client that cannot send a header), or refuses as `identify` does.
 */
export function authenticate(
  identify: IdentifyCaller,
  tokenOf: (c: Context<AppEnv>) => string | null | undefined = (c) =>
    bearerToken(c.req.header('Authorization')),
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    c.set('ctx', await identify(c, tokenOf(c)));
    await next();
  };
}

/** The context of the caller whose token this is: what {@link authenticate} sets, or the refusal it throws. */
export type IdentifyCaller = (
  c: Context<AppEnv>,
  token: string | null | undefined,
) => Promise<RequestContext>;

/**
 * Resolves the bearer token to a viewer and builds the request context; 401 when there is none. A refused token
 * counts against its client address (`quotas.authFailures`); once the address has spent its budget, its refused
 * tokens are answered 429 until the window ends. Every token that can exist is still looked up, so a good token
 * is served whatever other callers at its address (one NAT, one proxy) sent; only a token this instance refused
 * lately is answered 429 without a lookup. A token that cannot exist (its checksum does not match) is refused
 * without a lookup too. One per app, so that the tokens refused lately are remembered whichever route refused them.
 */
export function identifyCaller(services: AppServices, quotas: Quotas): IdentifyCaller {
  const refusedLately = new RefusedTokens(authFailureWindowSeconds * 1000);
  return async (c, token) => {
    if (!token) {
      throw new RequestError('UNAUTHENTICATED', 'Send a bearer token: Authorization: Bearer <token>.');
    }
    const addressOf = () => clientAddress(c, services.config.trustProxy);
    const refuse = async (): Promise<never> => {
      const address = addressOf();
      const state = address ? await quotas.authFailures.charge(address) : undefined;
      if (state && !state.allowed) throw tooManyFailures(c, state);
      throw new RequestError('UNAUTHENTICATED', 'The bearer token is unknown, revoked or malformed.');
    };
    if (!isPossibleToken(token)) return refuse();
    if (refusedLately.has(token)) {
      const address = addressOf();
      const state = address ? await quotas.authFailures.peek(address) : undefined;
      if (state && !state.allowed) throw tooManyFailures(c, state);
    }
    const viewer = await findViewer(services.db, services.plans, token, services.viewerCache);
    if (!viewer) {
      refusedLately.add(token);
      return refuse();
    }
    return createRequestContext({
      db: services.reads ? await services.reads.choose() : services.db,
      primaryDb: services.db,
      config: services.config,
      plans: services.plans,
      viewer,
      correlationId: c.var.correlationId,
      closing: services.closing,
    });
  };
}

/** 403 unless the caller's plan covers `area`. */
export function covers(area: DataArea): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const plan = c.var.ctx.viewer?.plan;
    if (!plan?.covers.includes(area)) {
      throw new DomainError(
        'FORBIDDEN',
        `Your plan (${plan?.name ?? 'none'}) does not cover ${area}; it covers ${plan?.covers.join(', ') || 'nothing'}.`,
      );
    }
    await next();
  };
}
