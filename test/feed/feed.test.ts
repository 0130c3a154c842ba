import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/database.ts';
import { loadCursorKey, signCursor } from '../../src/domain/feed/feed-cursor.ts';
import { pruneChangeLog } from '../../src/domain/feed/prune.ts';
import { readFeed } from '../../src/domain/feed/read-feed.ts';
import { runCli } from '../support/cli.ts';
import { type Envelope, openTestApp, type TestApp } from '../support/test-app.ts';
import { feedDatabase } from './support.ts';

interface FeedRow {
  reference: string;
  event_type: string;
  change: 'added' | 'updated' | 'removed';
  cursor: string;
  summary: string | null;
  publish_date: string;
  data: Record<string, unknown>;
}
type FeedEnvelope = Envelope<FeedRow[] | null, { cursor: string; has_more: boolean } | null>;

const onPostgres = Boolean(process.env.DATABASE_URL);
const database = await feedDatabase('feed');

let app: TestApp;
beforeAll(async () => {
  app = await openTestApp(database.env);
});
afterAll(() => app.close());

/** A saved search on a deal type no seeded event has, so only this test's events can match. */
async function saveSearch(app: TestApp, dealType: string): Promise<string> {
  const response = await app.request('/v1/search/events', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      query: [{ fieldType: 'DealType', label: dealType, value: dealType, operator: 'EQUAL' }],
    }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as Envelope<{ queryId: string }>).success.queryId;
}

/**
 * A copy of a seeded deal under a new reference, deal type and summary: a realistic row (its organisations exist)
 * published when the original was, so the newest-first event lists of other test files are not disturbed.
 */
const copyDealText = `insert into events (reference, type, summary, publish_date, organisation_reference, acquirer_reference,
    acquiree_reference, deal_type, deal_status, details)
  select $1::uuid, type, $3, publish_date, organisation_reference, acquirer_reference, acquiree_reference, $2, deal_status, details
  from events where type = 'deal' and acquirer_reference is not null and acquiree_reference is not null
  order by reference limit 1`;

const insertDeal = (reference: string, dealType: string, summary = 'a deal') =>
  sql.raw(
    copyDealText
      .replace('$1', `'${reference}'`)
      .replace('$2', `'${dealType}'`)
      .replace('$3', `'${summary.replaceAll("'", "''")}'`),
  );

async function feed(app: TestApp, queryId: string, after?: string, limit = 20) {
  const params = new URLSearchParams({ limit: String(limit) });
  if (after) params.set('after', after);
  return app.getJson<FeedEnvelope>(`/v1/searches/${queryId}/feed?${params}`);
}

/** Pages through the feed from `after` until it has caught up; returns the rows and the last cursor. */
async function drain(app: TestApp, queryId: string, after: string, limit = 7) {
  const rows: FeedRow[] = [];
  let cursor = after;
  for (let page = 0; page < 1000; page += 1) {
    const { status, body } = await feed(app, queryId, cursor, limit);
    expect(status).toBe(200);
    rows.push(...body.success!);
    cursor = body.meta!.cursor;
    if (!body.meta!.has_more) return { rows, cursor };
  }
  throw new Error('the feed never caught up');
}

