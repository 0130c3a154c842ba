import { AsyncLocalStorage } from 'node:async_hooks';
import { mkdir } from 'node:fs/promises';
import type { PGlite } from '@electric-sql/pglite';
import type { SQL } from 'drizzle-orm';
import type { Logger } from 'drizzle-orm/logger';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import type postgres from 'postgres';
import type { Config } from '../config.ts';
import { createGuardedPool } from './pool-guard.ts';
import { lockEmbeddedStore } from './store-lock.ts';
import { poolerSafeParameters, requestSettings, resolveTopology, type Topology } from './topology.ts';

/** The Drizzle database both drivers present; domain functions take it (or a transaction) first. */
export type Database = PgDatabase<PgQueryResultHKT>;

export type DatabaseDriver =
  | { kind: 'postgres'; client: postgres.Sql; topology: Topology }
  | { kind: 'pglite'; client: PGlite; dataDir: string };

export interface DatabaseHandle {
  db: Database;
  driver: DatabaseDriver;
  close(): Promise<void>;
}

export class EmbeddedStoreLockedError extends Error {
  constructor(dataDir: string) {
    super(
      `The embedded database in ${dataDir} is in use by another orgraph process. ` +
        'Stop that process, or point DATA_DIR at another directory, or set DATABASE_URL.',
    );
    this.name = 'EmbeddedStoreLockedError';
  }
}

/** A statement as Drizzle sent it: its text with `$n` placeholders, and their values. */
export interface SentStatement {
  query: string;
  params: unknown[];
}

const statementScope = new AsyncLocalStorage<{ statements: number; sent?: SentStatement[] }>();

/** Runs `work` and reports how many SQL statements it sent through Drizzle. */
export async function countStatements<T>(work: () => Promise<T>): Promise<{ result: T; statements: number }> {
  const scope = { statements: 0 };
  const result = await statementScope.run(scope, work);
  return { result, statements: scope.statements };
}

/** Runs `work` and returns the statements it sent through Drizzle, in order (for EXPLAIN in the bench). */
export async function captureStatements<T>(
  work: () => Promise<T>,
): Promise<{ result: T; sent: SentStatement[] }> {
  const scope = { statements: 0, sent: [] as SentStatement[] };
  const result = await statementScope.run(scope, work);
  return { result, sent: scope.sent };
}

const statementLogger: Logger = {
  logQuery(query, params) {
    const scope = statementScope.getStore();
    if (!scope) return;
    scope.statements += 1;
    scope.sent?.push({ query, params });
  },
};

export async function openDatabase(config: Config): Promise<DatabaseHandle> {
  if (config.databaseUrl) {
    // One connection first, under DATABASE_CONNECT_TIMEOUT_SECONDS: a wrong URL, a missing database, bad
    // credentials, a silent server or a pooler without the settings it needs end here in one sentence, instead of
    // in the first migration or never (topology.ts).
    const topology = await resolveTopology({ ...config, databaseUrl: config.databaseUrl });
    return openPostgres(config, config.databaseUrl, topology);
  }
  return openEmbedded(config.dataDir);
}

/** The read replica named by `DATABASE_READ_URL`, or null when reads share the primary. */
export function openReadReplica(config: Config): DatabaseHandle | null {
  if (!config.databaseReadUrl) return null;
  // A replica behind a pooler is taken to be behind the same kind as the primary, when that is declared.
  const pooler = config.databasePooler === 'auto' ? 'none' : config.databasePooler;
  return openPostgres(config, config.databaseReadUrl, {
    pooler,
    reason: 'DATABASE_POOLER',
    prepare: pooler !== 'transaction',
    session: { url: config.databaseReadUrl, startupSettings: pooler === 'none' },
  });
}

/** A Drizzle database over a `postgres` client (the read routing's failover client, say), set up as every other. */
export function databaseOver(client: postgres.Sql): Database {
  return drizzlePostgres({ client, casing: 'snake_case', logger: statementLogger }) as unknown as Database;
}

function openPostgres(config: Config, url: string, topology: Topology): DatabaseHandle {
  const settings = requestSettings(config);
  const pooled = topology.pooler !== 'none';
  // The pool is guarded (pool-guard.ts): the wait for a connection is bounded by DATABASE_POOL_WAIT_MS, a
  // connection failure or an unreachable server gets a fresh pool, and reconnecting waits at most a second.
  const { client } = createGuardedPool(
    url,
    {
      onnotice: () => {},
      connect_timeout: Math.max(1, Math.ceil(config.poolWaitMs / 1000)),
      // Without a pooler the request settings go in the startup message; through one, only what it passes on,
      // and the pool applies the settings in each transaction. Strings: the driver leaves out of the startup
      // message every parameter whose value is falsy, so a number 0 would never reach the server.
      connection: pooled ? poolerSafeParameters : { ...poolerSafeParameters, ...settings },
    },
    {
      transactionSettings: pooled ? settings : undefined,
      prepare: topology.prepare,
      poolMax: config.poolMax,
      waitMs: config.poolWaitMs,
      silentMs: Math.min(config.statementTimeoutMs, 2000),
      probeMs: 1000,
      retireGraceMs: config.statementTimeoutMs + 1000,
    },
  );
  const db = drizzlePostgres({ client, casing: 'snake_case', logger: statementLogger });
  return {
    db: db as unknown as Database,
    driver: { kind: 'postgres', client, topology },
    close: () => client.end({ timeout: 5 }),
  };
}

async function openEmbedded(dataDir: string): Promise<DatabaseHandle> {
  await mkdir(dataDir, { recursive: true });
  // One process at a time; a lock left by a killed process is taken over at once (store-lock.ts).
  const release = await lockEmbeddedStore(dataDir);
  if (!release) throw new EmbeddedStoreLockedError(dataDir);
  // Loaded here rather than at the top: its WebAssembly build would cost a PostgreSQL deployment memory it never
  // uses (bench/NOTES.md 2, 60).
  const [{ PGlite }, { pg_trgm }, { drizzle: drizzlePglite }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite/contrib/pg_trgm'),
    import('drizzle-orm/pglite'),
  ]);
  const client = await PGlite.create(dataDir, { extensions: { pg_trgm } });
  await client.exec(`SET TimeZone = 'UTC'`);
  const db = drizzlePglite({ client, casing: 'snake_case', logger: statementLogger });
  return {
    db: db as unknown as Database,
    driver: { kind: 'pglite', client, dataDir },
    close: async () => {
      await client.close();
      await release();
    },
  };
}

/** Runs raw SQL and returns its rows, whichever driver is underneath. */
export async function queryRows<Row>(db: Database, query: SQL): Promise<Row[]> {
  const result = (await db.execute(query)) as unknown;
  if (Array.isArray(result)) return result as Row[];
  return (result as { rows: Row[] }).rows;
}
