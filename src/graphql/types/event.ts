import { z } from 'zod';
import {
  countEvents,
  type EventKey,
  eventKeyOf,
  findEvents,
  type ListedEvent,
  prepareEventFilter,
} from '../../domain/events/find-events.ts';
import type { Event } from '../../domain/records.ts';
import { isReference } from '../../domain/reference.ts';
import {
  type Compensation,
  type EventDetails,
  type EventType,
  eventTypes,
} from '../../domain/vocabulary/events.ts';
import type { RequestContext } from '../../http/context.ts';
import { builder } from '../builder.ts';
import { resolveKeysetConnection } from '../keyset.ts';
import {
  ArticleRef,
  ClientSummaryEventRef,
  ClientSummaryRef,
  DealEventRef,
  EventRef,
  FundingEventRef,
  MoveEventRef,
  OccupationRef,
  OrganisationRef,
  ProfileRef,
  PublicOfferingEventRef,
} from '../refs.ts';

const refByType = {
  move: MoveEventRef,
  funding: FundingEventRef,
  deal: DealEventRef,
  public_offering: PublicOfferingEventRef,
  client_summary: ClientSummaryEventRef,
} satisfies Record<EventType, unknown>;

const typeDescriptions: Record<EventType, string> = {
  move: 'An appointment, departure or other change of role of a person at an organisation.',
  funding: 'A funding round raised by an organisation.',
  deal: 'A deal between an acquirer and an acquiree (acquisition, merger, stake...).',
  public_offering: 'A public offering of shares by a listed organisation.',
  client_summary: 'An assets-under-management record filed by an organisation.',
};

export const EventTypeEnum = builder.enumType('EventType', {
  description: 'The kind of a business event.',
  values: Object.fromEntries(
    eventTypes.map((type) => [type.toUpperCase(), { value: type, description: typeDescriptions[type] }]),
  ) as Record<Uppercase<EventType>, { value: EventType; description: string }>,
});

const eventsPlan = 'Needs a plan covering `events`.';

/** A node id's reference, loaded only when it is a UUID and the event has the type the id names. */
async function loadEventOfType(context: RequestContext, reference: string, type: EventType) {
  if (!isReference(reference)) return null;
  const event = await context.loaders.eventByReference.load(reference);
  return event?.type === type ? event : null;
}

const loadOrganisation = (context: RequestContext, reference: string | null) =>
  reference ? context.loaders.organisationByReference.load(reference) : null;

const loadParticipants = async (context: RequestContext, event: Event) =>
  (await context.loaders.participantsByEvent.load(event.reference)).map((participant) => participant.profile);

builder.interfaceType(EventRef, {
  description:
    'A business event, one implementing type per event type. Events are listed newest first (publish date, then reference, descending). Needs a plan covering `events`.',
  interfaces: [builder.nodeInterfaceRef()],
  resolveType: (event) => refByType[event.type].name,
  fields: (t) => ({
    reference: t.expose('reference', { type: 'UUID', description: 'The spec reference (UUID).' }),
    eventType: t.field({
      type: EventTypeEnum,
      description: 'The event’s type; it names the implementing type (`MOVE` is a `MoveEvent`, and so on).',
      resolve: (event) => event.type,
    }),
    summary: t.exposeString('summary', { nullable: true, description: 'A readable one-line summary.' }),
    publishDate: t.expose('publishDate', { type: 'DateTime', description: 'When the event became public.' }),
    links: t.field({
      type: 'JSON',
      description: 'Related links; empty on every event type today.',
      resolve: () => [],
    }),
    organisation: t.field({
      type: OrganisationRef,
      nullable: true,
      description: 'The organisation the event is about; on deals, the acquirer.',
      resolve: (event, _args, context) => loadOrganisation(context, event.organisationReference),
    }),
  }),
});

const CompensationType = builder.objectRef<Compensation>('Compensation').implement({
  description: 'One component of the pay announced with a move.',
  fields: (t) => ({
    type: t.exposeString('type', { description: 'For example Base Salary, Annual Bonus, Stock Options.' }),
    value: t.exposeFloat('value', { description: 'The amount, in the unit that `valueType` names.' }),
    valueType: t.exposeString('value_type', { description: 'A currency code, `percent` or `shares`.' }),
    valueSuffix: t.exposeString('value_suffix', { nullable: true, description: 'For example `per annum`.' }),
  }),
});

