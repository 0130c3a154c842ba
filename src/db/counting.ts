import { type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { type Database, queryRows } from './database.ts';

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
 * timeout, so there it always counts exactly. The same count is reused for {@link countReuseMs}.
 */
export function countWithinLimit(db: Database, countQuery: SQL, options: CountOptions): Promise<Total> {
  const { sql: text, params } = keyDialect.sqlToQuery(countQuery);
  const counts = recentCountsOf(db);
  const now = Date.now();
  const besidePage = counts.get(pageCountKey(options.table, text, params));
  if (besidePage && besidePage.expires > now) {
    return besidePage.total.then((total) => total ?? countWithinLimit(db, countQuery, options));
  }
  const key = JSON.stringify([options.table, options.timeoutMs, text, params]);
  const recent = counts.get(key);
  if (recent && recent.expires > now) return recent.total as Promise<Total>;
  return remember(counts, key, countNow(db, countQuery, options));
}

/**
 * Lets a page statement that counts its matches beside its rows (`count(*) over ()`) answer the count of the
 * same matches: `pageCount` resolves to that count, or to null when the page came back empty past the last
 * match and so counted nothing. From now on, for {@link countReuseMs}, a {@link countWithinLimit} of
 * `countQuery` with any time limit takes this exact count, also while the page is still running, instead of
 * matching everything again; after a null it counts on its own. Call it before the page's first await, so that
 * a count asked beside the page finds it.
 */
export function countBesidePage(
  db: Database,
  countQuery: SQL,
  table: string,
  pageCount: Promise<number | null>,
): void {
  const { sql: text, params } = keyDialect.sqlToQuery(countQuery);
  const counts = recentCountsOf(db);
  const key = pageCountKey(table, text, params);
  const total: Promise<Total | null> = pageCount.then((count) => {
    if (count !== null) return { value: count, isEstimate: false };
    if (counts.get(key)?.total === total) counts.delete(key);
    return null;
  });
  remember(counts, key, total);
}

function pageCountKey(table: string, text: string, params: unknown[]): string {
  return JSON.stringify(['page', table, text, params]);
}

function recentCountsOf(db: Database): RecentCounts {
  let counts = recentCounts.get(db);
  if (!counts) {
    counts = new Map();
    recentCounts.set(db, counts);
  }
  return counts;
}

function remember<T extends Total | null>(counts: RecentCounts, key: string, total: Promise<T>): Promise<T> {
  counts.delete(key);
  counts.set(key, { total, expires: Date.now() + countReuseMs });
  if (counts.size > maxRecentCounts) counts.delete(counts.keys().next().value!);
  // A failed count is not remembered: the next request tries again.
  total.catch(() => {
    if (counts.get(key)?.total === total) counts.delete(key);
  });
  return total;
}

/**
 * How long a count answers for the same query and parameters. The data is read-mostly (the activity index
 * behind the default organisation list is itself refreshed every few minutes), while a broad count costs
 * the whole time limit of database CPU; concurrent identical counts share one query too.
 */
export const countReuseMs = 30_000;
const maxRecentCounts = 2_000;
/** Counts by query: a count within a time limit, or one a page statement made beside its rows (null: none). */
type RecentCounts = Map<string, { total: Promise<Total | null>; expires: number }>;
const recentCounts = new WeakMap<Database, RecentCounts>();
/** Renders a count query to text for the key only; the query itself runs on the caller's database. */
const keyDialect = new PgDialect({ casing: 'snake_case' });

async function countNow(db: Database, countQuery: SQL, options: CountOptions): Promise<Total> {
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
