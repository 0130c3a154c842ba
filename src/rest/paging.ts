import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { Total } from '../domain/paging.ts';
import type { AppEnv } from '../http/app-env.ts';

export const defaultLimit = 20;
export const maxLimit = 100;
export const maxEventsLimit = 200;
/** Pages beyond this are refused, so an offset always fits the database's integers. */
export const maxPage = 1_000_000;

/** `page` and `limit` query parameters; a `limit` above `cap` is capped, not rejected. */
export function pagingQuery(cap: number) {
  return {
    page: z.coerce
      .number({ error: 'page must be a positive integer' })
      .int('page must be a positive integer')
      .min(1, 'page must be a positive integer')
      .max(maxPage, `page must be at most ${maxPage}`)
      .default(1)
      .openapi({
        param: { name: 'page', in: 'query' },
        format: 'int32',
        description: `1-based page, at most ${maxPage}; a page past the last is answered with an empty \`success\` list and the paging object of that page.`,
        example: 1,
      }),
    limit: z
      .string()
      .regex(/^\+?\d+$/, 'limit must be a positive integer')
      // Any count of digits: a limit too large for a number is still just a large limit, capped like one.
      .transform((text) => {
        const digits = text.replace(/^\+?0*/, '');
        return digits.length > String(cap).length ? cap : Math.min(Number(digits || '0'), cap);
      })
      .pipe(z.number().min(1, 'limit must be a positive integer'))
      .default(defaultLimit)
      // No `maximum`, nor a `format` (int64 bounds it too): any larger value is answered as `cap`, so a bound
      // here would declare a refusal that never comes. One component per cap, which the OpenAPI lint knows
      // (scripts/openapi-lint/spectral-owasp.yaml).
      .openapi(`LimitUpTo${cap}`, {
        param: { name: 'limit', in: 'query' },
        type: 'integer',
        minimum: 1,
        default: defaultLimit,
        description: `Page size, default ${defaultLimit}. Any larger value is capped to ${cap}, not refused: the page then holds at most ${cap} rows and \`rows_per_page\` says ${cap}.`,
        example: defaultLimit,
      }),
  };
}

const linkSchema = z.object({ href: z.string(), method: z.string() });

export const pageMetaSchema = z
  .object({
    total: z
      .number()
      .int()
      .openapi({ description: 'Matches; a table-wide estimate when counting ran too long.' }),
    rows_per_page: z.number().int(),
    page: z.number().int(),
    total_pages: z.number().int(),
    links: z.object({
      'first-page': linkSchema,
      'previous-page': linkSchema.optional(),
      'current-page': linkSchema,
      'next-page': linkSchema.optional(),
      'last-page': linkSchema.optional(),
    }),
  })
  .openapi('PageMeta');

export type PageMeta = z.infer<typeof pageMetaSchema>;

/**
 * The paging object of a list response. `hasNext` comes from reading one row past the page, so a
 * page is short only at the end even when the total is an estimate.
 */
export function pageMeta(
  c: Context<AppEnv>,
  input: { total: Total; page: number; limit: number; hasNext: boolean },
): PageMeta {
  const { total, page, limit, hasNext } = input;
  const counted = Math.ceil(total.value / limit);
  const totalPages = Math.max(1, hasNext ? Math.max(counted, page + 1) : total.isEstimate ? page : counted);
  const url = new URL(c.req.url);
  const link = (target: number) => {
    const params = new URLSearchParams(url.searchParams);
    params.set('page', String(target));
    params.set('limit', String(limit));
    return { href: `${url.pathname}?${params.toString()}`, method: 'GET' };
  };
  return {
    total: total.value,
    rows_per_page: limit,
    page,
    total_pages: totalPages,
    links: {
      'first-page': link(1),
      ...(page > 1 ? { 'previous-page': link(page - 1) } : {}),
      'current-page': link(page),
      ...(hasNext ? { 'next-page': link(page + 1) } : {}),
      ...(totalPages > 1 ? { 'last-page': link(totalPages) } : {}),
    },
  };
}

/** Offset window reading one row past the page, and the split of what came back. */
export function pageWindow(page: number, limit: number) {
  return { offset: (page - 1) * limit, limit: limit + 1 };
}

export function splitPage<Row>(rows: Row[], limit: number): { rows: Row[]; hasNext: boolean } {
  return { rows: rows.slice(0, limit), hasNext: rows.length > limit };
}
