import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metrics } from '../../src/http/observability/metrics.ts';
import { createApp } from '../../src/server/app.ts';
import { needs } from '../support/services.ts';
import { openTestApp, type TestApp } from '../support/test-app.ts';
import {
  createTestToken,
  type Instance,
  openInstance,
  testCountCost,
  testRedisUrl,
  tinyQuota,
  uniqueKeyPrefix,
  writeTinyPlansFile,
} from './instances.ts';

// One database handle (the embedded database admits one per process), several instances over it.
let base: TestApp;
const opened: Instance[] = [];
function open(overrides: NodeJS.ProcessEnv = {}): Instance {
  const instance = openInstance(base, overrides);
  opened.push(instance);
  return instance;
}
beforeAll(async () => {
  base = await openTestApp();
});
afterAll(async () => {
  for (const instance of opened) await instance.close();
  await base.services.quotas?.close();
  await base.close();
});

/** Parses `"name";r=1;t=2` into its parts. */
function parseRateLimit(value: string | null) {
  const match = value?.match(/^"([a-z0-9_-]+)";r=(\d+);t=(\d+)$/);
  if (!match) throw new Error(`not a RateLimit field: ${value}`);
  return { policy: match[1], remaining: Number(match[2]), reset: Number(match[3]) };
}

const freshToken = (_instance: Instance, plan: 'starter' | 'professional' | 'enterprise') =>
  createTestToken(base, plan);

describe('rate-limit headers with the shipped plans', () => {
  let app: Instance;
  beforeAll(async () => {
    app = open();
  });

  it("announce the plan's policy and count down on every authenticated REST response, errors included", async () => {
    const token = await freshToken(app, 'starter');
    const ok = await app.request('/v1/search/suggestions?query=a', { token });
    const forbidden = await app.request('/v1/events', { token });
    const missing = await app.request('/v1/nowhere', { token });
    expect([ok.status, forbidden.status, missing.status]).toEqual([200, 403, 404]);
    for (const response of [ok, forbidden, missing]) {
      expect(response.headers.get('RateLimit-Policy')).toBe('"starter";q=600;w=60');
    }
    const states = [ok, forbidden, missing].map((response) =>
      parseRateLimit(response.headers.get('RateLimit')),
    );
    expect(states.map((state) => state.remaining)).toEqual([599, 598, 597]);
    for (const state of states) {
      expect(state.policy).toBe('starter');
      expect(state.reset).toBeGreaterThanOrEqual(1);
      expect(state.reset).toBeLessThanOrEqual(60);
    }
  });

  it('count GraphQL requests on the same budget and send the same headers', async () => {
    const token = await freshToken(app, 'enterprise');
    await app.request('/v1/search/suggestions?query=a', { token });
    const response = await app.request('/graphql', {
      method: 'POST',
      token,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ query: '{ __typename }' }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('RateLimit-Policy')).toBe('"enterprise";q=12000;w=60');
    expect(parseRateLimit(response.headers.get('RateLimit')).remaining).toBe(11998);
    expect(await response.json()).toEqual({
      data: { __typename: 'Query' },
      extensions: {
        // The suggestions' total was counted and charged to the same cost points as GraphQL.
        cost: {
          requested: 0,
          remaining: 600000 - testCountCost,
          limit: 600000,
          resetSeconds: expect.any(Number),
        },
      },
    });
  });
});

describe('rate-limit headers on a graph request refused after its charge', () => {
  it('a body over the bound is 413 and still reports the budget it was charged to', async () => {
    const app = open();
    const token = await freshToken(app, 'enterprise');
    const response = await app.request('/graphql', {
      method: 'POST',
      token,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ query: '{ __typename }', variables: { padding: 'x'.repeat(120 * 1024) } }),
    });
    expect(response.status).toBe(413);
    expect(response.headers.get('RateLimit-Policy')).toBe('"enterprise";q=12000;w=60');
    expect(parseRateLimit(response.headers.get('RateLimit')).remaining).toBe(11999);
    expect((await response.json()).errors[0].extensions.code).toBe('PAYLOAD_TOO_LARGE');
  });
});

