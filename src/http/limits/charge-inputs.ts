import type { Context } from 'hono';
import type { AppEnv } from '../app-env.ts';
import { RequestError } from '../errors.ts';

/**
 * Charges a batch's rows beyond the first to the token's request budget (the request itself paid for one), so that
 * resolving 1,000 rows in one call costs what 1,000 calls would. Past the budget: 429 with `Retry-After`, nothing
 * is charged and nothing is read.
 */
export async function chargeInputs(c: Context<AppEnv>, inputs: number): Promise<void> {
  const { viewer } = c.var.ctx;
  if (!viewer)
    throw new RequestError('UNAUTHENTICATED', 'Send a bearer token: Authorization: Bearer <token>.');
  if (inputs <= 1) return;
  const state = await c.var.quotas.charge('requests', viewer, inputs - 1);
  if (state.allowed) return;
  c.header('Retry-After', String(state.resetSeconds));
  throw new RequestError(
    'RATE_LIMITED',
    `Each input counts as a request: these ${inputs} need ${inputs - 1} more of the ${state.remaining} left of ` +
      `plan ${viewer.plan.name}'s ${state.limit} per ${state.windowSeconds} s; retry in ${state.resetSeconds} s, ` +
      'or send fewer inputs.',
  );
}
