import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { afterAll, beforeAll } from 'vitest';
import { loadPlans } from '../../src/auth/plans.ts';
import { loadConfig } from '../../src/config.ts';
import { type DatabaseHandle, openDatabase } from '../../src/db/database.ts';
import { migrateDatabase } from '../../src/db/migrate.ts';
import { type ImportOptions, importRecords } from '../../src/domain/import/import-records.ts';
import { temporaryEmptyStore } from '../support/worker-stores.ts';

/** A migrated, empty store of the test's own: a database on PostgreSQL when DATABASE_URL is set, else a directory. */
export interface ImportStore {
  handle: DatabaseHandle;
  /** What the CLI needs to reach this store (after `handle` is closed, on the embedded database). */
  env: NodeJS.ProcessEnv;
  reopen(): Promise<DatabaseHandle>;
  close(): Promise<void>;
}

const serverUrl = () => new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');

function urlOf(database: string): string {
  const url = serverUrl();
  url.pathname = `/${database}`;
  return url.toString();
}

async function admin(statement: string): Promise<void> {
  const sql = postgres(urlOf('postgres'), { max: 1, onnotice: () => {}, connect_timeout: 5 });
  try {
    await sql.unsafe(statement);
  } finally {
    await sql.end({ timeout: 1 });
  }
}

export async function openImportStore(label: string): Promise<ImportStore> {
  if (process.env.DATABASE_URL) {
    // Named after DATABASE_URL's database, so that tests on a shared server stay among names of their own.
    const base = serverUrl().pathname.replace(/^\//, '') || 'orgraph_imp';
    const name = `${base}_${label}_${randomBytes(4).toString('hex')}`;
    await admin(`create database ${name}`);
    const env = { DATABASE_URL: urlOf(name) };
    const open = () => openDatabase(loadConfig({ ...process.env, ...env }));
    const store: ImportStore = {
      handle: await open(),
      env,
      reopen: async () => {
        store.handle = await open();
        return store.handle;
      },
      async close() {
        await store.handle.close().catch(() => {});
        await admin(`drop database if exists ${name} with (force)`);
      },
    };
    await migrateDatabase(store.handle, loadPlans().keys());
    return store;
  }
  const directory = await temporaryEmptyStore(`imp-${label}`);
  const env = { DATABASE_URL: '', DATA_DIR: directory };
  const open = () => openDatabase(loadConfig({ ...process.env, ...env }));
  const store: ImportStore = {
    handle: await open(),
    env,
    reopen: async () => {
      store.handle = await open();
      return store.handle;
    },
    async close() {
      await store.handle.close().catch(() => {});
      await rm(directory, { recursive: true, force: true });
    },
  };
  await migrateDatabase(store.handle, loadPlans().keys());
  return store;
}

/** A scratch directory for the test's files. */
export async function scratchDirectory(label: string): Promise<{ path: string; remove(): Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), `orgraph-imp-files-${label}-`));
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}

/** The store and scratch directory of a test file, ready from its first test to its last. */
export interface ImportFixture {
  readonly handle: DatabaseHandle;
  /** Where the test writes its files. */
  readonly directory: string;
}

/**
 * Opens a store of the file's own ({@link openImportStore}) and a scratch directory before its tests, and drops
 * both after them; call it at the top level of a test file.
 */
export function useImportStore(label: string): ImportFixture {
  let store: ImportStore | undefined;
  let files: Awaited<ReturnType<typeof scratchDirectory>> | undefined;
  beforeAll(async () => {
    store = await openImportStore(label);
    files = await scratchDirectory(label);
  });
  afterAll(async () => {
    await store?.close();
    await files?.remove();
  });
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error(`the import store "${label}" is used outside its tests`);
    return value;
  };
  return {
    get handle() {
      return ready(store).handle;
    },
    get directory() {
      return ready(files).path;
    },
  };
}

/** Writes `lines` (records or raw text) to `path` as NDJSON. */
export async function writeRecords(path: string, lines: readonly (object | string)[]): Promise<string> {
  await writeFile(
    path,
    lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n'),
  );
  return path;
}

/**
 * Imports files in-process, with the rejects going to `<first file>.rejects`. With `readOnce`, the files are given
 * as standard input is, a stream the import cannot read again.
 */
export async function importFiles(
  handle: DatabaseHandle,
  files: readonly string[],
  { readOnce = false, ...options }: ImportOptions & { readOnce?: boolean } = {},
) {
  const rejectsPath = `${files[0]}.rejects`;
  const summary = await importRecords(
    handle,
    files.map((name) => ({ name, open: () => createReadStream(name), rereadable: !readOnce })),
    { rejectsPath, ...options },
  );
  const rejects = summary.rejects
    ? (await readFile(rejectsPath, 'utf8'))
        .split('\n')
        .filter(Boolean)
        .map(
          (line) =>
            JSON.parse(line) as {
              source: string;
              line: number;
              record?: unknown;
              record_head?: string;
              reasons: string[];
            },
        )
    : [];
  return { summary, rejects };
}

/** A fresh UUID, recognisable in a failure message. */
export function newReference(): string {
  const hex = randomBytes(16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export function organisation(reference: string, overrides: Record<string, unknown> = {}) {
  return {
    type: 'organisation',
    reference,
    name: `Import Test ${reference.slice(0, 8)}`,
    status: 'active',
    verified: true,
    confidence: 80,
    totals: { employees: 120 },
    ...overrides,
  };
}

export function profile(reference: string, overrides: Record<string, unknown> = {}) {
  return {
    type: 'profile',
    reference,
    first_name: 'Ada',
    last_name: 'Lovelace',
    name: 'Ada Lovelace',
    ...overrides,
  };
}

export function experience(
  reference: string,
  profileReference: string,
  overrides: Record<string, unknown> = {},
) {
  return {
    type: 'experience',
    reference,
    profile_reference: profileReference,
    occupation_title: 'Chief Analyst',
    start_date: '2020-01-01',
    ...overrides,
  };
}
