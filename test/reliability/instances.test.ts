import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPlans } from '../../src/auth/plans.ts';
import { createToken, revokeToken } from '../../src/auth/tokens.ts';
import { loadConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/db/database.ts';
import { testRedisUrl } from '../access/instances.ts';
import { needs } from '../support/services.ts';
import { createScratchDatabase, type ScratchDatabase } from './support/scratch-postgres.ts';
import { type ServerProcess, startServerProcess, stopProcess } from './support/server-process.ts';

/**
 * Two server processes on one PostgreSQL and one Redis behave as one service: the same answers, saved searches
 * shared, rate limits counted together, a revoked token refused by both at once.
 */
let database: ScratchDatabase;
let a: ServerProcess;
let b: ServerProcess;
const tokens = { enterprise: '', starter: '', revoked: '' };
/** The starter plan gets a budget small enough to spend across both instances. */
const starterRequests = 6;

function writePlansFile(): string {
  const shipped = JSON.parse(JSON.stringify(Object.fromEntries(loadPlans())));
  for (const plan of Object.values(shipped) as { name?: string }[]) delete plan.name;
  shipped.starter.rateLimit = { requests: starterRequests, windowSeconds: 60 };
  const file = join(mkdtempSync(join(tmpdir(), 'orgraph-instances-')), 'plans.json');
  writeFileSync(file, JSON.stringify(shipped));
  return file;
}

const withRedis = needs('redis');

beforeAll(async () => {
  if (!withRedis) return;
  database = await createScratchDatabase('instances', { seedScale: 0.1 });
  const env = {
    DATABASE_URL: database.url,
    DATA_DIR: '',
    REDIS_URL: testRedisUrl,
    RATE_LIMIT_KEY_PREFIX: `orgraph-test:${randomUUID()}`,
    PLANS_FILE: writePlansFile(),
  };
  const handle = await openDatabase(loadConfig(env));
  try {
    const plans = loadPlans(env.PLANS_FILE);
    for (const name of ['enterprise', 'starter', 'revoked'] as const) {
      const plan = name === 'starter' ? 'starter' : 'enterprise';
      tokens[name] = (await createToken(handle.db, plans, { plan, label: `instances ${name}` })).token;
    }
  } finally {
    await handle.close();
  }
  [a, b] = await Promise.all([startServerProcess(env), startServerProcess(env)]);
}, 120_000);
afterAll(async () => {
  for (const server of [a, b]) if (server) expect((await stopProcess(server.child, 'SIGTERM')).code).toBe(0);
  await database?.drop();
});

async function call(server: ServerProcess, path: string, token: string, init: RequestInit = {}) {
  const headers = new Headers(init.headers);
  headers.set('Authorization', `Bearer ${token}`);
  headers.set('Accept', 'application/json');
  const response = await fetch(`${server.url}${path}`, { ...init, headers });
  const body = (await response.json()) as Record<string, unknown>;
  delete body.correlation_id;
  return { status: response.status, body, headers: response.headers };
}

describe('two instances on one database and one Redis', () => {
  it('give the same answers', async () => {
    const paths = [
      '/v1/organisations?show_empty=true&limit=20',
      '/v1/profiles?limit=20&page=2',
      '/v1/events?limit=20',
      '/v1/search/suggestions?query=an',
    ];
    for (const path of paths) {
      const [fromA, fromB] = await Promise.all([
        call(a, path, tokens.enterprise),
        call(b, path, tokens.enterprise),
      ]);
      expect(fromA.status).toBe(200);
      expect((fromA.body.success as unknown[]).length).toBeGreaterThan(0);
      expect(fromB).toMatchObject({ status: fromA.status, body: fromA.body });
    }
    const graph = {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ query: '{ organisations(first: 5) { edges { node { id name } } } }' }),
    };
    const [graphA, graphB] = await Promise.all([
      call(a, '/graphql', tokens.enterprise, graph),
      call(b, '/graphql', tokens.enterprise, graph),
    ]);
    expect(graphA.body.data).toEqual(graphB.body.data);
    expect((graphA.body.data as { organisations: { edges: unknown[] } }).organisations.edges).toHaveLength(5);
  });

  it('share saved searches: saved on one, used on the other, the same id for the same chips', async () => {
    const chips = {
      query: [{ fieldType: 'EventType', label: `shared ${randomUUID()}`, value: 'move', operator: 'EQUAL' }],
    };
    const post = {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(chips),
    };
    const savedOnA = await call(a, '/v1/search/events', tokens.enterprise, post);
    expect(savedOnA.status).toBe(201);
    const queryId = (savedOnA.body.success as { queryId: string }).queryId;

    const [eventsOnA, eventsOnB] = await Promise.all([
      call(a, `/v1/events?queryId=${queryId}&limit=10`, tokens.enterprise),
      call(b, `/v1/events?queryId=${queryId}&limit=10`, tokens.enterprise),
    ]);
    expect(eventsOnB.status).toBe(200);
    expect(eventsOnB.body).toEqual(eventsOnA.body);
    for (const event of eventsOnB.body.success as { event_type: string }[])
      expect(event.event_type).toBe('move');

    const savedOnB = await call(b, '/v1/search/events', tokens.enterprise, post);
    expect(savedOnB.status).toBe(201);
    expect((savedOnB.body.success as { queryId: string }).queryId).toBe(queryId);
  });

  it("count a token's requests together: its budget is spent across both, and both refuse past it", async () => {
    const remaining: number[] = [];
    for (let index = 0; index < starterRequests; index += 1) {
      const server = index % 2 === 0 ? a : b;
      const answer = await call(server, '/v1/organisations?show_empty=true&limit=1', tokens.starter);
      expect(answer.status).toBe(200);
      remaining.push(Number(answer.headers.get('RateLimit')?.match(/;r=(\d+)/)?.[1]));
    }
    expect(remaining).toEqual(
      Array.from({ length: starterRequests }, (_, index) => starterRequests - 1 - index),
    );
    for (const server of [a, b]) {
      const refused = await call(server, '/v1/organisations?show_empty=true&limit=1', tokens.starter);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(0);
    }
  });

  it('refuse a revoked token on both as soon as PostgreSQL announces the change', async () => {
    for (const server of [a, b])
      expect((await call(server, '/v1/organisations?limit=1', tokens.revoked)).status).toBe(200);
    const handle = await openDatabase(loadConfig({ DATABASE_URL: database.url }));
    try {
      expect(await revokeToken(handle.db, tokens.revoked)).toBe(true);
    } finally {
      await handle.close();
    }
    // Each instance empties its token cache when the notification of the change reaches it, a moment after the
    // commit: asked again every 10 ms, each must refuse within a second and keep refusing.
    for (const server of [a, b]) {
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 100; attempt += 1) {
        statuses.push((await call(server, '/v1/organisations?limit=1', tokens.revoked)).status);
        if (statuses.at(-1) === 401) break;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(statuses.at(-1)).toBe(401);
      expect(statuses.every((status) => status === 200 || status === 401)).toBe(true);
      expect((await call(server, '/v1/organisations?limit=1', tokens.revoked)).status).toBe(401);
    }
  });
});
