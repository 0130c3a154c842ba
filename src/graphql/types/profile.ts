import { builder } from '../builder.ts';
import { ProfileRef } from '../refs.ts';

builder.node(ProfileRef, {
  description: 'A person who works at or owns organisations.',
  authScopes: { covers: 'people' },
  id: { resolve: (profile) => profile.reference },
  fields: (t) => ({
    reference: t.expose('reference', { type: 'UUID', description: "The person's reference (UUID)." }),
    fullName: t.exposeString('fullName'),
  }),
});
