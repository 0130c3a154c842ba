import { randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPlans } from '../../src/auth/plans.ts';
import { loadConfig } from '../../src/config.ts';
import { openDatabase, queryRows } from '../../src/db/database.ts';
import { migrateDatabase } from '../../src/db/migrate.ts';
import { testServices } from '../support/services.ts';
import { openTestApp, type TestApp } from '../support/test-app.ts';

// Two databases of the tests' PostgreSQL server stand for a primary and its replica; they hold different
// rows, so every answer shows which one it came from. The replica is opened read-only.
const server = new URL(testServices.postgresUrl);
const suffix = randomBytes(4).toString('hex');
const names = { primary: `orgraph_primary_${suffix}`, replica: `orgraph_replica_${suffix}` };
const urlOf = (database: string, readOnly = false) => {
  const url = new URL(server);
  url.pathname = `/${database}`;
  url.search = readOnly ? '?options=-c%20default_transaction_read_only%3Don' : '';
  return url.toString();
};
const admin = postgres(urlOf('postgres'), { max: 1, onnotice: () => {} });
const organisations = { primary: randomUUID(), replica: randomUUID() };
let app: TestApp;

async function prepare(role: 'primary' | 'replica') {
  await admin.unsafe(`create database ${names[role]}`);
  const config = loadConfig({ DATABASE_URL: urlOf(names[role]) });
  const handle = await openDatabase(config);
  await migrateDatabase(handle, loadPlans().keys());
  await handle.db.execute(sql`
    insert into organisations (reference, name, status, verified, confidence, is_fund, employees)
    values (${organisations[role]}, ${`Only on the ${role}`}, 'active', true, 90, false, 10)`);
  await handle.db.execute(sql`
    insert into events (reference, type, summary, publish_date, organisation_reference)
    values (${randomUUID()}, 'funding', 'A round', now(), ${organisations[role]})`);
  await handle.close();
}

beforeAll(async () => {
  await prepare('primary');
  await prepare('replica');
  app = await openTestApp({
    DATABASE_URL: urlOf(names.primary),
    DATABASE_READ_URL: urlOf(names.replica, true),
  });
});

afterAll(async () => {
  await app?.close();
  for (const name of Object.values(names)) await admin.unsafe(`drop database if exists ${name} with (force)`);
  await admin.end();
});

describe('DATABASE_READ_URL', () => {
  it('sends no reads to a server that is not a standby, and says so in /readyz', async () => {
    // The "replica" here is a second database of one server: it has no replay position, so nothing shows that it
    // holds what the primary announced (src/db/read-routing.ts). Reads go to the primary.
    const { status, body } = await app.getJson<{ success: { reference: string }[] }>(
      '/v1/organisations?show_empty=true&min_confidence=0',
    );
    expect(status).toBe(200);
    expect(body.success.map((row) => row.reference)).toEqual([organisations.primary]);
    expect(app.services.reads?.state).toBe('not-a-standby');

    const ready = await app.request('/readyz', { token: null });
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({
      status: 'degraded',
      readReplica: {
        database: expect.stringMatching(/^127\.0\.0\.1:\d+\/orgraph_replica_/),
        state: 'not-a-standby',
        readsFrom: 'primary',
      },
    });
  });

  it('writes saved searches to the primary and finds them there at once', async () => {
    const response = await app.request('/v1/search/events', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        query: [{ fieldType: 'EventType', label: 'Funding', value: 'funding', operator: 'EQUAL' }],
      }),
    });
    expect(response.status).toBe(201);
    const { queryId } = (await response.json()).success;

    const primary = await openDatabase(loadConfig({ DATABASE_URL: urlOf(names.primary) }));
    const replica = await openDatabase(loadConfig({ DATABASE_URL: urlOf(names.replica) }));
    try {
      const find = sql`select count(*)::int as n from saved_searches where query_id = ${queryId}`;
      expect(await queryRows(primary.db, find)).toEqual([{ n: 1 }]);
      expect(await queryRows(replica.db, find)).toEqual([{ n: 0 }]);
    } finally {
      await primary.close();
      await replica.close();
    }

    const events = await app.getJson<{ success: { data: { organisation: { reference: string } } }[] }>(
      `/v1/events?queryId=${queryId}`,
    );
    expect(events.status).toBe(200);
    expect(events.body.success.map((event) => event.data.organisation.reference)).toEqual([
      organisations.primary,
    ]);
  });

  it('needs DATABASE_URL beside it', () => {
    expect(() => loadConfig({ DATABASE_READ_URL: urlOf(names.replica) })).toThrow(/needs DATABASE_URL/);
  });
});
