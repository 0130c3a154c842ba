import { type FragmentDefinitionNode, Kind, type SelectionSetNode } from 'graphql';
import { z } from 'zod';
import {
  countOrganisations,
  findOrganisations,
  type OrganisationFilter,
  type OrganisationSortKey,
  organisationSortKey,
} from '../../domain/organisations/find-organisations.ts';
import {
  addressesByKind,
  type IndustryClassification,
} from '../../domain/organisations/organisation-parts.ts';
import {
  type OrganisationPeople,
  type OrganisationRole,
  partitionRoles,
} from '../../domain/organisations/organisation-people.ts';
import {
  loadOrganisationRecord,
  type OrganisationWithParts,
  recordParts,
} from '../../domain/organisations/organisation-record.ts';
import { sizeBand } from '../../domain/organisations/size-band.ts';
import { loadOrganisationPlan, type PlannedOrganisation, plannedPeople } from '../../domain/read-plan.ts';
import type {
  Organisation,
  OrganisationAddress,
  OrganisationAlias,
  OrganisationDomain,
  OrganisationPhone,
  OrganisationScore,
  OrganisationTicker,
} from '../../domain/records.ts';
import { requireActivityCoverage } from '../../http/activity-coverage.ts';
import type { RequestContext } from '../../http/context.ts';
import { builder } from '../builder.ts';
import { resolveKeysetConnection } from '../keyset.ts';
import { organisationConnectionPlan } from '../read-plan.ts';
import { ArticleRef, ClientSummaryRef, IndustryRef, OrganisationRef, ProfileRef } from '../refs.ts';
import {
  ActivityPeriodEnum,
  ActivityTypeEnum,
  OrganisationKindEnum,
  OrganisationStatusEnum,
  ScoreDimensionEnum,
} from './organisation-enums.ts';

const OrganisationScoreRef = builder.objectRef<OrganisationScore>('OrganisationScore').implement({
  description: 'A score of the organisation on one dimension.',
  fields: (t) => ({
    dimension: t.field({
      type: ScoreDimensionEnum,
      description: 'The dimension scored.',
      resolve: (score) => score.dimension,
    }),
    score: t.exposeInt('score', { description: '1 to 100.' }),
  }),
});

const OrganisationAliasRef = builder.objectRef<OrganisationAlias>('OrganisationAlias').implement({
  description: 'Another name of the organisation, with the period it was used where known.',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'The other name.' }),
    startDate: t.expose('startDate', {
      type: 'Date',
      nullable: true,
      description: 'When the name came into use, when known.',
    }),
    endDate: t.expose('endDate', {
      type: 'Date',
      nullable: true,
      description: 'Null while the name is in use.',
    }),
  }),
});

const ExchangeRef = builder
  .objectRef<Pick<OrganisationTicker, 'exchangeName' | 'exchangeCode'>>('Exchange')
  .implement({
    description: 'A stock exchange.',
    fields: (t) => ({
      name: t.exposeString('exchangeName', { description: 'The exchange’s name.' }),
      code: t.exposeString('exchangeCode', { description: 'The exchange’s code, e.g. `XNYS`.' }),
    }),
  });

const TickerRef = builder.objectRef<OrganisationTicker>('Ticker').implement({
  description: 'A listing of the organisation on an exchange.',
  fields: (t) => ({
    value: t.exposeString('value', { description: 'The ticker symbol.' }),
    exchange: t.field({
      type: ExchangeRef,
      description: 'The exchange it is listed on.',
      resolve: (ticker) => ticker,
    }),
    currency: t.exposeString('currency', { description: 'The trading currency, a code such as `USD`.' }),
    status: t.exposeString('status', { description: 'e.g. `active`, `suspended`, `delisted`.' }),
    isPrimaryListing: t.exposeBoolean('isPrimaryListing', {
      description: 'Whether this is the organisation’s primary listing.',
    }),
  }),
});

