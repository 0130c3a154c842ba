import { sql } from 'drizzle-orm';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import { packageFile } from '../package-files.ts';
import { gicsTaxonomy } from '../reference/gics.ts';
import type { Database, DatabaseHandle } from './database.ts';
import { plansTable } from './schema/access.ts';
import { industriesTable } from './schema/reference.ts';

const migrationsFolder = packageFile('drizzle');

/**
 * Applies the migrations and loads the reference data every database needs (GICS, plan names). On PostgreSQL it
 * works on a connection of its own to the topology's session URL (not through a transaction pooler), under a
 * session advisory lock, so that instances starting at once take turns: the first migrates, the others find
 * nothing left to do.
 */
export async function migrateDatabase(handle: DatabaseHandle, planNames: Iterable<string>): Promise<void> {
  if (handle.driver.kind === 'pglite') {
    await migratePglite(handle.db as unknown as PgliteDatabase, { migrationsFolder });
    await loadReferenceData(handle.db, planNames);
    return;
  }
  const session = handle.driver.topology.session;
  const client = postgres(session.url, {
    max: 1,
    onnotice: () => {},
    connection: { application_name: 'orgraph migrate', TimeZone: 'UTC' },
  });
  try {
    await client`select pg_advisory_lock(hashtext(${migrationLock}))`;
    const db = drizzlePostgres({ client, casing: 'snake_case' });
    await migratePostgres(db, { migrationsFolder });
    await loadReferenceData(db as unknown as Database, planNames);
  } finally {
    // Ending the session releases the lock as well; unlocking first lets the next instance in without waiting.
    await client`select pg_advisory_unlock(hashtext(${migrationLock}))`.catch(() => {});
    await client.end({ timeout: 5 });
  }
}

/** The advisory lock's name: instances of one deployment share it, and nothing else takes it. */
const migrationLock = 'orgraph migrations';

async function loadReferenceData(db: Database, planNames: Iterable<string>): Promise<void> {
  await db
    .insert(industriesTable)
    .values(
      gicsTaxonomy.map((node) => ({
        code: node.code,
        name: node.name,
        level: node.level,
        parentCode: node.level === 1 ? null : node.code.slice(0, -2),
      })),
    )
    .onConflictDoUpdate({ target: industriesTable.code, set: { name: sql`excluded.name` } });
  const plans = [...planNames].map((name) => ({ name }));
  if (plans.length > 0) await db.insert(plansTable).values(plans).onConflictDoNothing();
}

/** True once every migration in the repository has been applied. */
export async function isMigrated(handle: DatabaseHandle): Promise<boolean> {
  const expected = await countMigrationFiles();
  const result = await handle.db.execute(
    sql`select count(*)::int as applied from drizzle.__drizzle_migrations`,
  );
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as {
    applied: number;
  }[];
  return (rows[0]?.applied ?? 0) >= expected;
}

let migrationFileCount: number | undefined;
async function countMigrationFiles(): Promise<number> {
  if (migrationFileCount === undefined) {
    const { readFile } = await import('node:fs/promises');
    const journal = JSON.parse(await readFile(`${migrationsFolder}/meta/_journal.json`, 'utf8')) as {
      entries: unknown[];
    };
    migrationFileCount = journal.entries.length;
  }
  return migrationFileCount;
}
