import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPlans } from '../../src/auth/plans.ts';
import { createToken, revokeToken } from '../../src/auth/tokens.ts';
import { loadConfig } from '../../src/config.ts';
import { type DatabaseHandle, openDatabase, queryRows } from '../../src/db/database.ts';
import { createScratchDatabase, type ScratchDatabase } from '../reliability/support/scratch-postgres.ts';
import {
  type ServerProcess,
  startServerProcess,
  stopProcess,
} from '../reliability/support/server-process.ts';
import { runCli } from '../support/cli.ts';
import { needsPgbouncer } from './support/needs-pgbouncer.ts';
import { type Pgbouncer, startPgbouncer } from './support/pgbouncer.ts';

/**
 * Two orgraph processes behind a stock PgBouncer in transaction mode, each with DATABASE_DIRECT_URL for what needs
 * a session (LISTEN, the import's temporary tables, the migration lock): a revocation reaches both at once, an
 * import's commit wakes a subscription and a webhook on them at once, and an import under API load stores
 * everything. One instance recognises the pooler by itself, the other is told (DATABASE_POOLER=transaction).
 */
const present = needsPgbouncer();
let database: ScratchDatabase;
let bouncer: Pgbouncer;
let pooled: DatabaseHandle;
let files: string;
const instances: ServerProcess[] = [];
const plans = loadPlans();

const env = () => ({
  DATABASE_URL: bouncer.through(database.url),
  DATABASE_DIRECT_URL: database.url,
  DATABASE_POOLER: '',
  WEBHOOK_ALLOW_PRIVATE: 'true',
  // Far longer than the test waits: a delivery in time was woken by the commit's notification, not by polling.
  WEBHOOK_POLL_MS: '60000',
  WEBHOOK_RETRY_SECONDS: '1',
  DATA_DIR: '',
});

beforeAll(async () => {
  if (!present) return;
  database = await createScratchDatabase('pooler_instances');
  bouncer = await startPgbouncer(database.url, 'transaction');
  pooled = await openDatabase(loadConfig({ ...env() }));
  files = await mkdtemp(join(tmpdir(), 'orgraph-pooler-'));
  instances.push(
    ...(await Promise.all([
      startServerProcess(env()),
      startServerProcess({ ...env(), DATABASE_POOLER: 'transaction' }),
    ])),
  );
}, 120_000);
afterAll(async () => {
  for (const instance of instances) await stopProcess(instance.child, 'SIGTERM');
  await pooled?.close();
  await bouncer?.stop();
  await database?.drop();
  if (files) await rm(files, { recursive: true, force: true });
}, 60_000);

const newToken = async () =>
  (await createToken(pooled.db, plans, { plan: 'enterprise', label: 'pooler test' })).token;

const call = (instance: ServerProcess, path: string, token: string, init: RequestInit = {}) =>
  fetch(`${instance.url}${path}`, {
    ...init,
    headers: { Authorization: `Bearer ${token}`, Accept: 'application/json', ...init.headers },
  });

