import { Redis } from 'ioredis';
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
} from 'rate-limiter-flexible';
import type { Plan } from '../../auth/plans.ts';
import type { Viewer } from '../../auth/tokens.ts';
import type { Config } from '../../config.ts';
import { logger } from '../observability/logger.ts';
import { metrics } from '../observability/metrics.ts';

/** The two budgets a plan sets per token: requests, and cost points (GraphQL operations and REST lists' totals). */
export type QuotaKind = 'requests' | 'graphqlCost';

/** Where a budget stands after a charge (or a look). */
export interface QuotaState {
  /** False when the charge did not fit; a refused charge is not counted. */
  allowed: boolean;
  limit: number;
  remaining: number;
  windowSeconds: number;
  /** Seconds until the window ends and the budget is whole again (at least 1). */
  resetSeconds: number;
}

export interface Quotas {
  /** `redis` when the counters are shared by every instance; `memory` when each instance counts alone. */
  readonly store: 'redis' | 'memory';
  charge(kind: QuotaKind, viewer: Viewer, points: number): Promise<QuotaState>;
  /**
   * Charges `points` for work whose result this instance reuses for `reuseMs` (a count, which the count cache
   * answers again for that long): the first time the token asks for `key`, and not again until `reuseMs` after
   * that charge. `charged` says which it was; a refused charge is not remembered.
   */
  chargeOnce(
    kind: QuotaKind,
    viewer: Viewer,
    key: string,
    points: number,
    reuseMs: number,
  ): Promise<QuotaState & { charged: number }>;
  peek(kind: QuotaKind, viewer: Viewer): Promise<QuotaState>;
  /**
   * Failed authentications per client address ({@link authFailureWindowSeconds}): `peek` before a token is looked
   * up (not allowed once spent), `charge` after a token was refused.
   */
  readonly authFailures: {
    peek(address: string): Promise<QuotaState>;
    charge(address: string): Promise<QuotaState>;
  };
  close(): Promise<void>;
}

/**
 * How many `chargeOnce` keys an instance remembers; past it the oldest is forgotten, and asking for it again is
 * charged again (never the other way round).
 */
const maxRememberedCharges = 10_000;

/** The window of the failed-authentication budget of a client address. */
export const authFailureWindowSeconds = 60;

/** A Redis command slower than this counts as Redis being down: the request goes on with the memory counters. */
const redisCommandTimeoutMs = 500;
/** At startup, how long a first request waits for the Redis connection before counting in memory. */
const redisStartupWaitMs = 2_000;

function budgetOf(plan: Plan, kind: QuotaKind): { points: number; windowSeconds: number } {
  return kind === 'requests'
    ? { points: plan.rateLimit.requests, windowSeconds: plan.rateLimit.windowSeconds }
    : { points: plan.graphqlCost.points, windowSeconds: plan.graphqlCost.windowSeconds };
}

function stateOf(
  allowed: boolean,
  budget: { points: number; windowSeconds: number },
  res: RateLimiterRes | null,
): QuotaState {
  const consumed = res?.consumedPoints ?? 0;
  const msBeforeNext = res && res.msBeforeNext > 0 ? res.msBeforeNext : budget.windowSeconds * 1000;
  return {
    allowed,
    limit: budget.points,
    remaining: Math.max(budget.points - consumed, 0),
    windowSeconds: budget.windowSeconds,
    resetSeconds: Math.max(1, Math.ceil(msBeforeNext / 1000)),
  };
}

/**
 * Per-token budgets from the plan catalogue. With REDIS_URL the counters live in Redis and every instance
 * shares them; without it each instance counts in memory. When Redis fails (down, unreachable, slower than
 * {@link redisCommandTimeoutMs}) the counting falls back to memory rather than refusing requests: an outage of
 * the counter store must not take the API down, and the per-instance memory counters still bound each client.
 */