type Deal = NonNullable<EventDetails['deal']>;
const DealType = builder.objectRef<Deal>('Deal').implement({
  description: 'The terms of a deal.',
  fields: (t) => ({
    type: t.exposeString('type', { description: 'For example Acquisition, Merger, Minority Stake.' }),
    status: t.exposeString('status', {
      description: 'For example Announced, Pending, Completed, Withdrawn.',
    }),
    value: t.exposeFloat('value', { nullable: true, description: 'In the deal currency.' }),
    valueUsd: t.exposeFloat('value_usd', { nullable: true, description: 'The value in US dollars.' }),
    announcementDate: t.expose('announcement_date', {
      type: 'Date',
      nullable: true,
      description: 'When the deal was announced, when known.',
    }),
    completionDate: t.expose('completion_date', {
      type: 'Date',
      nullable: true,
      description: 'When the deal completed; null when it has not or the date is unknown.',
    }),
    terms: t.exposeString('terms', {
      nullable: true,
      description: 'A note on the terms, e.g. All-cash transaction; null when not disclosed.',
    }),
  }),
});

type Offering = NonNullable<EventDetails['offering']>;
const OfferingType = builder.objectRef<Offering>('PublicOffering').implement({
  description: 'The terms of a public offering.',
  fields: (t) => ({
    exchange: t.exposeString('exchange', { description: 'The name of the exchange.' }),
    ticker: t.exposeString('ticker', { description: 'The ticker symbol offered.' }),
    price: t.exposeFloat('price', { nullable: true, description: 'Price per share, in `currencyCode`.' }),
    sharesOffered: t.exposeFloat('shares_offered', {
      nullable: true,
      description: 'How many shares were offered, when known.',
    }),
    currencyCode: t.exposeString('currency_code', { description: 'The currency of `price`, e.g. `USD`.' }),
  }),
});

builder.node(MoveEventRef, {
  authScopes: { covers: 'events' },
  interfaces: [EventRef],
  id: { resolve: (event) => event.reference },
  description: `${typeDescriptions.move} ${eventsPlan}`,
  isTypeOf: (event) => (event as Event).type === 'move',
  loadOne: (reference, context) => loadEventOfType(context, reference, 'move'),
  fields: (t) => ({
    moveType: t.exposeString('moveType', {
      nullable: true,
      description: 'For example Appointment, Departure, Promotion, Lateral Move, Retirement.',
    }),
    profile: t.field({
      type: ProfileRef,
      nullable: true,
      description: 'The person who moved.',
      resolve: (event, _args, context) =>
        event.profileReference ? context.loaders.profileByReference.load(event.profileReference) : null,
    }),
    occupation: t.field({
      type: OccupationRef,
      nullable: true,
      description: 'The normalised title of the role, when known.',
      resolve: (event, _args, context) =>
        event.occupationReference
          ? context.loaders.occupationByReference.load(event.occupationReference)
          : null,
    }),
    effectiveDate: t.expose('effectiveDate', {
      type: 'DateTime',
      nullable: true,
      description: 'When the move takes effect.',
    }),
    compensations: t.field({
      type: [CompensationType],
      description: 'The announced pay, one entry per component; often empty.',
      resolve: (event) => event.details.compensations ?? [],
    }),
  }),
});

