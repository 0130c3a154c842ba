/**
 * The database's own share of a first import (bench/NOTES.md 55): the rows an import stored, written again into a
 * fresh, migrated database by COPY from files on the database server, inside the initial load's own suspension
 * (`loadSuspended`: constraints and indexes dropped and rebuilt, the derived tables built once), then analysed
 * as an import does. No parsing, validation, staging or resolving: what is left is what any importer of these
 * rows pays PostgreSQL on this schema.
 *
 *   npx tsx bench/floor/import-floor.ts postgres://postgres@127.0.0.1:5432/<an imported database> <new database>
 */
import { chmod, mkdir, rm } from 'node:fs/promises';
import postgres from 'postgres';
import { loadConfig } from '../../src/config.ts';
import { storedTables } from '../../src/db/bulk/documents.ts';
import { loadSuspended } from '../../src/db/bulk/initial-load.ts';
import { openBulkSession } from '../../src/db/bulk/session.ts';
import { openDatabase } from '../../src/db/database.ts';
import { refreshDerivedData } from '../../src/domain/import/import-records.ts';
import { runCli } from '../dataset.ts';

const [sourceUrl, targetName] = process.argv.slice(2);
if (!sourceUrl || !targetName || !/^[a-z_][a-z0-9_]*$/.test(targetName)) {
  throw new Error('usage: import-floor.ts <source database URL> <target database name>');
}
const folder = '/tmp/orgraph-import-floor';
// organisation_names is kept by the triggers of organisations, as in an import.
const tables = [
  ...Object.values(storedTables)
    .flat()
    .filter((t) => t !== 'organisation_names'),
  'record_digests',
];

const source = postgres(sourceUrl, { max: 1, onnotice: () => {} });
const columnsOf = new Map<string, string>();
await rm(folder, { recursive: true, force: true });
await mkdir(folder);
await chmod(folder, 0o777);
for (const table of tables) {
  const columns = await source<{ name: string }[]>`
    select column_name as name from information_schema.columns
     where table_schema = 'public' and table_name = ${table} and is_generated = 'NEVER' order by ordinal_position`;
  columnsOf.set(table, columns.map((c) => `"${c.name}"`).join(', '));
  await source.unsafe(`copy ${table} (${columnsOf.get(table)}) to '${folder}/${table}.copy'`);
}
const [counted] = await source<{ rows: number }[]>`select count(*)::integer as rows from record_digests`;
const rows = counted?.rows ?? 0;
await source.unsafe(`drop database if exists ${targetName} with (force)`);
await source.unsafe(`create database ${targetName}`);
await source.end();

const targetUrl = Object.assign(new URL(sourceUrl), { pathname: `/${targetName}` }).toString();
await runCli(['migrate'], { DATABASE_URL: targetUrl });
const handle = await openDatabase(loadConfig({ ...process.env, DATABASE_URL: targetUrl }));
const session = await openBulkSession(handle.driver, 'orgraph-import-floor');
const seconds = (from: number) => ((performance.now() - from) / 1000).toFixed(2);
try {
  const started = performance.now();
  let written = 0;
  await session.transaction((tx) =>
    loadSuspended(tx, async () => {
      for (const table of tables)
        await tx.query(`copy ${table} (${columnsOf.get(table)}) from '${folder}/${table}.copy'`);
      written = performance.now();
    }),
  );
  const loaded = performance.now();
  await refreshDerivedData(handle, tables);
  process.stdout.write(
    `${rows} records: COPY ${((written - started) / 1000).toFixed(2)} s, derived rows, indexes and constraints ${((loaded - written) / 1000).toFixed(2)} s, analyse ${seconds(loaded)} s; in all ${seconds(started)} s (${Math.round(rows / ((performance.now() - started) / 1000))} records/s)\n`,
  );
} finally {
  await session.close();
  await handle.close();
  await rm(folder, { recursive: true, force: true });
}
