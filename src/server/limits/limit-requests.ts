import type { MiddlewareHandler } from 'hono';
import { DomainError } from '../../domain/errors.ts';
import type { AppEnv } from '../app-env.ts';
import type { Quotas } from './quotas.ts';
import { rateLimitedHeaders, rateLimitHeaders } from './rate-limit-headers.ts';

/**
 * Charges one request to the caller's token and reports the budget on the response; 429 once it is spent.
 * Runs after authentication: the budget belongs to the token, so unauthenticated requests are not counted.
 */
export function limitRequests(quotas: Quotas): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const viewer = c.var.ctx.viewer;
    if (!viewer)
      throw new DomainError('UNAUTHENTICATED', 'Send a bearer token: Authorization: Bearer <token>.');
    const state = await quotas.charge('requests', viewer, 1);
    if (!state.allowed) {
      for (const [name, value] of Object.entries(rateLimitedHeaders(viewer.plan.name, state))) {
        c.header(name, value);
      }
      throw new DomainError(
        'RATE_LIMITED',
        `This token has used its ${state.limit} requests per ${state.windowSeconds} s (plan ${viewer.plan.name}); ` +
          `retry in ${state.resetSeconds} s.`,
      );
    }
    await next();
    // Set after the handler: a handler that returns its own Response (the graph) would drop earlier headers.
    for (const [name, value] of Object.entries(rateLimitHeaders(viewer.plan.name, state)))
      c.header(name, value);
  };
}
