import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { PGlite, Transaction as PgliteTransaction } from '@electric-sql/pglite';
import { getTableColumns, getTableName } from 'drizzle-orm';
import { toSnakeCase } from 'drizzle-orm/casing';
import type { PgTable } from 'drizzle-orm/pg-core';
import type postgres from 'postgres';
import { copyField } from '../src/db/bulk/staged-rows.ts';
import { openBulkConnection } from '../src/db/bulk-connection.ts';
import type { DatabaseDriver } from '../src/db/database.ts';

/**
 * Rows go to the database in PostgreSQL's COPY text format, through COPY FROM STDIN on a server and COPY FROM
 * '/dev/blob' on PGlite: one statement per table and chunk, never one per row.
 */

interface TableCodec {
  name: string;
  columns: string[];
  keys: string[];
}

const codecs = new WeakMap<PgTable, TableCodec>();

function codecOf(table: PgTable): TableCodec {
  let codec = codecs.get(table);
  if (!codec) {
    const entries = Object.entries(getTableColumns(table));
    codec = {
      name: getTableName(table),
      keys: entries.map(([key]) => key),
      columns: entries.map(([key, column]) => (column.keyAsName ? toSnakeCase(key) : column.name)),
    };
    codecs.set(table, codec);
  }
  return codec;
}

/** One field in COPY text format: `\N` for null, backslash escapes for the separators. */
export function encodeCopyValue(value: unknown): string {
  if (value === null || value === undefined) return '\\N';
  let text: string;
  if (typeof value === 'string') text = value;
  else if (typeof value === 'boolean') return value ? 't' : 'f';
  else if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`Cannot load the number ${value}`);
    return String(value);
  } else if (value instanceof Date) return value.toISOString();
  else text = JSON.stringify(value);
  return copyField(text);
}

export interface TableChunk {
  table: PgTable;
  name: string;
  columns: string[];
  rows: number;
  text: string;
}

/** The rows generated for one chunk, per table, already encoded; tables come out in the order first added. */
export class RowBatch {
  private readonly lines = new Map<PgTable, string[]>();

  /** Registers tables up front so they load in foreign-key order even when an early one has no rows. */
  constructor(tables: readonly PgTable[] = []) {
    for (const table of tables) this.lines.set(table, []);
  }

  add<T extends PgTable>(table: T, row: T['$inferInsert']): void {
    const codec = codecOf(table);
    const record = row as Record<string, unknown>;
    let line = '';
    for (let i = 0; i < codec.keys.length; i += 1) {
      if (i > 0) line += '\t';
      line += encodeCopyValue(record[codec.keys[i]!]);
    }
    let lines = this.lines.get(table);
    if (!lines) {
      lines = [];
      this.lines.set(table, lines);
    }
    lines.push(line);
  }

  count(table: PgTable): number {
    return this.lines.get(table)?.length ?? 0;
  }

  *chunks(): Iterable<TableChunk> {
    for (const [table, lines] of this.lines) {
      if (lines.length === 0) continue;
      const codec = codecOf(table);
      yield {
        table,
        name: codec.name,
        columns: codec.columns,
        rows: lines.length,
        text: `${lines.join('\n')}\n`,
      };
    }
  }
}

/**
 * The default limit on each bulk or maintenance statement (a COPY chunk, an index build, a VACUUM): generous,
 * since one index build at scale 1000 sorts millions of rows, but finite, so nothing hangs for ever. It is the
 * bulk connection's own, never the request pool's `STATEMENT_TIMEOUT_MS`.
 */
export const defaultBulkTimeoutMs = 60 * 60 * 1000;

export interface BulkOptions {
  /** The limit on each statement of the bulk connection (0: none); `defaultBulkTimeoutMs` when unset. */
  statementTimeoutMs?: number;
}

/**
 * Runs maintenance statements (VACUUM refuses a transaction) each on its own, outside any transaction, on a
 * connection of its own with the bulk timeout. PGlite runs in-process without timeouts.
 */
export async function runMaintenance(
  driver: DatabaseDriver,
  statements: readonly string[],
  options: BulkOptions = {},
): Promise<void> {
  if (driver.kind === 'pglite') {
    for (const statement of statements) await driver.client.exec(statement);
    return;
  }
  const bulk = openBulkConnection(driver, {
    application_name: 'orgraph-seed',
    statement_timeout: options.statementTimeoutMs ?? defaultBulkTimeoutMs,
  });
  try {
    for (const statement of statements) await bulk.unsafe(statement);
  } finally {
    await bulk.end({ timeout: 5 });
  }
}

/** A bulk session: runs statements and COPYs on one connection inside one transaction. */
export interface BulkLoader {
  execute(statement: string): Promise<void>;
  query<Row>(statement: string): Promise<Row[]>;
  copy(chunk: TableChunk): Promise<void>;
}

/**
 * Opens one transaction and hands a loader to `work`; commits when `work` resolves and rolls back when it
 * throws. On a server the load runs on a connection of its own, with the bulk timeout instead of the request
 * pool's statement timeout.
 */
export async function withBulkLoader<T>(
  driver: DatabaseDriver,
  work: (loader: BulkLoader) => Promise<T>,
  options: BulkOptions = {},
): Promise<T> {
  if (driver.kind === 'pglite') return driver.client.transaction((tx) => work(pgliteLoader(tx)));
  const bulk = openBulkConnection(driver, {
    application_name: 'orgraph-seed',
    statement_timeout: options.statementTimeoutMs ?? defaultBulkTimeoutMs,
  });
  try {
    return (await bulk.begin(async (tx) => {
      // Index builds after the load sort in memory up to this much.
      await tx`set local maintenance_work_mem = '256MB'`;
      return work(postgresLoader(tx));
    })) as T;
  } finally {
    await bulk.end({ timeout: 5 });
  }
}

function postgresLoader(tx: postgres.TransactionSql): BulkLoader {
  return {
    async execute(statement) {
      await tx.unsafe(statement);
    },
    async query<Row>(statement: string) {
      return (await tx.unsafe(statement)) as unknown as Row[];
    },
    async copy(chunk) {
      const stream = await tx`copy ${tx(chunk.name)} (${tx(chunk.columns)}) from stdin`.writable();
      await pipeline(Readable.from([chunk.text]), stream);
    },
  };
}

function pgliteLoader(tx: PgliteTransaction | PGlite): BulkLoader {
  return {
    async execute(statement) {
      await tx.exec(statement);
    },
    async query<Row>(statement: string) {
      return (await tx.query<Row>(statement)).rows;
    },
    async copy(chunk) {
      const columns = chunk.columns.map((column) => `"${column}"`).join(', ');
      await tx.query(`copy "${chunk.name}" (${columns}) from '/dev/blob'`, [], {
        blob: new Blob([chunk.text]),
      });
    },
  };
}
