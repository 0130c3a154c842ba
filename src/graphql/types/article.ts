import { builder } from '../builder.ts';
import { ArticleRef } from '../refs.ts';

builder.node(ArticleRef, {
  description: 'A source article with annotated statements.',
  authScopes: { covers: 'articles' },
  id: { resolve: (article) => article.reference },
  fields: (t) => ({
    reference: t.expose('reference', { type: 'UUID', description: 'The spec reference (UUID).' }),
    title: t.exposeString('title'),
  }),
});
