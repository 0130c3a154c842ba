import type { Context } from 'hono';
import { countReuseMs } from '../../db/counting.ts';
import type { AppEnv } from '../app-env.ts';
import { RequestError } from '../errors.ts';
import { countCostOf } from './count-price.ts';

/**
 * Charges the count behind a REST list's `total` to the token's cost points, the budget GraphQL charges a
 * `totalCount` to, at the same price ({@link countCostOf}), before the list is read. `filterKey` names what
 * is counted (the list and its filter, paging aside): the same token asking for the same count again within
 * `countReuseMs`, the time the count cache answers it without counting, is not charged again, so paging
 * through a list pays for its count once. Past the budget: 429 with `Retry-After`, and nothing is read.
 */
export async function chargeCount(c: Context<AppEnv>, filterKey: string): Promise<void> {
  const { viewer, config } = c.var.ctx;
  if (!viewer)
    throw new RequestError('UNAUTHENTICATED', 'Send a bearer token: Authorization: Bearer <token>.');
  const points = countCostOf(config.countTimeoutMs);
  const state = await c.var.quotas.chargeOnce('graphqlCost', viewer, filterKey, points, countReuseMs);
  if (state.allowed) return;
  c.header('Retry-After', String(state.resetSeconds));
  throw new RequestError(
    'RATE_LIMITED',
    `Counting this list's total costs ${points} points and ${state.remaining} of the ${state.limit} points ` +
      `per ${state.windowSeconds} s of plan ${viewer.plan.name} are left; retry in ${state.resetSeconds} s, ` +
      `or page on through a list already counted.`,
  );
}
