import { createRoute, z } from '@hono/zod-openapi';
import { getArticle } from '../../domain/articles/get-article.ts';
import { covers } from '../../http/authenticate.ts';
import { commonErrorResponses, envelope, envelopeSchema, notFoundResponse } from '../envelope.ts';
import type { RestApp } from '../router.ts';
import { articleSchema, serializeArticle } from '../serializers/articles.ts';

const getArticleRoute = createRoute({
  method: 'get',
  path: '/v1/articles/{articleReference}',
  tags: ['Articles'],
  summary: 'Get an article',
  description:
    'One article with its statements, the events it reports and the organisations it names. Under a `metadata_only` licence the content is an empty string and statement texts are null; titles, summaries and offsets are always shown.',
  middleware: [covers('articles')] as const,
  security: [{ bearerAuth: [] }],
  request: {
    params: z.object({
      articleReference: z.uuid({ error: 'must be a UUID' }).openapi({
        param: { name: 'articleReference', in: 'path' },
        description: "The article's reference.",
      }),
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
    const { articleReference } = c.req.valid('param');
    const article = await getArticle(db, articleReference);
    const [annotations, events, organisations] = await Promise.all([
      loaders.annotationsByArticle.load(articleReference),
      loaders.eventsByArticle.load(articleReference),
      loaders.organisationsByArticle.load(articleReference),
    ]);
    return c.json(envelope(c, serializeArticle(article, { annotations, events, organisations }), null), 200);
  });
}