const OrganisationDomainRef = builder.objectRef<OrganisationDomain>('OrganisationDomain').implement({
  description: 'A web domain of the organisation.',
  fields: (t) => ({
    domain: t.exposeString('domain', { description: 'The domain name, e.g. `example.com`.' }),
    confidenceScore: t.exposeFloat('confidenceScore', { description: '0 to 1.' }),
    isValid: t.exposeBoolean('isValid', { description: 'Whether the domain is recorded as valid.' }),
  }),
});

const OrganisationPhoneRef = builder.objectRef<OrganisationPhone>('OrganisationPhone').implement({
  description: 'A telephone number of the organisation.',
  fields: (t) => ({
    number: t.exposeString('number', { description: 'The number as recorded.' }),
    type: t.exposeString('type', { description: 'e.g. `main`, `fax`, `mobile`, `support`.' }),
    isValid: t.exposeBoolean('isValid', { description: 'Whether the number is recorded as valid.' }),
  }),
});

const OrganisationIndustryRef = builder.objectRef<IndustryClassification>('OrganisationIndustry').implement({
  description:
    'One GICS node the organisation is classified under; the flag belongs to the classification, not the node.',
  fields: (t) => ({
    industry: t.field({
      type: IndustryRef,
      description: 'The GICS node.',
      resolve: (classification) => classification.industry,
    }),
    isPrimary: t.exposeBoolean('isPrimary', {
      description: 'Whether this is the organisation’s primary classification.',
    }),
  }),
});

const AddressRef = builder.objectRef<OrganisationAddress>('Address').implement({
  description: 'A postal address.',
  fields: (t) => ({
    city: t.exposeString('city', { nullable: true, description: 'The city, when recorded.' }),
    state: t.exposeString('state', {
      nullable: true,
      description: 'The state, province or region, when recorded.',
    }),
    country: t.expose('country', { type: 'CountryCode', nullable: true, description: 'ISO 3166-1 alpha-2.' }),
    zipPostalCode: t.exposeString('zipPostalCode', {
      nullable: true,
      description: 'The ZIP or postal code, when recorded.',
    }),
  }),
});

const OrganisationAddressesRef = builder
  .objectRef<ReturnType<typeof addressesByKind>>('OrganisationAddresses')
  .implement({
    description:
      "The organisation's company (registered) and mailing addresses; null where none is recorded.",
    fields: (t) => ({
      company: t.field({
        type: AddressRef,
        nullable: true,
        description: 'The company (registered) address; the `country` filter of the list looks at this one.',
        resolve: (addresses) => addresses.company,
      }),
      mailing: t.field({
        type: AddressRef,
        nullable: true,
        description: 'The mailing address.',
        resolve: (addresses) => addresses.mailing,
      }),
    }),
  });

const RelationshipCountsRef = builder.objectRef<Organisation>('RelationshipCounts').implement({
  description: 'How many business relationships of each kind the organisation has.',
  fields: (t) => ({
    customers: t.exposeInt('customers', { description: 'How many customers.' }),
    suppliers: t.exposeInt('suppliers', { description: 'How many suppliers.' }),
    partners: t.exposeInt('partners', { description: 'How many partners.' }),
    serviceProviders: t.exposeInt('serviceProviders', { description: 'How many service providers.' }),
  }),
});

const OrganisationRoleRef = builder.objectRef<OrganisationRole>('OrganisationRole').implement({
  description:
    'One role a person holds or held at the organisation; a person with two roles there appears twice.',
  fields: (t) => ({
    profile: t.field({ type: ProfileRef, description: 'The person.', resolve: (role) => role.profile }),
    title: t.exposeString('title', { description: 'The title as recorded.' }),
    startDate: t.expose('startDate', {
      type: 'Date',
      nullable: true,
      description: 'When the role started, when known.',
    }),
    endDate: t.expose('endDate', { type: 'Date', nullable: true, description: 'Null on a current role.' }),
  }),
});

/** The organisation's people lists: the read plan's when it loaded them, else through the loader. */
function peopleOf(organisation: PlannedOrganisation, context: RequestContext) {
  return (
    organisation[plannedPeople] ??
    context.loaders.rolesByOrganisation.load(organisation.reference).then(partitionRoles)
  );
}