const reference = () => {
  const hex = randomBytes(16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
};

/** An NDJSON file of two organisations and `count` deals between them of the deal type `dealType`. */
async function dealsFile(dealType: string, count: number): Promise<string> {
  const [acquirer, acquiree] = [reference(), reference()];
  const organisation = (ref: string) => ({
    type: 'organisation',
    reference: ref,
    name: `Pooler Test ${ref.slice(0, 8)}`,
    status: 'active',
    verified: true,
    confidence: 80,
    totals: { employees: 120 },
  });
  const deals = Array.from({ length: count }, (_, index) => ({
    type: 'event',
    reference: reference(),
    event_type: 'deal',
    summary: `Deal ${index}`,
    publish_date: '2025-07-01T12:00:00Z',
    organisation_reference: acquirer,
    acquirer_reference: acquirer,
    acquiree_reference: acquiree,
    deal_type: dealType,
    deal_status: 'Completed',
  }));
  const path = join(files, `${dealType}.ndjson`);
  await writeFile(
    path,
    [organisation(acquirer), organisation(acquiree), ...deals].map((line) => JSON.stringify(line)).join('\n'),
  );
  return path;
}

const importFile = (path: string) =>
  runCli(['import', path, '--rejects', `${path}.rejects`, '--progress', 'none'], env());

const countDeals = async (dealType: string) =>
  (
    await queryRows<{ n: number }>(
      pooled.db,
      sql`select count(*)::int as n from events where deal_type = ${dealType}`,
    )
  )[0]!.n;

/** Polls `check` every 10 ms until it is true, for at most `boundMs`; resolves with the time it became true. */
async function when(check: () => boolean | Promise<boolean>, boundMs: number): Promise<number> {
  const deadline = performance.now() + boundMs;
  while (!(await check())) {
    if (performance.now() > deadline) throw new Error(`not within ${boundMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return performance.now();
}

describe('two instances behind PgBouncer in transaction mode', () => {
  it('refuses a revoked token on both instances within a second', async () => {
    const token = await newToken();
    for (const instance of instances) {
      // Twice: the second answer comes from the instance's token cache.
      for (let round = 0; round < 2; round += 1) {
        expect((await call(instance, '/v1/organisations?limit=1', token)).status).toBe(200);
      }
    }
    expect(await revokeToken(pooled.db, token)).toBe(true);
    const revokedAt = performance.now();
    const refusedAt = await Promise.all(
      instances.map((instance) =>
        when(async () => (await call(instance, '/v1/organisations?limit=1', token)).status === 401, 5_000),
      ),
    );
    for (const at of refusedAt) expect(at - revokedAt).toBeLessThan(1_000);
  }, 30_000);

  it("pushes an import's deals to a subscription and a webhook within a second of its commit", async () => {
    const token = await newToken();
    const dealType = `pool-${randomUUID()}`;
    const saved = await call(instances[0]!, '/v1/search/events', token, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        query: [{ fieldType: 'DealType', label: dealType, value: dealType, operator: 'EQUAL' }],
      }),
    });
    expect(saved.status).toBe(201);
    const { queryId } = ((await saved.json()) as { success: { queryId: string } }).success;

    const hooks: number[] = [];
    const receiver: Server = createServer((request, response) => {
      hooks.push(performance.now());
      request.resume();
      response.writeHead(200).end('ok');
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
      const subscribed = await call(instances[1]!, '/v1/webhooks', token, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ queryId, url: hookUrl }),
      });
      expect(subscribed.status).toBe(201);

      const stream = await call(instances[0]!, '/graphql', token, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream' },
        body: JSON.stringify({
          query: 'subscription ($queryId: UUID!) { savedSearchEvents(queryId: $queryId) { change } }',
          variables: { queryId },
        }),
      });
      expect(stream.status).toBe(200);
      const pushed: number[] = [];
      const reader = stream.body!.getReader();
      const reading = (async () => {
        const decoder = new TextDecoder();
        let text = '';
        for (;;) {
          const chunk = await reader.read();
          if (chunk.done) return;
          text += decoder.decode(chunk.value, { stream: true });
          const blocks = text.split('\n\n');
          text = blocks.pop()!;
          for (const block of blocks) if (/^event: next$/m.test(block)) pushed.push(performance.now());
        }
      })().catch(() => {});

      const path = await dealsFile(dealType, 5);
      let committedAt = 0;
      // The commit as seen from outside: the first moment the deals are visible on another connection.
      const watching = when(async () => (await countDeals(dealType)) === 5, 60_000).then((at) => {
        committedAt = at;
      });
      await importFile(path);
      await watching;
      await when(() => pushed.length > 0 && hooks.length > 0, 10_000);
      await reader.cancel();
      await reading;
      expect(pushed[0]! - committedAt).toBeLessThan(1_000);
      expect(hooks[0]! - committedAt).toBeLessThan(1_000);
    } finally {
      receiver.closeAllConnections();
      await new Promise((resolve) => receiver.close(resolve));
    }
  }, 90_000);

  it('stores every record of an import while both instances serve API requests', async () => {
    const token = await newToken();
    const dealType = `pool-load-${randomUUID()}`;
    const path = await dealsFile(dealType, 1_000);
    const statuses = new Map<number, number>();
    let loading = true;
    const stopAt = performance.now() + 60_000;
    const loaders = Array.from({ length: 6 }, async (_, index) => {
      const instance = instances[index % instances.length]!;
      while (loading && performance.now() < stopAt) {
        const response = await call(instance, '/v1/organisations?limit=5', token);
        await response.arrayBuffer();
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      }
    });
    try {
      const { stderr } = await importFile(path);
      expect(stderr).not.toMatch(/does not exist/);
    } finally {
      loading = false;
      await Promise.all(loaders);
    }
    expect(await countDeals(dealType)).toBe(1_000);
    expect([...statuses.keys()]).toEqual([200]);
    expect(statuses.get(200)).toBeGreaterThan(0);
  }, 120_000);
});
