import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { PGlite, Transaction as PgliteTransaction } from '@electric-sql/pglite';
import type postgres from 'postgres';
import { openBulkConnection } from '../bulk-connection.ts';
import type { DatabaseDriver } from '../database.ts';

/** Statements on one connection of their own: temporary tables live as long as the session. */
export interface BulkSession {
  kind: DatabaseDriver['kind'];
  query<Row = Record<string, unknown>>(statement: string, parameters?: unknown[]): Promise<Row[]>;
  /** Loads rows in PostgreSQL's COPY text format (one line per row, tab-separated), whole or in UTF-8 parts. */
  copy(
    table: string,
    columns: readonly string[],
    text: string | readonly Uint8Array<ArrayBuffer>[],
  ): Promise<void>;
  /** Runs `work` in one transaction on this session; commits when it resolves, rolls back when it throws. */
  transaction<T>(work: (session: BulkSession) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/**
 * Opens a bulk session. On PostgreSQL it is a connection of its own (to DATABASE_DIRECT_URL when set, never
 * through a transaction pooler: the import's temporary tables live in the session), without the request pool's statement
 * timeout, with Nagle's algorithm off: COPY ends with a small message that would otherwise wait for the
 * server's delayed ACK (bulk-connection.ts). On the embedded database it is the one connection there is.
 */
export async function openBulkSession(driver: DatabaseDriver, applicationName: string): Promise<BulkSession> {
  if (driver.kind === 'pglite') return pgliteSession(driver.client, async () => {});
  const settings = {
    application_name: applicationName,
    statement_timeout: 0,
    TimeZone: 'UTC',
    // The staging statements' estimates are far off (jsonb functions), which made the planner compile them
    // to machine code for longer than they run (bench/NOTES.md 30).
    jit: 'off',
    // The staging tables are temporary, so they live in the session's own buffers, whose default is far
    // smaller than a large import's staging, which every resolving and writing statement reads again
    // (bench/NOTES.md 60).
    temp_buffers: '512MB',
    work_mem: '64MB',
    maintenance_work_mem: '256MB',
  };
  const sql = openBulkConnection(driver, settings);
  return postgresSession(sql, async () => {
    await sql.end({ timeout: 5 });
  });
}

function postgresSession(
  sql: postgres.Sql | postgres.TransactionSql,
  close: () => Promise<void>,
): BulkSession {
  // The driver sends a statement as soon as it is asked for, behind those in flight: one asked for while a COPY is
  // taking its rows would reach the server inside the COPY, which fails it. Statements wait for the COPY instead.
  let copying: Promise<unknown> = Promise.resolve();
  const session: BulkSession = {
    kind: 'postgres',
    async query<Row>(statement: string, parameters: unknown[] = []) {
      await copying;
      // Without parameters, the simple protocol, which also takes several statements at once.
      if (parameters.length === 0) return (await sql.unsafe(statement).simple()) as unknown as Row[];
      return (await sql.unsafe(
        statement,
        parameters as postgres.ParameterOrJSON<never>[],
      )) as unknown as Row[];
    },
    async copy(table, columns, text) {
      await copying;
      const copied = (async () => {
        // An error the server gives once the driver has sent the end of the COPY goes to the query (its own
        // `reject`), whose promise already resolved with the stream, and the stream would wait for the end of the
        // COPY for ever: the error is taken from the query instead (session.test.ts pins it).
        const query = sql.unsafe(`copy ${table} (${columns.join(', ')}) from stdin`) as ReturnType<
          typeof sql.unsafe
        > & { reject(error: unknown): void };
        let failed: (error: unknown) => void = () => {};
        const failure = new Promise<never>((_, reject) => {
          failed = reject;
        });
        const rejectQuery = query.reject;
        query.reject = (error: unknown) => {
          failed(error);
          rejectQuery(error);
        };
        const stream = await query.writable();
        await Promise.race([
          pipeline(Readable.from(typeof text === 'string' ? [text] : text), stream),
          failure,
        ]);
      })();
      copying = copied.catch(() => {});
      await copied;
    },
    async transaction(work) {
      await copying;
      if (!('begin' in sql)) return work(session);
      return (await sql.begin((tx) => work(postgresSession(tx, async () => {})))) as never;
    },
    close,
  };
  return session;
}

function pgliteSession(client: PGlite | PgliteTransaction, close: () => Promise<void>): BulkSession {
  const session: BulkSession = {
    kind: 'pglite',
    async query<Row>(statement: string, parameters: unknown[] = []) {
      if (parameters.length === 0 && !statement.includes('$1')) {
        const results = await client.exec(statement);
        return (results.at(-1)?.rows ?? []) as Row[];
      }
      return (await client.query<Row>(statement, parameters)).rows;
    },
    async copy(table, columns, text) {
      await client.query(`copy ${table} (${columns.join(', ')}) from '/dev/blob'`, [], {
        blob: new Blob(typeof text === 'string' ? [text] : [...text]),
      });
    },
    async transaction(work) {
      if (!('transaction' in client)) return work(session);
      return client.transaction((tx) => work(pgliteSession(tx, async () => {})));
    },
    close,
  };
  return session;
}
