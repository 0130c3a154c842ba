import { AsyncLocalStorage } from 'node:async_hooks';
import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { SQL } from 'drizzle-orm';
import type { Logger } from 'drizzle-orm/logger';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import lockfile from 'proper-lockfile';
import type { Config } from '../config.ts';

/** The Drizzle database both drivers present; domain functions take it (or a transaction) first. */
export type Database = PgDatabase<PgQueryResultHKT>;

export type DatabaseDriver =
  | { kind: 'postgres'; client: postgres.Sql }
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

const statementScope = new AsyncLocalStorage<{ statements: number }>();

/** Runs `work` and reports how many SQL statements it sent through Drizzle. */
export async function countStatements<T>(work: () => Promise<T>): Promise<{ result: T; statements: number }> {
  const scope = { statements: 0 };
  const result = await statementScope.run(scope, work);
  return { result, statements: scope.statements };
}

const statementLogger: Logger = {
  logQuery() {
    const scope = statementScope.getStore();
    if (scope) scope.statements += 1;
  },
};

export async function openDatabase(config: Config): Promise<DatabaseHandle> {
  if (config.databaseUrl) return openPostgres(config, config.databaseUrl);
  return openEmbedded(config.dataDir);
}

/** The read replica named by `DATABASE_READ_URL`, or null when reads share the primary. */
export function openReadReplica(config: Config): DatabaseHandle | null {
  return config.databaseReadUrl ? openPostgres(config, config.databaseReadUrl) : null;
}

function openPostgres(config: Config, url: string): DatabaseHandle {
  const client = postgres(url, {
    max: config.poolMax,
    onnotice: () => {},
    connect_timeout: Math.max(1, Math.ceil(config.poolWaitMs / 1000)),
    connection: {
      application_name: 'orgraph',
      statement_timeout: config.statementTimeoutMs,
      TimeZone: 'UTC',
    },
  });
  const db = drizzlePostgres({ client, casing: 'snake_case', logger: statementLogger });
  return {
    db: db as unknown as Database,
    driver: { kind: 'postgres', client },
    close: () => client.end({ timeout: 5 }),
  };
}

async function openEmbedded(dataDir: string): Promise<DatabaseHandle> {
  await mkdir(dataDir, { recursive: true });
  let release: () => Promise<void>;
  try {
    release = await lockfile.lock(dataDir, { stale: 10_000, update: 2_000, realpath: false });
  } catch (error) {
    if ((error as { code?: string }).code === 'ELOCKED') throw new EmbeddedStoreLockedError(dataDir);
    throw error;
  }
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
