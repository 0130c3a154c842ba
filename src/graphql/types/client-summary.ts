import type { ClientSummaryEntry } from '../../domain/vocabulary/organisations.ts';
import { builder } from '../builder.ts';
import { ClientSummaryRef, OrganisationRef } from '../refs.ts';
import { SummaryTypeEnum } from './organisation-enums.ts';

const ClientSummaryEntryRef = builder.objectRef<ClientSummaryEntry>('ClientSummaryEntry').implement({
  description: 'One client type of an assets-under-management record.',
  fields: (t) => ({
    clientType: t.exposeString('client_type', {
      description: 'The client type as a code, e.g. `high_net_worth_individuals`.',
    }),
    clientTypeLabel: t.exposeString('client_type_label', { description: 'The client type as text to show.' }),
    numberOfClients: t.exposeInt('number_of_clients', {
      nullable: true,
      description: 'Null when there are fewer than 5 (see `fewerThan5`).',
    }),
    fewerThan5: t.exposeBoolean('fewer_than_5', {
      description: 'True when the type has fewer than 5 clients (`numberOfClients` is then null).',
    }),
    regulatoryAssetsUnderManagement: t.exposeFloat('regulatory_assets_under_management', {
      nullable: true,
      description: 'In the record’s currency; null when not reported.',
    }),
  }),
});

builder.node(ClientSummaryRef, {
  description:
    'An assets-under-management (AUM) record of an organisation, published yearly. Needs a plan covering `organisations`.',
  authScopes: { covers: 'organisations' },
  id: { resolve: (summary) => summary.reference },
  loadOne: (reference, context) => context.loaders.clientSummaryByReference.load(reference),
  fields: (t) => ({
    reference: t.expose('reference', { type: 'UUID', description: 'The record’s reference (UUID).' }),
    currencyCode: t.exposeString('currencyCode', { description: 'ISO 4217 currency code.' }),
    summaryType: t.field({
      type: SummaryTypeEnum,
      description: 'Whose assets the record counts.',
      resolve: (summary) => summary.summaryType,
    }),
    publishDate: t.expose('publishDate', { type: 'DateTime', description: 'When the record was published.' }),
    entries: t.field({
      type: [ClientSummaryEntryRef],
      description: 'One row per client type.',
      resolve: (summary) => summary.entries,
    }),
    organisation: t.field({
      type: OrganisationRef,
      description: 'The organisation the record belongs to.',
      resolve: async (summary, _args, context) =>
        (await context.loaders.organisationByReference.load(summary.organisationReference))!,
    }),
  }),
});