builder.node(FundingEventRef, {
  authScopes: { covers: 'events' },
  interfaces: [EventRef],
  id: { resolve: (event) => event.reference },
  description: `${typeDescriptions.funding} ${eventsPlan}`,
  isTypeOf: (event) => (event as Event).type === 'funding',
  loadOne: (reference, context) => loadEventOfType(context, reference, 'funding'),
  fields: (t) => ({
    round: t.string({
      nullable: true,
      description: 'The round, e.g. Seed or Series A.',
      resolve: (event) => event.details.round ?? null,
    }),
    value: t.float({
      nullable: true,
      description: 'The amount raised, in `currencyCode`.',
      resolve: (event) => event.details.value ?? null,
    }),
    currencyCode: t.string({
      nullable: true,
      description: 'The currency of `value`, e.g. `USD`.',
      resolve: (event) => event.details.currency_code ?? null,
    }),
    participants: t.field({
      type: [ProfileRef],
      description: 'The investors, by surname.',
      extensions: { listSize: 10 },
      resolve: (event, _args, context) => loadParticipants(context, event),
    }),
  }),
});

builder.node(DealEventRef, {
  authScopes: { covers: 'events' },
  interfaces: [EventRef],
  id: { resolve: (event) => event.reference },
  description: `${typeDescriptions.deal} ${eventsPlan}`,
  isTypeOf: (event) => (event as Event).type === 'deal',
  loadOne: (reference, context) => loadEventOfType(context, reference, 'deal'),
  fields: (t) => ({
    acquirer: t.field({
      type: OrganisationRef,
      nullable: true,
      description: 'The organisation acquiring, when recorded.',
      resolve: (event, _args, context) => loadOrganisation(context, event.acquirerReference),
    }),
    acquiree: t.field({
      type: OrganisationRef,
      nullable: true,
      description: 'The organisation acquired, when recorded.',
      resolve: (event, _args, context) => loadOrganisation(context, event.acquireeReference),
    }),
    deal: t.field({
      type: DealType,
      nullable: true,
      description: 'The terms of the deal; null when none are recorded.',
      resolve: (event) => event.details.deal ?? null,
    }),
  }),
});

builder.node(PublicOfferingEventRef, {
  authScopes: { covers: 'events' },
  interfaces: [EventRef],
  id: { resolve: (event) => event.reference },
  description: `${typeDescriptions.public_offering} ${eventsPlan}`,
  isTypeOf: (event) => (event as Event).type === 'public_offering',
  loadOne: (reference, context) => loadEventOfType(context, reference, 'public_offering'),
  fields: (t) => ({
    offering: t.field({
      type: OfferingType,
      nullable: true,
      description: 'The terms of the offering; null when none are recorded.',
      resolve: (event) => event.details.offering ?? null,
    }),
    participants: t.field({
      type: [ProfileRef],
      description: 'Bookrunners, underwriters and selling shareholders, by surname.',
      extensions: { listSize: 10 },
      resolve: (event, _args, context) => loadParticipants(context, event),
    }),
  }),
});

builder.node(ClientSummaryEventRef, {
  authScopes: { covers: 'events' },
  interfaces: [EventRef],
  id: { resolve: (event) => event.reference },
  description: `${typeDescriptions.client_summary} ${eventsPlan}`,
  isTypeOf: (event) => (event as Event).type === 'client_summary',
  loadOne: (reference, context) => loadEventOfType(context, reference, 'client_summary'),
  fields: (t) => ({
    clientSummary: t.field({
      type: ClientSummaryRef,
      nullable: true,
      description: 'The assets-under-management record the event reports.',
      resolve: (event, _args, context) =>
        event.clientSummaryReference
          ? context.loaders.clientSummaryByReference.load(event.clientSummaryReference)
          : null,
    }),
  }),
});

/** Cursors of event lists: the sort key, checked so a forged cursor is a clear error and never reaches SQL. */
const eventKeySchema: z.ZodType<EventKey> = z.object({
  publishedAt: z.iso.datetime(),
  reference: z.uuid(),
});
const eventKeys = { schema: eventKeySchema, of: (event: ListedEvent) => eventKeyOf(event) };

const EventFilterInput = builder.inputType('EventFilter', {
  description: 'Narrows the event list; every field given must hold (AND).',
  fields: (t) => ({
    eventType: t.field({ type: EventTypeEnum, description: 'Only events of this type.' }),
    organisationReference: t.field({
      type: 'UUID',
      description:
        "Only events about this organisation: as the event's organisation, the acquirer or the acquiree.",
    }),
    profileReference: t.field({
      type: 'UUID',
      description: 'Only events about this person: the subject of a move or a participant.',
    }),
    publishedAfter: t.field({
      type: 'DateTime',
      description: 'Only events published at or after this instant.',
    }),
    publishedBefore: t.field({
      type: 'DateTime',
      description:
        'Only events published strictly before this instant; at or before `publishedAfter` the window holds no event.',
    }),
  }),
});

