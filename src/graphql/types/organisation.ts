import { builder } from '../builder.ts';
import { OrganisationRef } from '../refs.ts';

builder.node(OrganisationRef, {
  description: 'An organisation: a company, fund or other body that people work at or own.',
  authScopes: { covers: 'organisations' },
  id: { resolve: (organisation) => organisation.reference },
  loadOne: (reference, context) => context.loaders.organisationByReference.load(reference),
  fields: (t) => ({
    reference: t.expose('reference', { type: 'UUID', description: 'The spec reference (UUID).' }),
    name: t.exposeString('name'),
  }),
});

builder.queryField('organisation', (t) =>
  t.field({
    type: OrganisationRef,
    nullable: true,
    description: 'One organisation by its reference; null when none has it.',
    authScopes: { covers: 'organisations' },
    args: { reference: t.arg({ type: 'UUID', required: true }) },
    resolve: (_root, args, context) => context.loaders.organisationByReference.load(args.reference),
  }),
);
