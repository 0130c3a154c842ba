import { getTableColumns, type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';

/**
 * `json_build_object` of every column of `table`, keyed by the Drizzle property name (an identifier from
 * the schema, so it is written into the text rather than sent as one more parameter).
 */
export function jsonObjectOf(table: PgTable): SQL {
  const pairs = Object.entries(getTableColumns(table)).map(
    ([key, column]) => sql`${sql.raw(`'${key}'`)}, ${column}`,
  );
  return sql`json_build_object(${sql.join(pairs, sql`, `)})`;
}

/** PGlite hands json back as text; the postgres driver parses it. */
export function parseJson(value: unknown): unknown {
  return typeof value === 'string' ? JSON.parse(value) : value;
}

/** A row from `jsonObjectOf`, with timestamps turned back into dates as Drizzle returns them. */
export function fromJson<Row>(table: PgTable, value: unknown): Row {
  const row = { ...(value as Record<string, unknown>) };
  for (const key of dateKeysOf(table)) {
    if (typeof row[key] === 'string') row[key] = new Date(row[key] as string);
  }
  return row as Row;
}

const dateKeys = new Map<PgTable, string[]>();

/** The properties Drizzle returns as dates (timestamps in `date` mode). */
function dateKeysOf(table: PgTable): string[] {
  let keys = dateKeys.get(table);
  if (!keys) {
    keys = Object.entries(getTableColumns(table)).flatMap(([key, column]) =>
      column.dataType === 'date' ? [key] : [],
    );
    dateKeys.set(table, keys);
  }
  return keys;
}
