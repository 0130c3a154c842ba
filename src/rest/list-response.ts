import type { Context } from 'hono';
import type { Total } from '../domain/paging.ts';
import type { AppEnv } from '../http/app-env.ts';
import { envelope } from './envelope.ts';
import { pageMeta, pageWindow, splitPage } from './paging.ts';

/** A domain read of one window of a list: the rows (one past the page, to tell whether another follows) and the count. */
type PageRead<Row> = (window: { offset: number; limit: number }) => Promise<{ rows: Row[]; total: Total }>;

/** Answers a paginated list endpoint: one domain read, the page serialised, the paging object beside it. */
export async function listResponse<Row, Item>(
  c: Context<AppEnv>,
  paging: { page: number; limit: number },
  read: PageRead<Row>,
  serialize: (row: Row) => Item,
) {
  const { page, limit } = paging;
  const { rows, total } = await read(pageWindow(page, limit));
  const { rows: shown, hasNext } = splitPage(rows, limit);
  return c.json(envelope(c, shown.map(serialize), pageMeta(c, { total, page, limit, hasNext })), 200);
}