export function createQuotas(
  config: Pick<Config, 'redisUrl' | 'rateLimitKeyPrefix'> & Partial<Pick<Config, 'authFailureLimit'>>,
): Quotas {
  const redis = config.redisUrl ? connectRedis(config.redisUrl) : undefined;
  const limiters = new Map<string, RateLimiterAbstract>();
  const failureBudget = { points: config.authFailureLimit ?? 30, windowSeconds: authFailureWindowSeconds };
  const failureOptions = {
    points: failureBudget.points,
    duration: failureBudget.windowSeconds,
    keyPrefix: `${config.rateLimitKeyPrefix}:authFailures`,
  };
  const failures: RateLimiterAbstract = redis
    ? new RateLimiterRedis({
        ...failureOptions,
        storeClient: redis.client,
        rejectIfRedisNotReady: true,
        insuranceLimiter: new RateLimiterMemory(failureOptions),
      })
    : new RateLimiterMemory(failureOptions);

  const limiterFor = (plan: Plan, kind: QuotaKind): RateLimiterAbstract => {
    const name = `${plan.name}:${kind}`;
    let limiter = limiters.get(name);
    if (!limiter) {
      const budget = budgetOf(plan, kind);
      const options = {
        points: budget.points,
        duration: budget.windowSeconds,
        keyPrefix: `${config.rateLimitKeyPrefix}:${kind}:${plan.name}`,
      };
      limiter = redis
        ? new RateLimiterRedis({
            ...options,
            storeClient: redis.client,
            rejectIfRedisNotReady: true,
            insuranceLimiter: new RateLimiterMemory(options),
          })
        : new RateLimiterMemory(options);
      limiters.set(name, limiter);
    }
    return limiter;
  };

  // Kept per instance even with Redis: what they stand for (the count cache) is per instance too.
  const charged = new Map<string, number>();

  const quotas: Quotas = {
    store: redis ? 'redis' : 'memory',
    async chargeOnce(kind, viewer, key, points, reuseMs) {
      const remembered = JSON.stringify([viewer.tokenId, kind, key]);
      const now = Date.now();
      const until = charged.get(remembered);
      if (until !== undefined && until > now) return { ...(await quotas.peek(kind, viewer)), charged: 0 };
      charged.delete(remembered);
      const state = await quotas.charge(kind, viewer, points);
      if (!state.allowed) return { ...state, charged: 0 };
      charged.set(remembered, now + reuseMs);
      if (charged.size > maxRememberedCharges) charged.delete(charged.keys().next().value!);
      return { ...state, charged: points };
    },
    async charge(kind, viewer, points) {
      await redis?.started;
      const budget = budgetOf(viewer.plan, kind);
      const limiter = limiterFor(viewer.plan, kind);
      if (points <= 0) return stateOf(true, budget, await limiter.get(viewer.tokenId));
      try {
        return stateOf(true, budget, await limiter.consume(viewer.tokenId, points));
      } catch (rejection) {
        if (!(rejection instanceof RateLimiterRes)) throw rejection;
        metrics.rateLimitRejections.inc({ kind });
        // Give the refused points back, so that a refused request does not eat into the next one.
        const after = await limiter.reward(viewer.tokenId, points).catch(() => rejection);
        return stateOf(false, budget, after);
      }
    },
    async peek(kind, viewer) {
      await redis?.started;
      return stateOf(
        true,
        budgetOf(viewer.plan, kind),
        await limiterFor(viewer.plan, kind).get(viewer.tokenId),
      );
    },
    authFailures: {
      async peek(address) {
        await redis?.started;
        const state = stateOf(true, failureBudget, await failures.get(address));
        return { ...state, allowed: state.remaining > 0 };
      },
      async charge(address) {
        await redis?.started;
        try {
          return stateOf(true, failureBudget, await failures.consume(address, 1));
        } catch (rejection) {
          if (!(rejection instanceof RateLimiterRes)) throw rejection;
          metrics.rateLimitRejections.inc({ kind: 'authFailures' });
          return stateOf(false, failureBudget, rejection);
        }
      },
    },
    async close() {
      redis?.client.disconnect();
    },
  };
  return quotas;
}

interface RedisConnection {
  client: Redis;
  /** Settles once the first connection is ready, or once waiting for it stops being worth it. */
  started: Promise<void>;
}

function connectRedis(url: string): RedisConnection {
  const client = new Redis(url, {
    commandTimeout: redisCommandTimeoutMs,
    connectTimeout: redisStartupWaitMs,
    maxRetriesPerRequest: 1,
    connectionName: 'orgraph-limits',
  });
  // Log transitions only: a Redis outage would otherwise log once per reconnection attempt.
  let healthy = true;
  client.on('error', (error: Error) => {
    if (!healthy) return;
    healthy = false;
    logger().warn(
      { error: error.message },
      'Redis for rate limits failed; counting in memory until it is back',
    );
  });
  client.on('ready', () => {
    if (healthy) return;
    healthy = true;
    logger().warn('Redis for rate limits is back; counters are shared again');
  });
  const started = new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, redisStartupWaitMs);
    timer.unref();
    client.once('ready', () => {
      clearTimeout(timer);
      resolve();
    });
  });
  return { client, started };
}
