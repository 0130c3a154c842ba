import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadPlans } from '../../src/auth/plans.ts';
import { createToken } from '../../src/auth/tokens.ts';
import { loadConfig } from '../../src/config.ts';
import { countCostOf } from '../../src/http/limits/count-price.ts';
import type { AppServices } from '../../src/http/services.ts';
import { createApp } from '../../src/server/app.ts';
import { testServices } from '../support/services.ts';
import type { GraphqlError, PlanName, TestApp } from '../support/test-app.ts';

/**
 * Another instance of the service: its own configuration, plan catalogue and quota counters (its own Redis
 * connection when REDIS_URL is set), on the database of `base`. Instances share the database handle because the
 * embedded database admits one handle per process; what the limits tests look at is the counters.
 */
export interface Instance {
  services: AppServices;
  request(path: string, init?: RequestInit & { token?: string }): Promise<Response>;
  graphql(
    query: string,
    variables: Record<string, unknown>,
    token: string,
  ): Promise<{
    status: number;
    body: { data?: unknown; errors?: GraphqlError[]; extensions?: Record<string, unknown> };
  }>;
  close(): Promise<void>;
}

export function openInstance(base: TestApp, overrides: NodeJS.ProcessEnv = {}): Instance {
  const config = loadConfig({ ...process.env, ...overrides });
  const services: AppServices = {
    ...base.services,
    config,
    plans: loadPlans(config.plansFile),
    quotas: undefined,
  };
  const app = createApp(services);
  const request: Instance['request'] = (path, { token, ...init } = {}) => {
    const headers = new Headers(init.headers);
    if (token) headers.set('Authorization', `Bearer ${token}`);
    if (!headers.has('Accept')) headers.set('Accept', 'application/json');
    return Promise.resolve(app.fetch(new Request(`http://orgraph.test${path}`, { ...init, headers })));
  };
  return {
    services,
    request,
    async graphql(query, variables, token) {
      const response = await request('/graphql', {
        method: 'POST',
        token,
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ query, variables }),
      });
      return { status: response.status, body: await response.json() };
    },
    close: async () => services.quotas?.close(),
  };
}

export async function createTestToken(base: TestApp, plan: PlanName): Promise<string> {
  return (await createToken(base.services.db, base.services.plans, { plan, label: 'access: limits test' }))
    .token;
}

/** What a count costs in cost points with the configuration the tests run with (COUNT_TIMEOUT_MS). */
export const testCountCost = countCostOf(loadConfig(process.env).countTimeoutMs);

/**
 * Quotas small enough to spend in a test: 5 requests and, a minute, cost points for two counts and 40 more (25
 * per query). Two counts: a REST list's total is charged once per instance that counts it, and the shared-quota
 * tests page one list through two instances.
 */
export const tinyQuota = {
  requests: 5,
  costPoints: 2 * testCountCost + 40,
  maxPerQuery: 25,
  windowSeconds: 60,
};

/** Writes a plan catalogue with the shipped plan names (tokens reference them) and tiny quotas. */
export function writeTinyPlansFile(): string {
  const plan = (covers: string[]) => ({
    covers,
    rateLimit: { requests: tinyQuota.requests, windowSeconds: tinyQuota.windowSeconds },
    graphqlCost: {
      points: tinyQuota.costPoints,
      windowSeconds: tinyQuota.windowSeconds,
      maxPerQuery: tinyQuota.maxPerQuery,
    },
  });
  const everything = [
    'organisations',
    'people',
    'suggestions',
    'events',
    'searches',
    'ownership',
    'articles',
  ];
  const file = join(mkdtempSync(join(tmpdir(), 'orgraph-access-')), 'plans.json');
  writeFileSync(
    file,
    JSON.stringify({
      starter: plan(everything.slice(0, 3)),
      professional: plan(everything.slice(0, 6)),
      enterprise: plan(everything),
    }),
  );
  return file;
}

/**
 * The Redis the shared-quota tests use: REDIS_URL, or the local default. Their suites call `needs('redis')`
 * (test/support/services.ts): skipped with the reason when it cannot be reached, failed under CI.
 */
export const testRedisUrl = testServices.redisUrl;

/** A key prefix of its own per test run, so runs sharing one Redis never see each other's counters. */
export function uniqueKeyPrefix(): string {
  return `orgraph-test:${randomUUID()}`;
}
