import { createRoute, z } from '@hono/zod-openapi';
import { getArticleRecord } from '../../domain/articles/article-record.ts';
import { covers } from '../../http/authenticate.ts';
import { commonErrorResponses, envelope, envelopeSchema, notFoundResponse } from '../envelope.ts';
import { referenceParam } from '../params.ts';
import type { RestApp } from '../router.ts';
import { articleSchema, serializeArticle } from '../serializers/articles.ts';

const getArticleRoute = createRoute({
  method: 'get',
  path: '/v1/articles/{articleReference}',
  operationId: 'getArticle',
  tags: ['Articles'],
  summary: 'Get an article',
  description:
    'One article with its statements, the events it reports and the organisations it names. Under a `metadata_only` licence the content is an empty string and statement texts are null; titles, summaries and offsets are always shown.',
  middleware: [covers('articles')] as const,
  request: {
    params: z.object({
      articleReference: referenceParam('articleReference', "The article's reference."),
    }),
  },
  responses: {
    200: {
      description: 'The article.',
      content: { 'application/json': { schema: envelopeSchema(articleSchema, z.null()) } },
    },
    ...notFoundResponse,
    ...commonErrorResponses,
  },
});

export function registerArticleRoutes(app: RestApp): void {
  app.openapi(getArticleRoute, async (c) => {
    const { db, loaders } = c.var.ctx;
    const record = await getArticleRecord(db, loaders, c.req.valid('param').articleReference);
    return c.json(envelope(c, serializeArticle(record), null), 200);
  });
}
