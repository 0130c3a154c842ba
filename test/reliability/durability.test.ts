import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { openDatabase, queryRows } from '../../src/db/database.ts';
import { startCli } from '../support/cli.ts';
import { createScratchDatabase, type ScratchDatabase } from './support/scratch-postgres.ts';
import {
  prepareDatabase,
  type ServerProcess,
  startServerProcess,
  stopProcess,
} from './support/server-process.ts';

/**
 * What a client was told is kept, is kept: saved searches answered 201 survive the server being killed outright
 * (SIGKILL, no shutdown) right after, and identical saves made at the same moment are one saved search. Each CI leg
 * tests its own store: PostgreSQL when DATABASE_URL is set (on a database of its own), else the embedded store.
 */
const onPostgres = Boolean(process.env.DATABASE_URL);
let database: ScratchDatabase | undefined;
const directories: string[] = [];
const figures: string[] = [];

beforeAll(async () => {
  if (onPostgres) database = await createScratchDatabase('durability');
});
afterAll(async () => {
  console.log(`durability:\n  ${figures.join('\n  ')}`);
  await database?.drop();
  for (const directory of directories) await rm(directory, { recursive: true, force: true });
});

async function temporaryDataDir(): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), 'orgraph-durability-'));
  directories.push(directory);
  return join(directory, 'data');
}

async function save(server: ServerProcess, token: string, label: string) {
  const response = await fetch(`${server.url}/v1/search/events`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ query: [{ fieldType: 'EventType', label, value: 'move', operator: 'EQUAL' }] }),
  });
  return {
    status: response.status,
    body: (await response.json()) as { success: { queryId: string } | null },
  };
}

async function eventsStatus(server: ServerProcess, token: string, queryId: string): Promise<number> {
  const response = await fetch(`${server.url}/v1/events?queryId=${queryId}&limit=5`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  const body = (await response.json()) as { success: unknown };
  if (response.status === 200) expect(Array.isArray(body.success)).toBe(true);
  return response.status;
}

/** A second `orgraph serve` on the same store: its error, which it must print before exiting non-zero. */
async function secondServerError(env: NodeJS.ProcessEnv): Promise<string> {
  return startCli(['serve'], { ...env, LOG_LEVEL: 'warn' }).then(
    ({ child }) => {
      child.kill('SIGKILL');
      throw new Error('a second server started on a store already in use');
    },
    (error: Error) => error.message,
  );
}

const stores = onPostgres
  ? [{ store: 'PostgreSQL', embedded: false }]
  : [{ store: 'the embedded store', embedded: true }];

describe.each(stores)('saved searches on $store', ({ store, embedded }) => {
  it('are all usable after SIGKILL right after their 201, and concurrent identical saves are one row', async () => {
    const env = embedded
      ? { DATABASE_URL: '', DATA_DIR: await temporaryDataDir() }
      : { DATABASE_URL: database!.url, DATA_DIR: '' };
    const token = await prepareDatabase(env);
    const first = await startServerProcess(env);

    const saved: string[] = [];
    for (let index = 0; index < 25; index += 1) {
      const { status, body } = await save(first, token, `${store} durable ${index}`);
      expect(status).toBe(201);
      saved.push(body.success!.queryId);
    }
    const sameLabel = `${store} saved twenty times at once`;
    const concurrent = await Promise.all(Array.from({ length: 20 }, () => save(first, token, sameLabel)));
    expect(concurrent.map((answer) => answer.status)).toEqual(Array(20).fill(201));
    const sameIds = new Set(concurrent.map((answer) => answer.body.success!.queryId));
    expect(sameIds.size).toBe(1);

    if (embedded) {
      // While it runs, a second process on the same store exits non-zero with a clear message.
      const refusal = await secondServerError(env);
      expect(refusal).toMatch(/orgraph exited with 1 before listening/);
      expect(refusal).toMatch(/in use by another orgraph process/);
    }

    expect((await stopProcess(first.child, 'SIGKILL')).code).toBeNull();
    const restartedAt = performance.now();
    const second = await startServerProcess(env);
    const restartMs = performance.now() - restartedAt;
    try {
      for (const queryId of [...saved, ...sameIds])
        expect(await eventsStatus(second, token, queryId)).toBe(200);
      // The check can fail: an id that was never saved is not found.
      expect(await eventsStatus(second, token, '00000000-0000-4000-8000-000000000000')).toBe(404);
    } finally {
      expect((await stopProcess(second.child, 'SIGTERM')).code).toBe(0);
    }

    const handle = await openDatabase(loadConfig({ ...process.env, ...env }));
    try {
      const rows = await queryRows<{ query_id: string }>(
        handle.db,
        sql`select query_id::text from saved_searches where query->0->>'label' = ${sameLabel}`,
      );
      expect(rows.map((row) => row.query_id)).toEqual([...sameIds]);
    } finally {
      await handle.close();
    }
    figures.push(
      `${store}: ${saved.length + 1} saves answered 201, SIGKILL at once, restarted in ${restartMs.toFixed(0)} ms, ` +
        `all usable; 20 concurrent identical saves → 1 row${embedded ? '; a second process refused with "in use"' : ''}`,
    );
  }, 120_000);
});
