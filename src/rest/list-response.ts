import type { Context } from 'hono';
import type { Total } from '../domain/paging.ts';
import type { AppEnv } from '../http/app-env.ts';
import { chargeCount } from '../http/limits/charge-count.ts';
import { envelope } from './envelope.ts';
import { pageMeta, pageWindow, splitPage } from './paging.ts';

/** A domain read of one window of a list: the rows (one past the page, to tell whether another follows) and the count. */
type PageRead<Row> = (window: { offset: number; limit: number }) => Promise<{ rows: Row[]; total: Total }>;

/** The query parameters that choose a page rather than what is counted. */
const pagingParameters = new Set(['page', 'limit']);

/**
 * Answers a paginated list endpoint: one domain read, the page serialised, the paging object beside it.
 * `countLimited`: the list's total is counted under the count time limit over a whole table (not within one
 * parent record), so it is charged like a count before the read (see `chargeCount`).
 */
export async function listResponse<Row, Item>(
  c: Context<AppEnv>,
  paging: { page: number; limit: number },
  read: PageRead<Row>,
  serialize: (row: Row) => Item,
  options: { countLimited?: boolean } = {},
) {
  const { page, limit } = paging;
  if (options.countLimited) await chargeCount(c, countKeyOf(c));
  const { rows, total } = await read(pageWindow(page, limit));
  const { rows: shown, hasNext } = splitPage(rows, limit);
  return c.json(envelope(c, shown.map(serialize), pageMeta(c, { total, page, limit, hasNext })), 200);
}

/** The list and its filter, paging aside, in one order whatever order the client wrote the parameters in. */
function countKeyOf(c: Context<AppEnv>): string {
  const parameters = [...new URL(c.req.url).searchParams]
    .filter(([name]) => !pagingParameters.has(name))
    .sort(([a, av], [b, bv]) => (a === b ? (av < bv ? -1 : av > bv ? 1 : 0) : a < b ? -1 : 1));
  return JSON.stringify([c.req.path, parameters]);
}