describe('GET /v1/searches/{queryId}/feed', () => {
  it('starts now, then gives each change that touches the search once, in order, with its kind', async () => {
    const dealType = `feed-${randomUUID()}`;
    const queryId = await saveSearch(app, dealType);
    const db = app.services.db;
    const before = randomUUID();
    await db.execute(insertDeal(before, dealType));

    const start = await feed(app, queryId);
    expect(start.status).toBe(200);
    expect(start.body.success).toEqual([]);
    expect(start.body.meta!.has_more).toBe(false);

    const [a, b, other] = [randomUUID(), randomUUID(), randomUUID()];
    await db.execute(insertDeal(a, dealType, 'first'));
    await db.execute(insertDeal(other, 'some other deal type'));
    await db.execute(insertDeal(b, dealType, 'second'));
    await db.execute(sql`update events set summary = 'first, revised' where reference = ${a}`);
    await db.execute(sql`update events set deal_type = 'no longer' where reference = ${b}`);
    await db.execute(sql`update events set deal_type = ${dealType} where reference = ${other}`);
    await db.execute(sql`update events set summary = 'unchanged' where reference = ${before} and false`);
    await db.execute(sql`delete from events where reference = ${a}`);
    await db.execute(sql`delete from events where reference = ${before}`);

    const { rows, cursor } = await drain(app, queryId, start.body.meta!.cursor, 2);
    expect(rows.map((row) => [row.reference, row.change, row.summary])).toEqual([
      [a, 'added', 'first'],
      [b, 'added', 'second'],
      [a, 'updated', 'first, revised'],
      [b, 'removed', 'second'],
      [other, 'added', 'a deal'],
      [a, 'removed', 'first, revised'],
      [before, 'removed', 'a deal'],
    ]);
    expect(rows.every((row) => row.event_type === 'deal')).toBe(true);
    // Every row's cursor resumes right after it.
    const resumed = await drain(app, queryId, rows[3]!.cursor, 50);
    expect(resumed.rows.map((row) => row.reference)).toEqual([other, a, before]);
    // Caught up: nothing more, and the cursor still works.
    expect((await drain(app, queryId, cursor)).rows).toEqual([]);
    await db.execute(sql`delete from events where reference = ${other}`);
  });

  it('lists a participant change of a matching event as updated', async () => {
    const dealType = `feed-${randomUUID()}`;
    const queryId = await saveSearch(app, dealType);
    const db = app.services.db;
    const [profile] = await queryRows<{ reference: string }>(db, sql`select reference from profiles limit 1`);
    const start = (await feed(app, queryId)).body.meta!.cursor;
    const reference = randomUUID();
    await db.execute(insertDeal(reference, dealType));
    await db.execute(
      sql`insert into event_participants (event_reference, profile_reference, role) values (${reference}, ${profile!.reference}, 'investor')`,
    );
    const { rows } = await drain(app, queryId, start);
    expect(rows.map((row) => [row.reference, row.change])).toEqual([
      [reference, 'added'],
      [reference, 'updated'],
    ]);
    await db.execute(sql`delete from events where reference = ${reference}`);
  });

  it('answers a cursor it did not issue with 404, a text of no cursor form or an expired cursor with 422', async () => {
    const queryId = await saveSearch(app, `feed-${randomUUID()}`);
    const otherId = await saveSearch(app, `feed-${randomUUID()}`);
    const cursor = (await feed(app, queryId)).body.meta!.cursor;
    const [payload, signature] = cursor.split('.');
    const altered = `${Buffer.from(Buffer.from(payload!, 'base64url').toString().replace(/^/, '9')).toString('base64url')}.${signature}`;
    // Of a cursor's form, and never issued for this search: unknown, as an unknown reference is.
    const foreign = (await feed(app, otherId)).body.meta!.cursor;
    for (const bad of [altered, foreign, `${payload}.${'A'.repeat(24)}`, `AAAA.${'0'.repeat(24)}`]) {
      const { status, body } = await feed(app, queryId, bad);
      expect(status, bad).toBe(404);
      expect(body.status.messages[0]).toBe(
        `The feed cursor "${bad}" was not issued for this saved search; resume from a cursor this feed returned, or start again without \`after\`.`,
      );
    }
    // Not of a cursor's form: the parameter is wrong.
    for (const bad of ['garbage', `${payload}.AAAA`, `${cursor}.x`, '0'.repeat(200)]) {
      const { status, body } = await feed(app, queryId, bad);
      expect(status, bad).toBe(422);
      expect(body.status.messages[0]).toMatch(/`after`/);
    }
    const key = await loadCursorKey(app.services.db);
    const day = 24 * 60 * 60 * 1000;
    const old = (days: number) =>
      signCursor(key, queryId, { xid: '1', seq: '0', at: Date.now() - days * day });
    const expired = await feed(app, queryId, old(31));
    expect(expired.status).toBe(422);
    expect(expired.body.status.messages[0]).toMatch(/expired.*30 days/);
    expect((await feed(app, queryId, old(29))).status).toBe(200);
    expect((await feed(app, randomUUID())).status).toBe(404);
    expect((await app.getJson(`/v1/searches/${queryId}/feed`, app.tokens.starter)).status).toBe(403);
  });

  it(`resumes after a restart${onPostgres ? ' and on a second instance of the service' : ''}`, async () => {
    const dealType = `feed-${randomUUID()}`;
    const queryId = await saveSearch(app, dealType);
    let cursor = (await feed(app, queryId)).body.meta!.cursor;
    const seen: string[] = [];
    const written: string[] = [];
    // The embedded database admits one process, so there the second instance is left out.
    const other = onPostgres ? await openTestApp(database.env) : null;
    try {
      for (let round = 0; round < 6; round += 1) {
        for (let index = 0; index < 3; index += 1) {
          const reference = randomUUID();
          written.push(reference);
          await app.services.db.execute(insertDeal(reference, dealType));
        }
        const reader = other && round % 2 === 1 ? other : app;
        const page = await drain(reader, queryId, cursor, 2);
        seen.push(...page.rows.map((row) => row.reference));
        cursor = page.cursor;
        if (round % 2 === 1) {
          // A restart: the database closed and opened again, the cursor key read anew.
          await app.close();
          app = await openTestApp(database.env);
        }
      }
      expect(seen).toEqual(written);
    } finally {
      await other?.close();
      await app.services.db.execute(sql`delete from events where deal_type = ${dealType}`);
    }
  });
});

