import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadPlans } from '../../src/auth/plans.ts';
import { loadConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/db/database.ts';
import { migrateDatabase } from '../../src/db/migrate.ts';
import { createLogger, type Logger, useLogger } from '../../src/http/observability/logger.ts';
import { metrics } from '../../src/http/observability/metrics.ts';
import { openTestApp, type TestApp } from '../support/test-app.ts';
import { findServerBinaries, type StreamingReplica, startStreamingReplica } from './streaming-replica.ts';

// A real primary and its streaming replica (streaming-replica.ts), the service reading through DATABASE_READ_URL.
const binaries = findServerBinaries();
const missing = 'missing' in binaries ? binaries.missing : undefined;
if (missing && process.env.ORGRAPH_TEST_REQUIRE_SERVICES === '1') {
  throw new Error(`ORGRAPH_TEST_REQUIRE_SERVICES=1, and a streaming replica cannot be made: ${missing}.`);
}

let pair: StreamingReplica;
let app: TestApp;
let previousLogger: Logger | undefined;
let logged: Record<string, unknown>[] = [];
const organisation = randomUUID();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` every 100 ms until it holds, at most `ms`; fails with `what` otherwise. */
async function eventually(what: string, check: () => Promise<boolean>, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return;
    await sleep(100);
  }
  throw new Error(`Not within ${ms} ms: ${what}`);
}

async function readsOnPrimary(): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const { labels, value } of (await metrics.readsOnPrimary.get()).values) {
    counts[String(labels.reason)] = value;
  }
  return counts;
}

async function replicaStateMetric(): Promise<Record<string, number>> {
  const values: Record<string, number> = {};
  for (const { labels, value } of (await metrics.readReplicaState.get()).values)
    values[String(labels.state)] = value;
  return values;
}

const routingLines = () => logged.filter((line) => typeof line.replica === 'string');

async function readyz(): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await app.request('/readyz', { token: null });
  return { status: response.status, body: await response.json() };
}

/** Inserts a funding event on the primary; returns its reference. */
async function insertEvent(): Promise<string> {
  const reference = randomUUID();
  await app.services.db.execute(sql`
    insert into events (reference, type, summary, publish_date, organisation_reference)
    values (${reference}, 'funding', 'A round', now(), ${organisation})`);
  return reference;
}

describe.skipIf(missing)('a streaming replica behind DATABASE_READ_URL', () => {
  beforeAll(async () => {
    pair = await startStreamingReplica((binaries as { dir: string }).dir);
    const primary = await openDatabase(loadConfig({ DATABASE_URL: pair.primaryUrl }));
    try {
      await migrateDatabase(primary, loadPlans().keys());
      await primary.db.execute(sql`
        insert into organisations (reference, name, status, verified, confidence, is_fund, employees)
        values (${organisation}, 'Replicated', 'active', true, 90, false, 10)`);
    } finally {
      await primary.close();
    }
    previousLogger = useLogger(
      createLogger({
        level: 'info',
        destination: { write: (line: string) => logged.push(JSON.parse(line)) },
      }),
    );
    app = await openTestApp({
      DATABASE_URL: pair.primaryUrl,
      DATABASE_READ_URL: pair.replicaUrl,
      DATABASE_READ_MAX_LAG_MS: '100',
      DATABASE_POOL_MAX: '6',
      REDIS_URL: '',
    });
  }, 120_000);

  afterAll(async () => {
    if (previousLogger) useLogger(previousLogger);
    await app?.close();
    await pair?.close();
  }, 60_000);

  beforeEach(() => {
    logged = [];
  });

  it('serves reads from the replica once it has replayed what the primary had', async () => {
    const before = await readsOnPrimary();
    for (let attempt = 0; attempt < 20; attempt += 1) {
      const response = await app.request(`/v1/organisations/${organisation}`);
      expect(response.status).toBe(200);
      expect((await response.json()).success.reference).toBe(organisation);
    }
    expect(app.services.reads?.state).toBe('serving');
    expect(await readsOnPrimary()).toEqual(before);
    expect(await app.services.reads?.choose()).not.toBe(app.services.db);
    expect(await readyz()).toEqual({
      status: 200,
      body: {
        status: 'ready',
        readReplica: {
          database: expect.stringMatching(/^127\.0\.0\.1:\d+\/postgres$/),
          state: 'serving',
          readsFrom: 'replica',
        },
      },
    });
    expect(await replicaStateMetric()).toMatchObject({ serving: 1, lagging: 0, down: 0 });
  });

  it('never answers 404 for an event the feed announced while replay is paused', async () => {
    const saved = await app.request('/v1/search/events', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        query: [{ fieldType: 'EventType', label: 'Funding', value: 'funding', operator: 'EQUAL' }],
      }),
    });
    expect(saved.status).toBe(201);
    const { queryId } = (await saved.json()).success;
    const start = await app.getJson<{ meta: { cursor: string } }>(`/v1/searches/${queryId}/feed`);
    expect(start.status).toBe(200);
    let cursor = start.body.meta.cursor;

    await pair.pauseReplay();
    try {
      const statuses: number[] = [];
      for (let round = 0; round < 5; round += 1) {
        const reference = await insertEvent();
        const feed = await app.getJson<{
          success: { reference: string; change: string }[];
          meta: { cursor: string };
        }>(`/v1/searches/${queryId}/feed?after=${encodeURIComponent(cursor)}`);
        expect(feed.body.success.map((row) => [row.reference, row.change])).toEqual([[reference, 'added']]);
        cursor = feed.body.meta.cursor;
        // What the feed announced, read by reference and in the search's list.
        statuses.push((await app.request(`/v1/events/${reference}`)).status);
        const list = await app.getJson<{ success: { reference: string }[] }>(
          `/v1/events?queryId=${queryId}&limit=50`,
        );
        expect(list.status).toBe(200);
        expect(list.body.success.map((row) => row.reference)).toContain(reference);
      }
      expect(statuses).toEqual([200, 200, 200, 200, 200]);
      expect(app.services.reads?.state).toBe('lagging');
      expect((await readyz()).body).toMatchObject({
        status: 'degraded',
        readReplica: { state: 'lagging', readsFrom: 'primary' },
      });
      expect((await readsOnPrimary()).lagging).toBeGreaterThan(0);
    } finally {
      await pair.resumeReplay();
    }
    await eventually('reads return to the replica once replay resumes', async () => {
      await app.request(`/v1/organisations/${organisation}`);
      return app.services.reads?.state === 'serving';
    });
    expect(routingLines().map((line) => line.state)).toEqual(['lagging', 'serving']);
  });

  it('keeps every read answered while the replica is stopped under load, and returns to it', async () => {
    const statuses = new Map<number, number>();
    const stopAt = Date.now() + 500;
    const deadline = Date.now() + 3_000;
    const worker = async () => {
      while (Date.now() < deadline) {
        const response = await app.request(`/v1/organisations/${organisation}`);
        await response.arrayBuffer();
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      }
    };
    const load = Promise.all(Array.from({ length: 6 }, worker));
    await sleep(stopAt - Date.now());
    await pair.stopReplica();
    const during = await readyz();
    await load;

    expect([...statuses.keys()]).toEqual([200]);
    expect(statuses.get(200)).toBeGreaterThan(20);
    expect(during).toEqual({
      status: 200,
      body: {
        status: 'degraded',
        readReplica: { database: expect.any(String), state: 'down', readsFrom: 'primary' },
      },
    });
    expect(await replicaStateMetric()).toMatchObject({ serving: 0, down: 1 });
    const refused = routingLines();
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatchObject({ state: 'down', level: 40 });
    expect(String(refused[0]!.msg)).toMatch(
      /^read replica 127\.0\.0\.1:\d+\/postgres refused \(.+\); reads go to the primary/,
    );

    await pair.startReplica();
    await eventually('the replica serves again', async () => app.services.reads?.state === 'serving');
    expect((await readyz()).body).toMatchObject({ status: 'ready' });
    const lines = routingLines();
    expect(lines).toHaveLength(2);
    expect(String(lines[1]!.msg)).toMatch(
      /^read replica 127\.0\.0\.1:\d+\/postgres is back after \d+ ms; reads return to it$/,
    );
    const before = await readsOnPrimary();
    expect((await app.request(`/v1/organisations/${organisation}`)).status).toBe(200);
    expect(await readsOnPrimary()).toEqual(before);
  });
});

if (missing) {
  describe('a streaming replica', () => {
    it.skip(`cannot be made here: ${missing}`, () => {});
  });
}
