import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { loadPlans } from '../../../src/auth/plans.ts';
import { loadConfig } from '../../../src/config.ts';
import { openDatabase } from '../../../src/db/database.ts';
import { migrateDatabase } from '../../../src/db/migrate.ts';
import { testServices } from '../../support/services.ts';

/**
 * The PostgreSQL server these tests use: the one DATABASE_URL names, else the local one on 127.0.0.1:5432, else one
 * the run started itself (test/support/test-services.ts). Each test file gets a
 * database of its own on it (created, migrated and dropped here), so that injecting faults, locking tables or
 * running servers against it never disturbs the shared test database or another file.
 */
export const serverUrl = new URL(testServices.postgresUrl);

export interface ScratchDatabase {
  name: string;
  url: string;
  host: string;
  port: number;
  drop(): Promise<void>;
}

function withDatabase(name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function admin<T>(work: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  const sql = postgres(withDatabase('postgres'), { max: 1, onnotice: () => {}, connect_timeout: 5 });
  try {
    return await work(sql);
  } catch (error) {
    throw new Error(
      `The reliability tests need PostgreSQL at ${serverUrl.host}: ${(error as Error).message}`,
    );
  } finally {
    await sql.end({ timeout: 1 });
  }
}

/**
 * Creates and migrates a fresh database (`migrated: false` leaves it empty); `seedScale` also loads the
 * deterministic dataset at that scale.
 */
export async function createScratchDatabase(
  label: string,
  options: { seedScale?: number; migrated?: boolean } = {},
): Promise<ScratchDatabase> {
  const name = `orgraph_reliability_${label}_${randomBytes(4).toString('hex')}`;
  await admin((sql) => sql.unsafe(`create database ${name}`));
  const url = withDatabase(name);
  const config = loadConfig({ DATABASE_URL: url });
  const handle = options.migrated === false ? undefined : await openDatabase(config);
  try {
    if (handle) await migrateDatabase(handle, loadPlans(config.plansFile).keys());
    if (handle && options.seedScale) {
      const { seedDatabase } = await import('../../../seeds/seed-database.ts');
      await seedDatabase(handle, { scale: options.seedScale });
    }
  } finally {
    await handle?.close();
  }
  return {
    name,
    url,
    host: serverUrl.hostname,
    port: Number(serverUrl.port || 5432),
    drop: () =>
      admin((sql) => sql.unsafe(`drop database if exists ${name} with (force)`)).then(() => undefined),
  };
}

/** The same database reached through `proxyPort` on 127.0.0.1 instead of directly. */
export function throughProxy(url: string, proxyPort: number): string {
  const proxied = new URL(url);
  proxied.hostname = '127.0.0.1';
  proxied.port = String(proxyPort);
  return proxied.toString();
}