builder.queryField('event', (t) =>
  t.field({
    type: EventRef,
    nullable: true,
    description: 'One event by its reference; null when none has it.',
    authScopes: { covers: 'events' },
    args: { reference: t.arg({ type: 'UUID', required: true, description: 'The event’s reference.' }) },
    resolve: (_root, args, context) => context.loaders.eventByReference.load(args.reference),
  }),
);

builder.queryField('events', (t) =>
  t.connection({
    type: EventRef,
    nullable: true,
    description:
      'Events, newest first (publish date, then reference, descending), at most 100 a page. `queryId` applies a saved search (unknown ids are a NOT_FOUND error); it combines with `filter` by AND.',
    authScopes: { covers: 'events' },
    args: {
      filter: t.arg({ type: EventFilterInput, description: 'Narrows the list; AND with `queryId`.' }),
      queryId: t.arg({ type: 'UUID', description: 'A saved search, from `saveEventSearch`.' }),
    },
    resolve: async (_root, args, context) => {
      const { db, primaryDb, config } = context;
      // Saved searches are read from the primary, like REST: one saved a moment ago is found behind a replica.
      const filter = await prepareEventFilter(primaryDb, {
        eventType: args.filter?.eventType ?? undefined,
        organisationReference: args.filter?.organisationReference ?? undefined,
        profileReference: args.filter?.profileReference ?? undefined,
        publishedAfter: args.filter?.publishedAfter ?? undefined,
        publishedBefore: args.filter?.publishedBefore ?? undefined,
        queryId: args.queryId ?? undefined,
      });
      const connection = await resolveKeysetConnection(args, eventKeys, (window) =>
        findEvents(db, filter, window),
      );
      return { ...connection, totalCount: () => countEvents(db, filter, config.countTimeoutMs) };
    },
  }),
);

builder.objectField(OrganisationRef, 'events', (t) =>
  t.connection({
    type: EventRef,
    description:
      'Events about this organisation (as its organisation, acquirer or acquiree), newest first, at most 100 a page.',
    // Nullable so that a plan without events loses this field only, not the whole record.
    nullable: true,
    authScopes: { covers: 'events' },
    resolve: async (organisation, args, context) => {
      const reference = organisation.reference;
      const connection = await resolveKeysetConnection(args, eventKeys, (window) =>
        context.loaders.eventsOfOrganisation.load({ reference, args: window }),
      );
      return {
        ...connection,
        totalCount: () =>
          context.loaders.eventCountOfOrganisation.load({
            reference,
            args: { timeoutMs: context.config.countTimeoutMs },
          }),
      };
    },
  }),
);

builder.objectField(ProfileRef, 'events', (t) =>
  t.connection({
    type: EventRef,
    description:
      'Events about this person (moves, and funding rounds or offerings they took part in), newest first, at most 100 a page.',
    // Nullable so that a plan without events loses this field only, not the whole record.
    nullable: true,
    authScopes: { covers: 'events' },
    resolve: async (profile, args, context) => {
      const reference = profile.reference;
      const connection = await resolveKeysetConnection(args, eventKeys, (window) =>
        context.loaders.eventsOfProfile.load({ reference, args: window }),
      );
      return {
        ...connection,
        totalCount: () =>
          context.loaders.eventCountOfProfile.load({
            reference,
            args: { timeoutMs: context.config.countTimeoutMs },
          }),
      };
    },
  }),
);

builder.objectField(ArticleRef, 'events', (t) =>
  t.field({
    type: [EventRef],
    nullable: true,
    description: 'The events this article reports, newest first; null when the plan does not cover events.',
    extensions: { listSize: 5 },
    authScopes: { covers: 'events' },
    resolve: (article, _args, context) => context.loaders.eventsByArticle.load(article.reference),
  }),
);
