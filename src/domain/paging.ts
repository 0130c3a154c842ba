import { type SQL, sql } from 'drizzle-orm';
import { type Database, queryRows } from '../db/database.ts';

/**
 * Which slice of an ordered list to read. REST pages use `offset`; graph connections use keyset
 * bounds (`after`/`before` are sort keys of rows already seen), reading backwards when `inverted`.
 */
export interface ListWindow<Key> {
  limit: number;
  offset?: number;
  after?: Key;
  before?: Key;
  inverted?: boolean;
}

/** A match count; `isEstimate` when counting ran past the time limit and the planner's estimate stands in. */
export interface Total {
  value: number;
  isEstimate: boolean;
}

export interface CountOptions {
  /** Table whose planner statistics give the estimate. */
  table: string;
  timeoutMs: number;
}

/**
 * Counts the rows of `countQuery` (a `select count(*) ...`) under a time limit; past it, falls back to
 * the planner's table-wide estimate, as the interface allows. The embedded database has no statement
 * timeout, so there it always counts exactly.
 */
export async function countWithinLimit(db: Database, countQuery: SQL, options: CountOptions): Promise<Total> {
  try {
    const rows = await db.transaction(async (tx) => {
      await tx.execute(
        sql.raw(`set local statement_timeout = ${Math.max(1, Math.floor(options.timeoutMs))}`),
      );
      return queryRows<{ count: string | number }>(tx as unknown as Database, countQuery);
    });
    return { value: Number(rows[0]?.count ?? 0), isEstimate: false };
  } catch (error) {
    if ((error as { code?: string }).code !== '57014' && !isCancelCause(error)) throw error;
    return { value: await estimateRows(db, options.table), isEstimate: true };
  }
}

function isCancelCause(error: unknown): boolean {
  return (error as { cause?: { code?: string } }).cause?.code === '57014';
}

/** The planner's estimate of a table's rows (never negative). */
export async function estimateRows(db: Database, table: string): Promise<number> {
  const rows = await queryRows<{ estimate: number }>(
    db,
    sql`select greatest(reltuples, 0)::bigint::int as estimate from pg_class where oid = to_regclass(${table})`,
  );
  return rows[0]?.estimate ?? 0;
}

/** Escapes `%`, `_` and `\` so a user's text matches literally inside a LIKE pattern. */
export function likeSubstring(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}