describe('pruning the change log', () => {
  it('deletes changes older than the retention and keeps the rest', async () => {
    const db = app.services.db;
    const reference = randomUUID();
    await db.execute(insertDeal(reference, `feed-${randomUUID()}`));
    await db.execute(
      sql`update event_changes set changed_at = now() - interval '40 days' where event_reference = ${reference}`,
    );
    const fresh = randomUUID();
    await db.execute(sql`update events set summary = 'kept' where reference = ${reference}`);
    await db.execute(insertDeal(fresh, `feed-${randomUUID()}`));
    expect(await pruneChangeLog(db)).toBeGreaterThanOrEqual(1);
    const left = await queryRows<{ event_reference: string }>(
      db,
      sql`select event_reference from event_changes where event_reference in (${reference}, ${fresh}) order by xid, seq`,
    );
    expect(left.map((row) => row.event_reference)).toEqual([reference, fresh]);
    await db.execute(sql`delete from events where reference in (${reference}, ${fresh})`);
  });
});

describe('savedSearch { feed }', () => {
  const query = `query ($queryId: UUID!, $after: String, $first: Int) {
    savedSearch(queryId: $queryId) {
      feed(after: $after, first: $first) {
        resumeCursor
        pageInfo { hasNextPage endCursor }
        edges { cursor change node { reference eventType } }
      }
    }
  }`;
  interface FeedData {
    savedSearch: {
      feed: {
        resumeCursor: string;
        pageInfo: { hasNextPage: boolean; endCursor: string | null };
        edges: { cursor: string; change: string; node: { reference: string; eventType: string } }[];
      } | null;
    };
  }

  it('pages the same rows as REST, and its cursors resume either', async () => {
    const dealType = `feed-${randomUUID()}`;
    const queryId = await saveSearch(app, dealType);
    const start = await app.graphql<FeedData>(query, { queryId });
    expect(start.body.errors).toBeUndefined();
    expect(start.body.data!.savedSearch.feed!.edges).toEqual([]);
    const written = [randomUUID(), randomUUID(), randomUUID()];
    for (const reference of written) await app.services.db.execute(insertDeal(reference, dealType));
    await app.services.db.execute(sql`delete from events where reference = ${written[0]}`);

    const first = await app.graphql<FeedData>(query, {
      queryId,
      after: start.body.data!.savedSearch.feed!.resumeCursor,
      first: 2,
    });
    const page = first.body.data!.savedSearch.feed!;
    expect(page.edges.map((edge) => [edge.node.reference, edge.change, edge.node.eventType])).toEqual([
      [written[0], 'ADDED', 'DEAL'],
      [written[1], 'ADDED', 'DEAL'],
    ]);
    expect(page.pageInfo).toEqual({ hasNextPage: true, endCursor: page.edges[1]!.cursor });
    // The graph's cursor resumes the REST feed, and the other way round.
    const rest = await drain(app, queryId, page.pageInfo.endCursor!);
    expect(rest.rows.map((row) => [row.reference, row.change])).toEqual([
      [written[2], 'added'],
      [written[0], 'removed'],
    ]);
    const caughtUp = await app.graphql<FeedData>(query, { queryId, after: rest.cursor });
    expect(caughtUp.body.data!.savedSearch.feed!.edges).toEqual([]);

    const backwards = await app.graphql(
      `query ($queryId: UUID!) { savedSearch(queryId: $queryId) { feed(last: 2) { edges { cursor } } } }`,
      { queryId },
    );
    expect(backwards.body.errors?.[0]?.message).toMatch(/forward only/);
    const forged = await app.graphql<FeedData>(query, { queryId, after: 'not-a-cursor' });
    expect(forged.body.errors?.[0]?.extensions?.code).toBe('INVALID_PARAMETER');
    const starter = await app.graphql<FeedData>(query, { queryId }, app.tokens.starter);
    expect(starter.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    await app.services.db.execute(sql`delete from events where deal_type = ${dealType}`);
  });
});

/** A promise and the function that resolves it: one side of a test waits for the other to reach a point. */
function signal(): [Promise<void>, () => void] {
  let resolve!: () => void;
  const reached = new Promise<void>((done) => {
    resolve = done;
  });
  return [reached, resolve];
}

describe.runIf(onPostgres)('the feed under concurrent writers (PostgreSQL)', () => {
  it('says when a committed change waits behind an older open transaction, so a stream looks again', async () => {
    const dealType = `feed-${randomUUID()}`;
    const queryId = await saveSearch(app, dealType);
    const start = (await feed(app, queryId)).body.meta!.cursor;
    const older = postgres(database.url!, { max: 1, onnotice: () => {} });
    try {
      const [held, release] = signal();
      const [isOpen, opened] = signal();
      const transaction = older.begin(async (tx) => {
        await tx`select pg_current_xact_id()`;
        opened();
        await held;
      });
      await isOpen;
      const reference = randomUUID();
      await app.services.db.execute(insertDeal(reference, dealType));
      const during = await readFeed(app.services.db, queryId, { after: start, limit: 10 });
      expect({ entries: during.entries.length, held: during.held }).toEqual({ entries: 0, held: true });
      release();
      await transaction;
      const after = await readFeed(app.services.db, queryId, { after: start, limit: 10 });
      expect(after.entries.map((entry) => entry.event.reference)).toEqual([reference]);
      expect(after.held).toBe(false);
    } finally {
      await older.end();
    }
  });

  it('orders by the log, never shows an open transaction, and misses or repeats nothing', async () => {
    const dealType = `feed-${randomUUID()}`;
    const queryId = await saveSearch(app, dealType);
    const start = (await feed(app, queryId)).body.meta!.cursor;
    const first = postgres(database.url!, { max: 1, onnotice: () => {} });
    const second = postgres(database.url!, { max: 1, onnotice: () => {} });
    try {
      // Interleaved: A writes first but commits last; B commits in between.
      const [a1, b1, a2] = [randomUUID(), randomUUID(), randomUUID()];
      const [held, release] = signal();
      const [aWrote, wrote] = signal();
      const transactionA = first.begin(async (tx) => {
        await tx.unsafe(copyDealText, [a1, dealType, 'a deal']);
        wrote();
        await held;
        await tx.unsafe(copyDealText, [a2, dealType, 'a deal']);
      });
      await aWrote;
      await second.unsafe(copyDealText, [b1, dealType, 'a deal']);
      // B is committed, but A (older) is still open: the feed waits for A rather than pass over its place.
      const during = await drain(app, queryId, start);
      expect(during.rows).toEqual([]);
      release();
      await transactionA;
      const after = await drain(app, queryId, during.cursor);
      expect(after.rows.map((row) => row.reference)).toEqual([a1, a2, b1]);

      // Many interleaved transactions from two connections while a reader pages from its last cursor.
      const written: string[] = [];
      const writer = async (sql: postgres.Sql, seed: number) => {
        for (let transaction = 0; transaction < 40; transaction += 1) {
          await sql.begin(async (tx) => {
            for (let row = 0; row < 1 + ((seed + transaction) % 4); row += 1) {
              const reference = randomUUID();
              await tx.unsafe(copyDealText, [reference, dealType, 'a deal']);
              written.push(reference);
              if ((transaction + row) % 3 === 0) await new Promise((resolve) => setTimeout(resolve, 2));
            }
          });
        }
      };
      const seen: string[] = [];
      let cursor = after.cursor;
      let writing = true;
      const reader = (async () => {
        for (let round = 0; round < 2000 && writing; round += 1) {
          const page = await feed(app, queryId, cursor, 5);
          seen.push(...page.body.success!.map((row) => row.reference));
          cursor = page.body.meta!.cursor;
        }
      })();
      await Promise.all([writer(first, 0), writer(second, 1)]);
      writing = false;
      await reader;
      const rest = await drain(app, queryId, cursor);
      seen.push(...rest.rows.map((row) => row.reference));
      expect(written.length).toBeGreaterThan(80);
      expect(new Set(seen).size).toBe(seen.length);
      expect([...seen].sort()).toEqual([...written].sort());
    } finally {
      await first`delete from events where deal_type = ${dealType}`;
      await first.end();
      await second.end();
    }
  });

  it('holds each event of two concurrent `orgraph import` processes once, in the order of the change log', {
    timeout: 120_000,
  }, async () => {
    const dealType = `feed-${randomUUID()}`;
    const queryId = await saveSearch(app, dealType);
    const start = (await feed(app, queryId)).body.meta!.cursor;
    const [deal] = await queryRows<{
      organisation_reference: string;
      acquirer_reference: string;
      acquiree_reference: string;
      publish_date: string;
    }>(
      app.services.db,
      sql`select organisation_reference, acquirer_reference, acquiree_reference,
        to_char(publish_date at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as publish_date
      from events where type = 'deal' and acquirer_reference is not null and acquiree_reference is not null
      order by reference limit 1`,
    );
    const folder = await mkdtemp(join(tmpdir(), 'orgraph-feed-imports-'));
    try {
      const files = [0, 1].map((file) => {
        const references: string[] = Array.from({ length: 60 }, () => randomUUID());
        const lines = references.map((reference) =>
          JSON.stringify({
            type: 'event',
            reference,
            event_type: 'deal',
            summary: `imported by file ${file}`,
            publish_date: deal!.publish_date,
            organisation_reference: deal!.organisation_reference,
            acquirer_reference: deal!.acquirer_reference,
            acquiree_reference: deal!.acquiree_reference,
            deal_type: dealType,
          }),
        );
        return { path: join(folder, `events-${file}.ndjson`), references, text: `${lines.join('\n')}\n` };
      });
      for (const file of files) await writeFile(file.path, file.text);
      // A reader pages from its last cursor while both imports commit batches of 7 (nine transactions each).
      const seen: string[] = [];
      let cursor = start;
      let importing = true;
      const reader = (async () => {
        for (let round = 0; round < 5000 && importing; round += 1) {
          const page = await feed(app, queryId, cursor, 5);
          seen.push(...page.body.success!.map((row) => row.reference));
          cursor = page.body.meta!.cursor;
        }
      })();
      try {
        await Promise.all(
          files.map((file) =>
            runCli(
              [
                'import',
                file.path,
                '--batch-size',
                '7',
                '--rejects',
                join(folder, `rejects-${file.path.slice(-8)}`),
              ],
              database.env,
            ),
          ),
        );
      } finally {
        importing = false;
        await reader;
      }
      const rest = await drain(app, queryId, cursor);
      seen.push(...rest.rows.map((row) => row.reference));
      const imported = files.flatMap((file) => file.references);
      expect(new Set(seen).size).toBe(seen.length);
      expect([...seen].sort()).toEqual([...imported].sort());
      // The feed's order is the change log's (transaction, then order within it), not either file's.
      const logged = await queryRows<{ reference: string }>(
        app.services.db,
        sql`select event_reference::text as reference from event_changes
          where new_image->>'deal_type' = ${dealType} and old_image is null order by xid, seq`,
      );
      expect(seen).toEqual(logged.map((row) => row.reference));
      // Each file's events are in the feed in its own order too: its batches commit one after another.
      for (const file of files)
        expect(seen.filter((reference) => file.references.includes(reference))).toEqual(file.references);
    } finally {
      await rm(folder, { recursive: true, force: true });
      await app.services.db.execute(sql`delete from events where deal_type = ${dealType}`);
    }
  });
});
