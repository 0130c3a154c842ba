import { sql } from 'drizzle-orm';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/database.ts';
import { isDatabaseUnavailable } from '../../src/domain/errors.ts';
import { openTestApp, type TestApp } from '../support/test-app.ts';
import { writeUnlimitedPlansFile } from './support/fuzz.ts';
import { createScratchDatabase, type ScratchDatabase, throughProxy } from './support/scratch-postgres.ts';
import { TcpProxy } from './support/tcp-proxy.ts';

/**
 * The service on a PostgreSQL reached through a TCP proxy that the tests break and mend: the database going down,
 * the network partitioning, statements running past the timeout, and more requests than connections. Short
 * timeouts keep the file quick; the bounds asserted are generous multiples of them.
 */
const statementTimeoutMs = 1_000;
const poolWaitMs = 500;
/** No request may take longer than this, whatever the fault (a fast failure is what is under test). */
const requestBoundMs = 8_000;
/** Service must resume within this of the database coming back (it typically takes well under a second). */
const recoveryBoundMs = 10_000;

let database: ScratchDatabase;
let proxy: TcpProxy;
let app: TestApp;
const figures: string[] = [];

beforeAll(async () => {
  database = await createScratchDatabase('faults', { seedScale: 0.1 });
  proxy = await TcpProxy.start({ host: database.host, port: database.port });
  app = await openTestApp({
    DATABASE_URL: throughProxy(database.url, proxy.port),
    DATABASE_READ_URL: '',
    STATEMENT_TIMEOUT_MS: String(statementTimeoutMs),
    DATABASE_POOL_WAIT_MS: String(poolWaitMs),
    DATABASE_POOL_MAX: '4',
    PLANS_FILE: writeUnlimitedPlansFile(),
  });
});
afterAll(async () => {
  console.log(`database faults:\n  ${figures.join('\n  ')}`);
  await app?.close();
  await proxy?.close();
  await database?.drop();
});

interface Timed {
  status: number;
  ms: number;
  body: { status?: { code: number; messages: string[] }; errors?: { extensions?: { code?: string } }[] };
  retryAfter: string | null;
}

async function timed(path: string, init: RequestInit & { token?: string | null } = {}): Promise<Timed> {
  const started = performance.now();
  const response = await app.request(path, init);
  const body = await response.json();
  return {
    status: response.status,
    ms: performance.now() - started,
    body,
    retryAfter: response.headers.get('Retry-After'),
  };
}

const graphqlRequest = {
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify({ query: '{ organisations(first: 2) { edges { node { name } } } }' }),
};

/** A REST list, a REST record, the graph, and the probes, as one round of traffic. */
async function roundOfTraffic() {
  const [list, record, graph, ready, health] = await Promise.all([
    timed('/v1/organisations?show_empty=true&limit=3'),
    timed('/v1/organisations/00000000-0000-4000-8000-000000000000'),
    timed('/graphql', graphqlRequest),
    timed('/readyz', { token: null }),
    timed('/healthz', { token: null }),
  ]);
  return { list, record, graph, ready, health };
}

function expectUnavailable(answer: Timed, transport: 'rest' | 'graphql') {
  expect(answer.status).toBe(503);
  expect(answer.retryAfter).toMatch(/^\d+$/);
  expect(answer.ms).toBeLessThan(requestBoundMs);
  if (transport === 'rest') {
    expect(answer.body.status).toEqual({ code: 503, messages: [expect.stringMatching(/database/i)] });
  } else {
    expect(answer.body.errors?.[0]?.extensions?.code).toBe('UNAVAILABLE');
  }
}

