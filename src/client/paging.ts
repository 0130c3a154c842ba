import { OrgraphPageLimitError } from './errors.ts';

export interface IterateOptions {
  /** The most pages to read (default 10,000). Reaching it before a short page throws `OrgraphPageLimitError`. */
  maxPages?: number;
}

export const defaultMaxPages = 10_000;

/**
 * Reads a paginated list page after page, the way the interface spec recommends: `total` and `total_pages` can be
 * estimates, so the loop ends at the first page shorter than the page size in effect (`meta.rows_per_page`, which
 * is the requested `limit` after the service capped it), and a hard cap on pages bounds it whatever happens.
 */
export async function* iteratePages<Row>(
  fetchPage: (page: number) => Promise<{ rows: Row[]; meta: { rows_per_page: number } }>,
  firstPage: number,
  options: IterateOptions = {},
): AsyncGenerator<Row, void, undefined> {
  const maxPages = options.maxPages ?? defaultMaxPages;
  for (let read = 0; read < maxPages; read += 1) {
    const { rows, meta } = await fetchPage(firstPage + read);
    yield* rows;
    if (rows.length < meta.rows_per_page || rows.length === 0) return;
  }
  throw new OrgraphPageLimitError(maxPages);
}