async function rejectionCount(kind: string): Promise<number> {
  const values = (await metrics.rateLimitRejections.get()).values;
  return values.find((value) => value.labels.kind === kind)?.value ?? 0;
}

describe('request quota (tiny plans, in memory)', () => {
  let app: Instance;
  beforeAll(async () => {
    app = open({ PLANS_FILE: writeTinyPlansFile() });
  });

  it('answers 429 in the envelope with Retry-After once the quota is spent, and counts per token', async () => {
    const token = await freshToken(app, 'starter');
    for (let index = 0; index < tinyQuota.requests; index += 1) {
      const response = await app.request('/v1/search/suggestions?query=a', { token });
      expect(response.status).toBe(200);
      expect(parseRateLimit(response.headers.get('RateLimit')).remaining).toBe(
        tinyQuota.requests - 1 - index,
      );
    }
    const rejectionsBefore = await rejectionCount('requests');
    const refused = await app.request('/v1/search/suggestions?query=a', { token });
    expect(refused.status).toBe(429);
    expect(await rejectionCount('requests')).toBe(rejectionsBefore + 1);
    const retryAfter = Number(refused.headers.get('Retry-After'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(tinyQuota.windowSeconds);
    expect(refused.headers.get('RateLimit-Policy')).toBe('"starter";q=5;w=60');
    expect(parseRateLimit(refused.headers.get('RateLimit'))).toEqual({
      policy: 'starter',
      remaining: 0,
      reset: retryAfter,
    });
    expect(await refused.json()).toEqual({
      status: {
        code: 429,
        messages: [`This token has used its 5 requests per 60 s (plan starter); retry in ${retryAfter} s.`],
      },
      success: null,
      meta: null,
      correlation_id: expect.any(String),
    });

    const graph = await app.graphql('{ __typename }', {}, token);
    expect(graph.status).toBe(429);
    expect(graph.body).toEqual({
      errors: [
        { message: expect.stringContaining('has used its 5 requests'), extensions: { code: 'RATE_LIMITED' } },
      ],
    });

    const other = await app.request('/v1/search/suggestions?query=a', {
      token: await freshToken(app, 'starter'),
    });
    expect(other.status).toBe(200);
  });
});

/**
 * Spends all but 40 of a tiny plan's cost points through two REST lists with totals to count (one point per
 * millisecond of the count time limit each), leaving the 40 the GraphQL cost tests spend. Two of the five requests.
 */
async function spendTwoCounts(app: Instance, token: string): Promise<void> {
  for (const query of ['ac', 'ad']) {
    const response = await app.request(`/v1/search/suggestions?query=${query}`, { token });
    expect(response.status).toBe(200);
  }
}

describe('GraphQL cost quota (tiny plans)', () => {
  let app: Instance;
  beforeAll(async () => {
    app = open({ PLANS_FILE: writeTinyPlansFile() });
  });

  // `nodes(ids:)` is a list of records without `first`: 1 + 20 × (1 + 0) = 21 points, whatever the ids.
  const query21 = '{ nodes(ids: []) { id } }';

  it('charges each operation, reports it in extensions.cost, and answers 429 when the points run out', async () => {
    const token = await freshToken(app, 'starter');
    await spendTwoCounts(app, token);
    const first = await app.graphql(query21, {}, token);
    expect(first.status).toBe(200);
    expect(first.body.extensions?.cost).toEqual({
      requested: 21,
      remaining: tinyQuota.costPoints - 2 * testCountCost - 21,
      limit: tinyQuota.costPoints,
      resetSeconds: expect.any(Number),
    });

    const response = await app.request('/graphql', {
      method: 'POST',
      token,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ query: query21 }),
    });
    expect(response.status).toBe(429);
    const retryAfter = Number(response.headers.get('Retry-After'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(tinyQuota.windowSeconds);
    const body = await response.json();
    expect(body).toEqual({
      errors: [
        {
          message: `This query costs 21 points and 19 of the ${tinyQuota.costPoints} points per 60 s of plan starter are left; retry in ${retryAfter} s.`,
          extensions: { code: 'RATE_LIMITED' },
        },
      ],
      extensions: {
        cost: { requested: 21, remaining: 19, limit: tinyQuota.costPoints, resetSeconds: retryAfter },
      },
    });

    // The refused operation was not charged: a cheaper one still fits.
    const cheap = await app.graphql('{ __schema { queryType { name } } }', {}, token);
    expect(cheap.body.extensions?.cost).toMatchObject({ requested: 1, remaining: 18 });
  });

  it('refuses an operation above maxPerQuery before charging it', async () => {
    const token = await freshToken(app, 'starter');
    // 21 for the list, 1 for each introspection field.
    const expensive = `{ nodes(ids: []) { id } ${['a', 'b', 'c', 'd', 'e'].map((alias) => `${alias}: __type(name: "Query") { name }`).join(' ')} }`;
    const { status, body } = await app.graphql(expensive, {}, token);
    expect(status).toBe(200);
    expect(body.data).toBeUndefined();
    expect(body.errors).toEqual([
      {
        message:
          'This query costs 26 points, over the limit of 25 per query of plan starter; ask for fewer items (first/last) or fewer nested connections.',
        extensions: { code: 'QUERY_LIMIT_EXCEEDED', limit: 'cost' },
      },
    ]);
    expect(body.extensions?.cost).toMatchObject({
      requested: 26,
      remaining: tinyQuota.costPoints,
      limit: tinyQuota.costPoints,
    });
  });
});

describe('quotas shared through Redis', () => {
  const withRedis = needs('redis');
  const prefix = uniqueKeyPrefix();
  let left: Instance;
  let right: Instance;
  beforeAll(async () => {
    if (!withRedis) return;
    const plansFile = writeTinyPlansFile();
    const settings = { PLANS_FILE: plansFile, REDIS_URL: testRedisUrl, RATE_LIMIT_KEY_PREFIX: prefix };
    left = open(settings);
    right = open(settings);
  });

  it('counts one token across two instances', async () => {
    expect(left.services.quotas?.store).toBe('redis');
    const token = await freshToken(left, 'professional');
    const remaining: number[] = [];
    for (const app of [left, right, left, right, right]) {
      const response = await app.request('/v1/search/suggestions?query=a', { token });
      expect(response.status).toBe(200);
      remaining.push(parseRateLimit(response.headers.get('RateLimit')).remaining);
    }
    expect(remaining).toEqual([4, 3, 2, 1, 0]);

    for (const app of [left, right]) {
      const refused = await app.request('/v1/search/suggestions?query=a', { token });
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThanOrEqual(1);
    }
  });

  it('shares the GraphQL cost points too', async () => {
    const token = await freshToken(left, 'professional');
    await spendTwoCounts(left, token);
    const spent = await left.graphql('{ nodes(ids: []) { id } }', {}, token);
    expect(spent.body.extensions?.cost).toMatchObject({ requested: 21, remaining: 19 });
    const refused = await right.graphql('{ nodes(ids: []) { id } }', {}, token);
    expect(refused.status).toBe(429);
    expect(refused.body.errors?.[0]?.extensions?.code).toBe('RATE_LIMITED');
  });
});

describe('when Redis cannot be reached', () => {
  let app: Instance;
  beforeAll(async () => {
    // Port 1 refuses connections: Redis is configured but down.
    app = open({
      PLANS_FILE: writeTinyPlansFile(),
      REDIS_URL: 'redis://127.0.0.1:1',
      RATE_LIMIT_KEY_PREFIX: uniqueKeyPrefix(),
    });
  });

  it('keeps answering, counting in memory (fail open), and still enforces the quota per instance', async () => {
    const token = await freshToken(app, 'starter');
    const statuses: number[] = [];
    for (let index = 0; index <= tinyQuota.requests; index += 1) {
      const response = await app.request('/v1/search/suggestions?query=a', { token });
      statuses.push(response.status);
      expect(response.headers.get('RateLimit-Policy')).toBe('"starter";q=5;w=60');
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });
});

describe('request body size', () => {
  let app: Instance;
  let token = '';
  beforeAll(async () => {
    app = open();
    token = await freshToken(app, 'enterprise');
  });

  const chip = { fieldType: 'EventType', label: 'Move', value: 'move', operator: 'EQUAL' };
  const oversizedSearch = JSON.stringify({ query: Array.from({ length: 1200 }, () => chip) });

  it('refuses a saved search over 64 KiB with 413 in the envelope', async () => {
    expect(oversizedSearch.length).toBeGreaterThan(64 * 1024);
    const response = await app.request('/v1/search/events', {
      method: 'POST',
      token: await freshToken(app, 'professional'),
      headers: { 'Content-Type': 'application/json' },
      body: oversizedSearch,
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({
      status: { code: 413, messages: ['The request body is larger than the 64 KiB this endpoint accepts.'] },
      success: null,
    });
  });

  it('refuses a GraphQL body over 100 KiB with a GraphQL-shaped 413, declared or streamed', async () => {
    const query = `{ __typename }${' '.repeat(101 * 1024)}`;
    const declared = await app.request('/graphql', {
      method: 'POST',
      token,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ query }),
    });
    const bytes = new TextEncoder().encode(JSON.stringify({ query }));
    const streamed = await app.request('/graphql', {
      method: 'POST',
      token,
      headers: { 'Content-Type': 'application/json' },
      body: new ReadableStream({
        start(controller) {
          for (let offset = 0; offset < bytes.length; offset += 16 * 1024) {
            controller.enqueue(bytes.slice(offset, offset + 16 * 1024));
          }
          controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    for (const response of [declared, streamed]) {
      expect(response.status).toBe(413);
      expect(await response.json()).toEqual({
        errors: [
          {
            message: 'The request body is larger than the 100 KiB this endpoint accepts.',
            extensions: { code: 'PAYLOAD_TOO_LARGE' },
          },
        ],
      });
    }
  });

  it('judges a declared body by its Content-Length over a real connection, the way the Node server runs', async () => {
    const server = serve({ fetch: createApp(app.services).fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise((resolve) => server.once('listening', resolve));
    const { port } = server.address() as AddressInfo;
    const post = (path: string, body: string) =>
      fetch(`http://127.0.0.1:${port}${path}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body,
      });
    try {
      const over = await post(
        '/graphql',
        JSON.stringify({ query: `{ __typename }${' '.repeat(101 * 1024)}` }),
      );
      expect(over.status).toBe(413);
      expect(await over.json()).toMatchObject({ errors: [{ extensions: { code: 'PAYLOAD_TOO_LARGE' } }] });
      const under = await post(
        '/graphql',
        JSON.stringify({ query: `{ __typename }${' '.repeat(90 * 1024)}` }),
      );
      expect(under.status).toBe(200);
      expect(await under.json()).toMatchObject({ data: { __typename: 'Query' } });
      const search = await post('/v1/search/events', oversizedSearch);
      expect(search.status).toBe(413);
      expect((await search.json()).status.code).toBe(413);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('accepts a GraphQL body just under the limit', async () => {
    const { status, body } = await app.graphql(`{ __typename }${' '.repeat(90 * 1024)}`, {}, token);
    expect(status).toBe(200);
    expect(body.data).toEqual({ __typename: 'Query' });
  });
});