/** One of the people lists, synchronously when the plan loaded them. */
function listOf(people: OrganisationPeople | Promise<OrganisationPeople>, list: keyof OrganisationPeople) {
  return people instanceof Promise ? people.then((loaded) => loaded[list]) : people[list];
}

builder.node(OrganisationRef, {
  description:
    'An organisation: a company, fund or other body that people work at or own. Needs a plan covering `organisations`.',
  authScopes: { covers: 'organisations' },
  id: { resolve: (organisation) => organisation.reference },
  loadOne: (reference, context) => context.loaders.organisationByReference.load(reference),
  fields: (t) => ({
    reference: t.expose('reference', { type: 'UUID', description: 'The spec reference (UUID).' }),
    name: t.exposeString('name', { description: 'The organisation’s name.' }),
    description: t.exposeString('description', {
      nullable: true,
      description: 'A free-text description, when recorded.',
    }),
    status: t.field({
      type: OrganisationStatusEnum,
      description: 'The organisation’s state.',
      resolve: (organisation) => organisation.status,
    }),
    verified: t.exposeBoolean('verified', { description: 'Whether the record has been verified.' }),
    confidence: t.exposeInt('confidence', { description: '0 to 100.' }),
    isFund: t.exposeBoolean('isFund', {
      description: 'True for a fund; `organisations` leaves funds out unless `kind` asks for them.',
    }),
    employees: t.exposeInt('employees', { description: 'The recorded headcount; 0 when unknown.' }),
    sizeBand: t.string({
      description:
        'The headcount band of `employees`: 1-10, 11-50, 51-200, 201-500, 501-1000, 1001-5000, 5001-10000, 10001+, or `-` when unknown (0).',
      resolve: (organisation) => sizeBand(organisation.employees),
    }),
    relationships: t.field({
      type: RelationshipCountsRef,
      description: 'Counts of customers, suppliers, partners and service providers.',
      resolve: (organisation) => organisation,
    }),
    scores: t.field({
      type: [OrganisationScoreRef],
      description: 'Scores on the dimensions it has been scored on, in a fixed dimension order.',
      resolve: (organisation, _args, context) =>
        context.loaders.scoresByOrganisation.load(organisation.reference),
    }),
    aliases: t.field({
      type: [OrganisationAliasRef],
      description: 'Other names: those in use first, then the latest ended first.',
      resolve: (organisation: OrganisationWithParts, _args, context) =>
        organisation[recordParts]?.aliases ??
        context.loaders.aliasesByOrganisation.load(organisation.reference),
    }),
    tickers: t.field({
      type: [TickerRef],
      description: 'Listings, the primary one first.',
      resolve: (organisation: OrganisationWithParts, _args, context) =>
        organisation[recordParts]?.tickers ??
        context.loaders.tickersByOrganisation.load(organisation.reference),
    }),
    domains: t.field({
      type: [OrganisationDomainRef],
      description: 'Web domains, the most confident first.',
      resolve: (organisation: OrganisationWithParts, _args, context) =>
        organisation[recordParts]?.domains ??
        context.loaders.domainsByOrganisation.load(organisation.reference),
    }),
    phones: t.field({
      type: [OrganisationPhoneRef],
      description: 'Telephone numbers, main numbers first.',
      resolve: (organisation: OrganisationWithParts, _args, context) =>
        organisation[recordParts]?.phones ??
        context.loaders.phonesByOrganisation.load(organisation.reference),
    }),
    industries: t.field({
      type: [OrganisationIndustryRef],
      description: 'GICS classification, the primary node first.',
      resolve: (organisation: OrganisationWithParts, _args, context) =>
        organisation[recordParts]?.industries ??
        context.loaders.industriesByOrganisation.load(organisation.reference),
    }),
    addresses: t.field({
      type: OrganisationAddressesRef,
      description: 'The company and mailing addresses.',
      resolve: (organisation: OrganisationWithParts, _args, context) =>
        organisation[recordParts]?.addresses ??
        context.loaders.addressesByOrganisation.load(organisation.reference).then(addressesByKind),
    }),
    clientSummary: t.field({
      type: ClientSummaryRef,
      nullable: true,
      description: 'The latest assets-under-management record, or null.',
      resolve: (organisation: OrganisationWithParts, _args, context) => {
        const parts = organisation[recordParts];
        return parts
          ? parts.clientSummary
          : context.loaders.latestClientSummaryByOrganisation.load(organisation.reference);
      },
    }),
    clientSummaries: t.field({
      type: [ClientSummaryRef],
      description: 'Every assets-under-management record, newest first.',
      resolve: (organisation, _args, context) =>
        context.loaders.clientSummariesByOrganisation.load(organisation.reference),
    }),
    currentExecutives: t.field({
      type: [OrganisationRoleRef],
      description:
        'Current roles whose title reads as executive (C-suite titles and abbreviations, president, founder, owner, director, VP/SVP/EVP, general or country manager, partner, head of, chair, board member; not assistants or HR business partners), latest joiner first.',
      resolve: (organisation, _args, context) => listOf(peopleOf(organisation, context), 'currentExecutives'),
    }),
    currentProfessionals: t.field({
      type: [OrganisationRoleRef],
      description: 'Every other current role, latest joiner first.',
      resolve: (organisation, _args, context) =>
        listOf(peopleOf(organisation, context), 'currentProfessionals'),
    }),
    alumni: t.field({
      type: [OrganisationRoleRef],
      description: 'Ended roles, most recent leaver first.',
      resolve: (organisation, _args, context) => listOf(peopleOf(organisation, context), 'alumni'),
    }),
  }),
});

