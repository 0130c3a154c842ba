import { z } from 'zod';
import type { ArticleKey } from '../../domain/articles/get-article.ts';
import { licenceAllowsText } from '../../domain/articles/licence.ts';
import type { Total } from '../../domain/paging.ts';
import { type PlannedArticle, plannedAnnotations } from '../../domain/profiles/planned-articles.ts';
import type { Article } from '../../domain/records.ts';
import { articleLicences } from '../../domain/vocabulary/articles.ts';
import { builder } from '../builder.ts';
import { resolveKeysetConnection } from '../keyset.ts';
import { AnnotationRef, ArticleRef, MoveEventRef, OrganisationRef } from '../refs.ts';

const ArticleLicenceEnum = builder.enumType('ArticleLicence', {
  description: 'What an article may show.',
  values: {
    FULL_TEXT: {
      value: articleLicences[0],
      description: 'The content and the verbatim statement texts are shown.',
    },
    METADATA_ONLY: {
      value: articleLicences[1],
      description:
        'Content and statement texts are withheld (null); titles, summaries and offsets are shown.',
    },
  },
});

builder.node(ArticleRef, {
  description: 'A source article with annotated statements. Needs a plan covering `articles`.',
  authScopes: { covers: 'articles' },
  id: { resolve: (article) => article.reference },
  loadOne: (reference, context) => context.loaders.articleByReference.load(reference),
  fields: (t) => ({
    reference: t.expose('reference', { type: 'UUID', description: 'The spec reference (UUID).' }),
    title: t.exposeString('title', { description: 'The article’s title; shown under every licence.' }),
    url: t.expose('url', {
      type: 'URL',
      nullable: true,
      description: 'Where the article was published, when known.',
    }),
    publishedAt: t.expose('publishedAt', {
      type: 'DateTime',
      description: 'When the article was published.',
    }),
    licence: t.field({
      type: ArticleLicenceEnum,
      description: 'Decides whether `content` and statement texts are shown.',
      resolve: (article) => article.licence,
    }),
    content: t.string({
      nullable: true,
      description:
        'The article text; null when the licence withholds it (REST sends an empty string there). Statement offsets index this string in UTF-16 code units.',
      resolve: (article) => (licenceAllowsText(article.licence) ? article.content : null),
    }),
    offsetsUnit: t.string({
      description: 'Always `utf16`: `content.slice(start, end)` in JavaScript is the statement text.',
      resolve: () => 'utf16',
    }),
    annotations: t.field({
      type: [AnnotationRef],
      description: 'The statements in reading order (by start offset).',
      resolve: (article: PlannedArticle, _args, context) =>
        article[plannedAnnotations] ?? context.loaders.annotationsByArticle.load(article.reference),
    }),
  }),
});

builder.queryField('article', (t) =>
  t.field({
    type: ArticleRef,
    nullable: true,
    description: 'One article by reference; null when none has it.',
    authScopes: { covers: 'articles' },
    args: { reference: t.arg({ type: 'UUID', required: true, description: 'The article’s reference.' }) },
    resolve: (_root, args, context) => context.loaders.articleByReference.load(args.reference),
  }),
);

const articleKeySchema = z.object({ publishedAt: z.iso.datetime(), reference: z.uuid() });

builder.objectField(OrganisationRef, 'articles', (t) =>
  t.connection(
    {
      type: ArticleRef,
      nullable: true,
      authScopes: { covers: 'articles' },
      description: 'Articles naming the organisation, newest first (then by reference, descending).',
      resolve: async (organisation, args, context) => {
        let total: Total = { value: 0, isEstimate: false };
        const connection = await resolveKeysetConnection<{ article: Article; key: ArticleKey }, ArticleKey>(
          args,
          { schema: articleKeySchema, of: (item) => item.key },
          async (window) => {
            const page = await context.loaders.organisationArticles.load({
              reference: organisation.reference,
              args: window,
            });
            total = page.total;
            return page.items;
          },
        );
        return {
          ...connection,
          edges: connection.edges.map((edge) => ({ cursor: edge.cursor, node: edge.node.article })),
          totalCount: async () => total,
        };
      },
    },
    { name: 'ArticleConnection' },
    { name: 'ArticleEdge' },
  ),
);

builder.objectField(MoveEventRef, 'articles', (t) =>
  t.field({
    type: [ArticleRef],
    // Nullable so that a plan without articles loses this field only, not the whole event.
    nullable: true,
    authScopes: { covers: 'articles' },
    description: 'The source articles reporting the move, newest first.',
    resolve: (event, _args, context) => context.loaders.articlesByEvent.load(event.reference),
  }),
);
