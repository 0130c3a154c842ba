import { builder } from '../builder.ts';
import { SavedSearchRef } from '../refs.ts';

builder.objectType(SavedSearchRef, {
  description: 'A saved event search: chips to pass to the event listing by `queryId`.',
  authScopes: { covers: 'searches' },
  fields: (t) => ({
    queryId: t.expose('queryId', { type: 'UUID' }),
  }),
});