builder.queryField('organisation', (t) =>
  t.field({
    type: OrganisationRef,
    nullable: true,
    description: 'One organisation by its reference; null when none has it.',
    authScopes: { covers: 'organisations' },
    args: {
      reference: t.arg({ type: 'UUID', required: true, description: 'The organisation’s reference.' }),
    },
    resolve: async (_root, args, context, info) => {
      if (!asksForParts(info.fieldNodes, info.fragments)) {
        return context.loaders.organisationByReference.load(args.reference);
      }
      return loadOrganisationRecord(context.db, args.reference);
    },
  }),
);

/** Fields read from the single record's parts, each a loader (and a statement) of its own otherwise. */
const partFields = new Set([
  'aliases',
  'tickers',
  'domains',
  'phones',
  'industries',
  'addresses',
  'clientSummary',
]);

/**
 * Whether the selection under `nodes` asks for any part of the record (through fragments too). Kept beside the read
 * plans: a single record is not planned, and a brief read skips the record's assembly and its parts' statements.
 */
function asksForParts(
  nodes: readonly { selectionSet?: SelectionSetNode | undefined }[],
  fragments: Record<string, FragmentDefinitionNode>,
): boolean {
  return nodes.some((node) =>
    (node.selectionSet?.selections ?? []).some((selection) => {
      if (selection.kind === Kind.FIELD) return partFields.has(selection.name.value);
      if (selection.kind === Kind.INLINE_FRAGMENT) return asksForParts([selection], fragments);
      const fragment = fragments[selection.name.value];
      return fragment ? asksForParts([fragment], fragments) : false;
    }),
  );
}

const ScoreFilter = builder.inputType('ScoreFilter', {
  description: 'A lowest score on one dimension (REST `score_min` with `score_dimension`).',
  fields: (t) => ({
    dimension: t.field({
      type: ScoreDimensionEnum,
      required: true,
      description: 'The dimension `min` applies to.',
    }),
    min: t.int({ required: true, description: '1 to 100.' }),
  }),
});

