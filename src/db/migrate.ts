import { sql } from 'drizzle-orm';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { PostgresJsDatabase } from 'drizzle-orm/postgres-js';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import { packageFile } from '../package-files.ts';
import { gicsTaxonomy } from '../reference/gics.ts';
import type { DatabaseHandle } from './database.ts';
import { plansTable } from './schema/access.ts';
import { industriesTable } from './schema/reference.ts';

const migrationsFolder = packageFile('drizzle');

/** Applies the migrations and loads the reference data every database needs (GICS, plan names). */
export async function migrateDatabase(handle: DatabaseHandle, planNames: Iterable<string>): Promise<void> {
  if (handle.driver.kind === 'postgres') {
    await migratePostgres(handle.db as unknown as PostgresJsDatabase, { migrationsFolder });
  } else {
    await migratePglite(handle.db as unknown as PgliteDatabase, { migrationsFolder });
  }
  await handle.db
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
  if (plans.length > 0) await handle.db.insert(plansTable).values(plans).onConflictDoNothing();
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
