import { afterEach, describe, expect, it } from 'vitest';
import type { Viewer } from '../../auth/tokens.ts';
import { createQuotas, type Quotas } from './quotas.ts';

const viewer: Viewer = {
  tokenId: 'token-1',
  plan: {
    name: 'tiny',
    covers: [],
    rateLimit: { requests: 2, windowSeconds: 60 },
    graphqlCost: { points: 10, windowSeconds: 30, maxPerQuery: 10 },
  },
};

let quotas: Quotas;
afterEach(() => quotas.close());

describe('createQuotas in memory', () => {
  it('counts requests per token and refuses past the quota', async () => {
    quotas = createQuotas({ rateLimitKeyPrefix: 'unit' });
    expect(quotas.store).toBe('memory');
    const first = await quotas.charge('requests', viewer, 1);
    const second = await quotas.charge('requests', viewer, 1);
    const third = await quotas.charge('requests', viewer, 1);
    expect(
      [first, second, third].map(({ allowed, remaining, limit }) => ({ allowed, remaining, limit })),
    ).toEqual([
      { allowed: true, remaining: 1, limit: 2 },
      { allowed: true, remaining: 0, limit: 2 },
      { allowed: false, remaining: 0, limit: 2 },
    ]);
    expect(third.resetSeconds).toBeGreaterThanOrEqual(1);
    expect(third.resetSeconds).toBeLessThanOrEqual(60);

    const otherToken = await quotas.charge('requests', { ...viewer, tokenId: 'token-2' }, 1);
    expect(otherToken).toMatchObject({ allowed: true, remaining: 1 });
  });

  it('does not count a refused charge, so a smaller one still fits', async () => {
    quotas = createQuotas({ rateLimitKeyPrefix: 'unit' });
    expect(await quotas.charge('graphqlCost', viewer, 7)).toMatchObject({ allowed: true, remaining: 3 });
    expect(await quotas.charge('graphqlCost', viewer, 4)).toMatchObject({ allowed: false, remaining: 3 });
    expect(await quotas.charge('graphqlCost', viewer, 3)).toMatchObject({ allowed: true, remaining: 0 });
  });

  it('keeps the two budgets apart and peeks without charging', async () => {
    quotas = createQuotas({ rateLimitKeyPrefix: 'unit' });
    expect(await quotas.peek('graphqlCost', viewer)).toEqual({
      allowed: true,
      limit: 10,
      remaining: 10,
      windowSeconds: 30,
      resetSeconds: 30,
    });
    await quotas.charge('requests', viewer, 1);
    await quotas.charge('graphqlCost', viewer, 0);
    expect(await quotas.peek('graphqlCost', viewer)).toMatchObject({ remaining: 10 });
    expect(await quotas.peek('requests', viewer)).toMatchObject({ remaining: 1 });
  });
});

describe('chargeOnce', () => {
  it('charges a key once per token within its reuse time, and a refused charge not at all', async () => {
    quotas = createQuotas({ rateLimitKeyPrefix: 'unit' });
    const other = { ...viewer, tokenId: 'token-2' };
    const charges = [
      await quotas.chargeOnce('graphqlCost', viewer, 'a', 6, 60_000),
      await quotas.chargeOnce('graphqlCost', viewer, 'a', 6, 60_000),
      await quotas.chargeOnce('graphqlCost', other, 'a', 6, 60_000),
      await quotas.chargeOnce('graphqlCost', viewer, 'b', 6, 60_000),
      await quotas.chargeOnce('graphqlCost', viewer, 'b', 4, 60_000),
      await quotas.chargeOnce('graphqlCost', viewer, 'b', 4, 60_000),
    ];
    expect(charges.map(({ allowed, charged, remaining }) => ({ allowed, charged, remaining }))).toEqual([
      { allowed: true, charged: 6, remaining: 4 },
      { allowed: true, charged: 0, remaining: 4 },
      { allowed: true, charged: 6, remaining: 4 },
      { allowed: false, charged: 0, remaining: 4 },
      { allowed: true, charged: 4, remaining: 0 },
      { allowed: true, charged: 0, remaining: 0 },
    ]);
  });

  it('charges again once the reuse time has passed', async () => {
    quotas = createQuotas({ rateLimitKeyPrefix: 'unit' });
    await quotas.chargeOnce('graphqlCost', viewer, 'a', 3, 0);
    expect(await quotas.chargeOnce('graphqlCost', viewer, 'a', 3, 0)).toMatchObject({
      charged: 3,
      remaining: 4,
    });
  });
});
