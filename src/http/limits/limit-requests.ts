import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../app-env.ts';
import { RequestError } from '../errors.ts';
import type { Quotas } from './quotas.ts';
import { rateLimitedHeaders, rateLimitHeaders } from './rate-limit-headers.ts';

/**
 * Charges one request to the caller's token and reports the budget on the response; 429 once it is spent.
 * Runs after authentication: the budget belongs to the token, so unauthenticated requests are not counted.
 */
export function limitRequests(quotas: Quotas): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const headers = await chargeRequest(c, quotas);
    // Set before the handler, so the responses Hono builds carry them from the start: `c.header` on a
    // finished response makes Hono rebuild it around a streamed body (bench/NOTES.md 8).
    for (const [name, value] of headers) c.header(name, value);
    await next();
    // A handler that returns its own Response drops headers set before it; they are added to that response's
    // own headers then (not with `c.header`, which would rebuild it once per header).
    if (!c.res.headers.has(headers[0]![0]))
      for (const [name, value] of headers) c.res.headers.set(name, value);
  };
}

/**
 * Charges one request to the caller's token: the headers that report its budget, or a 429 (its headers set on
 * `c`) once the budget is spent. Sets the budgets on `c` for the handler to charge further work to.
 */
export async function chargeRequest(c: Context<AppEnv>, quotas: Quotas): Promise<[string, string][]> {
  const viewer = c.var.ctx.viewer;
  if (!viewer)
    throw new RequestError('UNAUTHENTICATED', 'Send a bearer token: Authorization: Bearer <token>.');
  const state = await quotas.charge('requests', viewer, 1);
  if (!state.allowed) {
    for (const [name, value] of Object.entries(rateLimitedHeaders(viewer.plan.name, state))) {
      c.header(name, value);
    }
    throw new RequestError(
      'RATE_LIMITED',
      `This token has used its ${state.limit} requests per ${state.windowSeconds} s (plan ${viewer.plan.name}); ` +
        `retry in ${state.resetSeconds} s.`,
    );
  }
  c.set('quotas', quotas);
  return Object.entries(rateLimitHeaders(viewer.plan.name, state));
}
