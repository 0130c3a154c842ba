import { createRoute, z } from '@hono/zod-openapi';
import { feedCursorPattern } from '../../domain/feed/feed-cursor.ts';
import { describeFeed, readFeed } from '../../domain/feed/read-feed.ts';
import { feedChanges, feedCursorLifetimeDays } from '../../domain/vocabulary/feed.ts';
import { covers } from '../../http/authenticate.ts';
import { commonErrorResponses, envelope, envelopeSchema, errorContent } from '../envelope.ts';
import { maxLimit, pagingQuery } from '../paging.ts';
import { referenceParam } from '../params.ts';
import type { RestApp } from '../router.ts';
import { eventSchema } from '../serializers/events.ts';
import { serializeFeedRow } from '../serializers/feed.ts';

export const feedRowSchema = z
  .intersection(
    eventSchema,
    z.object({
      change: z.enum(feedChanges).openapi({
        description:
          '`added`: the event was inserted or changed so that it now matches; `updated`: it matched before and after a change; `removed`: it was deleted or no longer matches (the row shows it as it was).',
      }),
      cursor: z.string().openapi({ description: 'Resume after this row: pass it as `after`.' }),
    }),
  )
  .openapi('FeedRow');

const feedMetaSchema = z
  .object({
    cursor: z.string().openapi({
      description:
        'Where to resume: after the last row, or past every change read when the page is not full. Always present, also when `success` is empty.',
    }),
    has_more: z
      .boolean()
      .openapi({ description: 'More changes may already be waiting: ask again at once with `cursor`.' }),
    rows_per_page: z.number().int(),
  })
  .openapi('FeedMeta');

const feedRoute = createRoute({
  method: 'get',
  path: '/v1/searches/{queryId}/feed',
  tags: ['Searches'],
  operationId: 'listSavedSearchFeed',
  summary: "Follow a saved search's new matches",
  description:
    'Events that newly match the saved search, in commit order: inserted or changed so that they match (`added`), changed while matching (`updated`), deleted or changed so that they no longer match (`removed`, once). ' +
    `Without \`after\` the feed starts now (no rows, and a cursor to resume from). Resuming from the last cursor received misses nothing and repeats nothing, across restarts and instances. Cursors are signed and stay valid for ${feedCursorLifetimeDays} days; an expired cursor is 422, one this feed did not issue (altered, or another search's) 404.`,
  middleware: [covers('searches')] as const,
  request: {
    params: z.object({
      queryId: referenceParam('queryId', 'The saved search (from `POST /v1/search/events`).'),
    }),
    query: z.object({
      after: z
        .string()
        .max(105, 'must be at most 105 characters long')
        .regex(new RegExp(feedCursorPattern), 'must be a cursor this feed returned')
        .optional()
        .openapi({
          param: { name: 'after', in: 'query' },
          description:
            'A cursor from this feed (a row’s `cursor` or `meta.cursor`). Omitted: from now. A text of a cursor’s form that this feed did not issue (altered, or another search’s) is unknown: 404.',
        }),
      limit: pagingQuery(maxLimit).limit,
    }),
  },
  responses: {
    200: {
      description: 'The next rows of the feed.',
      content: { 'application/json': { schema: envelopeSchema(z.array(feedRowSchema), feedMetaSchema) } },
    },
    404: errorContent('No saved search has the `queryId`, or this feed did not issue the cursor `after`.'),
    ...commonErrorResponses,
  },
});

export function registerFeedRoutes(app: RestApp): void {
  app.openapi(feedRoute, async (c) => {
    const { primaryDb, viewer } = c.var.ctx;
    const { after, limit } = c.req.valid('query');
    // The primary: the log's horizon must come from the server the changes are written to.
    const page = await readFeed(primaryDb, c.req.valid('param').queryId, { after, limit });
    const entries = await describeFeed(primaryDb, page, {
      includeArticles: viewer?.plan.covers.includes('articles') ?? false,
    });
    const rows = entries.map(serializeFeedRow);
    return c.json(
      envelope(c, rows, { cursor: page.cursor, has_more: page.hasMore, rows_per_page: limit }),
      200,
    );
  });
}
