import { getTableColumns, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Database } from './database.ts';

/**
 * A query built once per database and then only run with new values: Drizzle renders a query anew on every
 * execution (a fifth of a REST profile request's CPU went there), while a prepared one keeps its text, which
 * PostgreSQL then parses once per connection.
 */
export function preparedPerDatabase<Query>(build: (db: Database) => Query): (db: Database) => Query {
  const built = new WeakMap<Database, Query>();
  return (db) => {
    let query = built.get(db);
    if (query === undefined) {
      query = build(db);
      built.set(db, query);
    }
    return query;
  };
}

/** Matches a reference column against the references a query is run with. */
export type ReferenceMatch = (column: PgColumn) => SQL;

/** Rows for a list of references, one statement per call. */
export type ReferenceQuery<Row> = (db: Database, references: readonly string[]) => Promise<Row[]>;

interface ReferenceQueryBuilder<Row> {
  prepare(name: string): { execute(values: Record<string, unknown>): Promise<Row[]> };
}

/**
 * A query over a list of references, prepared once per database in two forms: `column = $1` for one reference
 * (a REST single record) and `column = any($1::uuid[])` for a batch (a dataloader's), so that the text never
 * depends on how many are asked for. Two forms, because PostgreSQL gives a prepared statement a generic plan
 * after five runs, and the generic plan of `any($1)` expects ten references: for one person's stakes it chose a
 * bitmap scan far dearer than the index scan (bench/NOTES.md 57, 60).
 */
export function preparedByReferences<Row>(
  name: string,
  build: (db: Database, match: ReferenceMatch) => ReferenceQueryBuilder<Row>,
): ReferenceQuery<Row> {
  const one = preparedPerDatabase((db) =>
    build(db, (column) => sql`${column} = ${sql.placeholder('reference')}::uuid`).prepare(`${name}_one`),
  );
  const many = preparedPerDatabase((db) =>
    build(db, (column) => sql`${column} = any(${sql.placeholder('references')}::uuid[])`).prepare(name),
  );
  return (db, references) =>
    references.length === 1
      ? one(db).execute({ reference: references[0] })
      : many(db).execute({ references });
}

/**
 * Column types whose driver values Drizzle returns as they are (the driver carries Drizzle's parsers: dates and
 * timestamps in string mode as strings). Others it maps: timestamps and dates in date mode to `Date`, JSON, big
 * integers as numbers.
 */
const unmappedColumnTypes = new Set([
  'PgUUID',
  'PgText',
  'PgVarchar',
  'PgEnumColumn',
  'PgBoolean',
  'PgSmallInt',
  'PgInteger',
  'PgReal',
  'PgDoublePrecision',
  'PgDateString',
  'PgTimestampString',
]);

/**
 * Refuses a table with a column Drizzle maps: a statement that hands out the driver's rows of `table` as its records
 * (the read plan's, src/domain/read-plan.ts) gives the objects Drizzle would only where no column is mapped.
 */
export function requireUnmappedColumns(table: PgTable): void {
  for (const [key, column] of Object.entries(getTableColumns(table))) {
    if (!unmappedColumnTypes.has(column.columnType)) {
      throw new Error(`${key} (${column.columnType}) is a column Drizzle maps: read it through Drizzle`);
    }
  }
}