const OrganisationFilterInput = builder.inputType('OrganisationFilter', {
  description: 'Filters of the organisation list (those of `GET /v1/organisations`); all given ones apply.',
  fields: (t) => ({
    name: t.string({
      description:
        'Case-insensitive substring of the name, at most 200 characters; `%`, `_` and `\\` match themselves.',
    }),
    showEmpty: t.boolean({
      description:
        'Search every organisation, not only those with recorded activity (an index refreshed periodically); also lowers the default `minConfidence` to 0.',
    }),
    industry: t.string({
      description: 'A GICS code of 2, 4, 6 or 8 digits that exists: that node and every node below it.',
    }),
    country: t.string({
      description:
        'Country of the company address: an ISO 3166 alpha-2 or alpha-3 code or an English name, any case.',
    }),
    kind: t.field({
      type: OrganisationKindEnum,
      description: 'Without it funds are left out (REST `type`).',
    }),
    status: t.field({ type: OrganisationStatusEnum, description: 'Without it every status.' }),
    verified: t.boolean({ description: 'Only verified (true) or only unverified (false) organisations.' }),
    minConfidence: t.int({ description: '0 to 100; defaults to 5, or to 0 with `showEmpty`.' }),
    hasAum: t.boolean({
      description: 'With (true) or without (false) assets-under-management records (REST `has_raum`).',
    }),
    activityTypes: t.field({
      type: [ActivityTypeEnum],
      description: 'Organisations with activity of any of these types.',
    }),
    activityPeriod: t.field({
      type: ActivityPeriodEnum,
      description: 'Organisations with activity (of `activityTypes`, when given) in the period.',
    }),
    minScore: t.field({ type: ScoreFilter, description: 'Only organisations scoring at least this much.' }),
  }),
});

type FilterInput = typeof OrganisationFilterInput.$inferInput;

/** The graph's filter as the domain's; null means "not given", as in REST. */
function organisationFilterOf(input: FilterInput | null | undefined): OrganisationFilter {
  if (!input) return {};
  const given = <Value>(value: Value | null | undefined) => value ?? undefined;
  return {
    name: given(input.name),
    showEmpty: given(input.showEmpty),
    industry: given(input.industry),
    country: given(input.country),
    kind: given(input.kind),
    status: given(input.status),
    verified: given(input.verified),
    minConfidence: given(input.minConfidence),
    hasAum: given(input.hasAum),
    activityTypes: given(input.activityTypes),
    activityPeriod: given(input.activityPeriod),
    score: input.minScore ? { dimension: input.minScore.dimension, min: input.minScore.min } : undefined,
  };
}

const organisationKeySchema: z.ZodType<OrganisationSortKey> = z.object({
  name: z.string(),
  reference: z.uuid(),
});

builder.queryField('organisations', (t) =>
  t.connection(
    {
      type: OrganisationRef,
      nullable: true,
      description:
        'Organisations sorted by name, then reference: the order and filters of `GET /v1/organisations`. Without `showEmpty` only organisations with recorded activity are searched, and funds are left out unless `kind` says otherwise.',
      authScopes: { covers: 'organisations' },
      args: {
        filter: t.arg({
          type: OrganisationFilterInput,
          description: 'Without it the defaults apply: activity index only, no funds, `minConfidence` 5.',
        }),
      },
      resolve: async (_root, args, context, info) => {
        const filter = organisationFilterOf(args.filter);
        requireActivityCoverage(context.viewer, filter);
        const connection = await resolveKeysetConnection<Organisation, OrganisationSortKey>(
          args,
          { schema: organisationKeySchema, of: organisationSortKey },
          (window) => findOrganisations(context.db, filter, window),
        );
        const plan = organisationConnectionPlan(info);
        if (plan) {
          await loadOrganisationPlan(
            context.db,
            connection.edges.map((edge) => edge.node),
            plan,
          );
        }
        return {
          ...connection,
          totalCount: () =>
            countOrganisations(context.db, filter, { timeoutMs: context.config.countTimeoutMs }),
        };
      },
    },
    { name: 'OrganisationConnection' },
    { name: 'OrganisationEdge' },
  ),
);

builder.objectField(ArticleRef, 'organisations', (t) =>
  t.field({
    type: [OrganisationRef],
    description: 'The organisations the article is about, by name.',
    resolve: (article, _args, context) => context.loaders.organisationsByArticle.load(article.reference),
  }),
);