/** Polls until the list answers 200 again; returns how long that took. */
async function timeToRecover(): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < recoveryBoundMs) {
    const answer = await timed('/v1/organisations?show_empty=true&limit=3');
    if (answer.status === 200) return performance.now() - started;
    expect(answer.status).toBe(503);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the service did not recover within ${recoveryBoundMs} ms`);
}

async function expectHealthy() {
  const { list, record, graph, ready, health } = await roundOfTraffic();
  expect(list.status).toBe(200);
  expect((list.body as { success: unknown[] }).success.length).toBe(3);
  expect(record.status).toBe(404);
  expect(graph.status).toBe(200);
  expect(ready.status).toBe(200);
  expect(health.status).toBe(200);
}

describe('PostgreSQL going down and coming back', () => {
  it('fails fast with 503 while it is down, and resumes by itself once it is back', async () => {
    await expectHealthy();
    await proxy.refuse();

    for (let round = 0; round < 3; round += 1) {
      const { list, record, graph, ready, health } = await roundOfTraffic();
      expectUnavailable(list, 'rest');
      expectUnavailable(record, 'rest');
      expectUnavailable(graph, 'graphql');
      expect(ready.status).toBe(503);
      expect(ready.body).toEqual({ status: 'unavailable' });
      expect(health.status).toBe(200);
    }

    await proxy.restore();
    const recoveredMs = await timeToRecover();
    figures.push(
      `PostgreSQL down (connections reset, port refused): 503 in ≤ ${poolWaitMs} ms; recovered ${recoveredMs.toFixed(0)} ms after it came back`,
    );
    await expectHealthy();
  });
});

describe('the network to PostgreSQL partitioning and healing', () => {
  it('fails fast with 503 while no byte gets through, and resumes once it heals', async () => {
    await expectHealthy();
    proxy.blackhole();

    const { list, record, graph, ready, health } = await roundOfTraffic();
    expectUnavailable(list, 'rest');
    expectUnavailable(record, 'rest');
    expectUnavailable(graph, 'graphql');
    expect(ready.status).toBe(503);
    expect(health.status).toBe(200);
    const failedWithinMs = Math.max(list.ms, record.ms, graph.ms);

    await proxy.restore();
    const recoveredMs = await timeToRecover();
    figures.push(
      `network partition (no byte through): 503 within ${failedWithinMs.toFixed(0)} ms; recovered ${recoveredMs.toFixed(0)} ms after it healed`,
    );
    await expectHealthy();
  });
});

describe('statements slower than the statement timeout', () => {
  it('are cut off by PostgreSQL and answered 503, and the next requests are served', async () => {
    // Another session holds a lock every read of people waits for: the statements are slow, not the network.
    const locker = postgres(database.url, { max: 1, onnotice: () => {} });
    const reserved = await locker.reserve();
    try {
      await reserved`begin`;
      await reserved`lock table profiles in access exclusive mode`;
      const answer = await timed('/v1/profiles?limit=2');
      expectUnavailable(answer, 'rest');
      expect(answer.ms).toBeGreaterThanOrEqual(statementTimeoutMs * 0.9);
      // Reads that do not touch the locked table go on meanwhile.
      const unlocked = await timed('/v1/organisations?show_empty=true&limit=3');
      expect(unlocked.status).toBe(200);
      expect((unlocked.body as { success: unknown[] }).success).toHaveLength(3);
      figures.push(
        `statement past STATEMENT_TIMEOUT_MS=${statementTimeoutMs}: 503 after ${answer.ms.toFixed(0)} ms, other reads served meanwhile`,
      );
    } finally {
      await reserved`rollback`;
      reserved.release();
      await locker.end();
    }
    await expectHealthy();
  });
});

/** Rounds of failure and recovery in the integrity test; `FAULT_CYCLES=30 npm run test:long` runs more. */
const faultCycles = Number(process.env.FAULT_CYCLES ?? 3);

describe('answers across repeated failures', () => {
  it('never hand a statement the answer of another, and serve every statement once the database is back', async () => {
    const db = app.services.db;
    let mismatches = 0;
    let failures = 0;
    let answered = 0;
    let slowestMs = 0;
    const ask = async (value: string) => {
      const started = performance.now();
      try {
        const [row] = await queryRows<{ value: string }>(
          db,
          sql`select ${value}::text as value, pg_sleep(0.005)`,
        );
        answered += 1;
        if (row?.value !== value) mismatches += 1;
      } catch (error) {
        expect(isDatabaseUnavailable(error)).toBe(true);
        failures += 1;
      } finally {
        slowestMs = Math.max(slowestMs, performance.now() - started);
      }
    };
    for (let cycle = 0; cycle < faultCycles; cycle += 1) {
      let stop = false;
      const load = Promise.all(
        Array.from({ length: 8 }, async (_, client) => {
          for (let index = 0; !stop; index += 1) await ask(`${cycle}:${client}:${index}`);
        }),
      );
      await new Promise((resolve) => setTimeout(resolve, 30 + Math.random() * 70));
      if (cycle % 2 === 0) await proxy.refuse();
      else proxy.blackhole();
      await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 150));
      await proxy.restore();
      await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 200));
      stop = true;
      await load;
    }
    expect(mismatches).toBe(0);
    expect(answered).toBeGreaterThan(0);
    await timeToRecover();
    const values = Array.from({ length: 40 }, (_, index) => `after:${index}`);
    await Promise.all(values.map(ask));
    expect(mismatches).toBe(0);
    // Every statement settled, and soon: none was left waiting on a connection that had failed.
    expect(slowestMs).toBeLessThan(requestBoundMs);
    figures.push(
      `${faultCycles} rounds of failure under concurrent statements: ${answered} answered (each its own), ` +
        `${failures} failed as unavailable, 0 mixed up, slowest ${slowestMs.toFixed(0)} ms`,
    );
  }, 120_000);
});

describe('more concurrent requests than connections', () => {
  it('queues them, fails the ones that wait too long with 503, never hangs, and leaks no connection', async () => {
    const small = await openTestApp({
      DATABASE_URL: throughProxy(database.url, proxy.port),
      DATABASE_READ_URL: '',
      STATEMENT_TIMEOUT_MS: String(statementTimeoutMs),
      DATABASE_POOL_WAIT_MS: String(poolWaitMs),
      DATABASE_POOL_MAX: '2',
      PLANS_FILE: writeUnlimitedPlansFile(),
    });
    try {
      proxy.latencyMs = 100; // every statement now takes at least two 100 ms hops
      const started = performance.now();
      const answers = await Promise.all(
        Array.from({ length: 50 }, async (_, index) => {
          const begun = performance.now();
          const response = await small.request(
            index % 5 === 4 ? '/graphql' : `/v1/organisations?show_empty=true&limit=${1 + (index % 3)}`,
            index % 5 === 4 ? graphqlRequest : {},
          );
          return {
            status: response.status,
            ms: performance.now() - begun,
            retryAfter: response.headers.get('Retry-After'),
            body: await response.json(),
          };
        }),
      );
      const wallMs = performance.now() - started;
      proxy.latencyMs = 0;

      const statuses = answers.map((answer) => answer.status);
      expect(new Set(statuses)).toEqual(new Set([200, 503]));
      for (const answer of answers) {
        expect(answer.ms).toBeLessThan(requestBoundMs);
        if (answer.status === 503) {
          expect(answer.retryAfter).toMatch(/^\d+$/);
          const code = answer.body.status?.code ?? answer.body.errors?.[0]?.extensions?.code;
          expect([503, 'UNAVAILABLE']).toContain(code);
        }
      }
      const refused = answers.filter((answer) => answer.status === 503);
      const slowestRefusal = Math.max(...refused.map((answer) => answer.ms));
      figures.push(
        `pool exhaustion (DATABASE_POOL_MAX=2, 50 concurrent, +100 ms per hop): ${statuses.length - refused.length} served, ${refused.length} × 503 (slowest refusal ${slowestRefusal.toFixed(0)} ms), all done in ${wallMs.toFixed(0)} ms`,
      );

      // Every connection came back: a run of sequential requests is served in full.
      for (let index = 0; index < 10; index += 1) {
        expect((await small.request('/v1/organisations?show_empty=true&limit=1')).status).toBe(200);
      }
      const [{ connections }] = (await small.services.db.execute(
        sql`select count(*)::int as connections from pg_stat_activity where datname = current_database() and application_name = 'orgraph'`,
      )) as unknown as [{ connections: number }];
      expect(connections).toBeLessThanOrEqual(2 + 4);
    } finally {
      proxy.latencyMs = 0;
      await small.close();
    }
  });
});
