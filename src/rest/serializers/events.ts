import { z } from '@hono/zod-openapi';
import type { DescribedEvent } from '../../domain/events/describe-events.ts';
import { eventTypes } from '../../domain/vocabulary/events.ts';
import { annotationSchema, serializeAnnotation } from './annotations.ts';
import {
  addressesSchema,
  serializeAddress,
  serializeClientSummary,
  serializeTicker,
  tickerSchema,
} from './organisations.ts';

const datetimeSchema = z.string().openapi({ format: 'date-time', example: '2024-05-01T09:30:00.000Z' });
const dateSchema = z.string().openapi({ format: 'date', example: '2024-05-01' });

const organisationRefSchema = z
  .object({ reference: z.uuid(), name: z.string() })
  .openapi('EventOrganisationRef', { description: 'An organisation named by an event.' });

// A whole object of its own rather than `organisationRefSchema.extend`: the extension of a named schema is
// generated as `allOf [$ref, …]`, and its `.nullable()` then lands inside the `allOf`, where null cannot pass.
const moveOrganisationSchema = z
  .object({
    ...organisationRefSchema.shape,
    listings: z
      .array(tickerSchema)
      .openapi({ description: "The organisation's tickers, the primary listing first." }),
    addresses: addressesSchema,
  })
  .openapi('MoveOrganisation');

const moveArticleSchema = z
  .object({
    reference: z.uuid(),
    title: z.string(),
    published_at: datetimeSchema,
    annotations: z.array(annotationSchema).openapi({
      description:
        "The article's statements in reading order; `text` is null unless its licence is `full_text`.",
    }),
  })
  .openapi('MoveArticle');

const moveDataSchema = z
  .object({
    move_type: z.string().nullable().openapi({ example: 'Appointment' }),
    profile: z.object({ reference: z.uuid(), first_name: z.string(), last_name: z.string() }).nullable(),
    occupation: z
      .object({ reference: z.uuid(), name: z.string() })
      .nullable()
      .openapi({ description: 'The normalised job title, or null.' }),
    organisation: moveOrganisationSchema.nullable(),
    effective_date: datetimeSchema.nullable(),
    compensations: z.array(
      z.object({
        type: z.string(),
        value: z.number(),
        value_type: z.string(),
        value_suffix: z.string().nullable(),
      }),
    ),
    articles: z.array(moveArticleSchema).openapi({
      description:
        "Source articles, newest first. Empty when the caller's plan does not cover articles: embedded records follow the coverage of their own kind.",
    }),
  })
  .openapi('MoveEventData');

const participantSchema = z.object({
  reference: z.uuid(),
  first_name: z.string(),
  last_name: z.string(),
  role: z.string().openapi({ example: 'lead investor' }),
});

const fundingDataSchema = z
  .object({
    organisation: organisationRefSchema.nullable(),
    round: z.string().nullable().openapi({ example: 'Series A' }),
    value: z.number().nullable().openapi({ description: 'The amount raised, in `currency_code`.' }),
    currency_code: z.string().nullable(),
    participants: z
      .array(participantSchema)
      .openapi({ description: 'Investors (unlisted by the interface).' }),
  })
  .openapi('FundingEventData');

const dealDataSchema = z
  .object({
    organisation: organisationRefSchema.nullable(),
    acquirer: organisationRefSchema.nullable(),
    acquiree: organisationRefSchema.nullable(),
    deal: z
      .object({
        type: z.string(),
        status: z.string(),
        value: z.number().nullable(),
        value_usd: z.number().nullable(),
        announcement_date: dateSchema.nullable(),
        completion_date: dateSchema.nullable(),
        terms: z.string().nullable(),
      })
      .nullable(),
  })
  .openapi('DealEventData');

const publicOfferingDataSchema = z
  .object({
    organisation: organisationRefSchema.nullable(),
    offering: z
      .object({
        exchange: z.string(),
        ticker: z.string(),
        price: z.number().nullable(),
        shares_offered: z.number().nullable(),
        currency_code: z.string(),
      })
      .nullable(),
    participants: z.array(participantSchema).openapi({ description: 'Bookrunners, underwriters, sellers.' }),
  })
  .openapi('PublicOfferingEventData');

const clientSummaryDataSchema = z
  .object({
    organisation: organisationRefSchema.nullable(),
    currency_code: z.string().nullable(),
    summary_type: z.string().nullable(),
    publish_date: datetimeSchema.nullable(),
    entries: z.array(
      z.object({
        client_type: z.string(),
        client_type_label: z.string(),
        number_of_clients: z.number().int().nullable(),
        fewer_than_5: z.boolean(),
        regulatory_assets_under_management: z.number().nullable(),
      }),
    ),
  })
  .openapi('ClientSummaryEventData');

const eventBase = z.object({
  reference: z.uuid(),
  summary: z.string().nullable().openapi({ description: 'A readable one-line summary.' }),
  publish_date: datetimeSchema.openapi({ description: 'When the event became public.' }),
  links: z
    .union([
      z.array(z.unknown()).max(0),
      z.record(z.string().max(64), z.object({ href: z.string().max(2000) })).openapi({ maxProperties: 20 }),
    ])
    .openapi({
      description:
        'Related links, as the interface allows: an object of named links `{ name: { href } }`, or an empty array when there are none, as on every event type today.',
    }),
});

/** One variant of the event record: the common fields, a literal `event_type` and the `data` of that type. */
const eventVariant = <const Type extends (typeof eventTypes)[number], Data extends z.ZodType>(
  type: Type,
  data: Data,
  name: string,
) =>
  eventBase
    .extend({
      event_type: z.literal(type),
      data: data,
    })
    .openapi(name, { description: `An event of type \`${type}\`; \`data\` holds its fields.` });

export const eventSchema = z
  .discriminatedUnion('event_type', [
    eventVariant('move', moveDataSchema, 'MoveEvent'),
    eventVariant('funding', fundingDataSchema, 'FundingEvent'),
    eventVariant('deal', dealDataSchema, 'DealEvent'),
    eventVariant('public_offering', publicOfferingDataSchema, 'PublicOfferingEvent'),
    eventVariant('client_summary', clientSummaryDataSchema, 'ClientSummaryEvent'),
  ])
  .openapi('Event', {
    description: `An event; \`event_type\` (one of ${eventTypes.join(', ')}) tells which fields \`data\` holds.`,
  });

export type EventWire = z.infer<typeof eventSchema>;

const refOf = (organisation: { reference: string; name: string } | null) =>
  organisation ? { reference: organisation.reference, name: organisation.name } : null;

/** The interface's event record: common fields, and the `event_type` and `data` that vary together. */
export function serializeEvent(described: DescribedEvent): EventWire {
  const { event } = described;
  const common = {
    reference: event.reference,
    summary: event.summary,
    publish_date: event.publishDate.toISOString(),
    links: [],
  };
  const details = event.details;
  const participants = described.participants.map(({ profile, role }) => ({
    reference: profile.reference,
    first_name: profile.firstName,
    last_name: profile.lastName,
    role,
  }));
  switch (event.type) {
    case 'move': {
      const { organisation, profile, occupation } = described;
      return {
        ...common,
        event_type: 'move',
        data: {
          move_type: event.moveType,
          profile: profile
            ? { reference: profile.reference, first_name: profile.firstName, last_name: profile.lastName }
            : null,
          occupation: occupation ? { reference: occupation.reference, name: occupation.name } : null,
          organisation: organisation
            ? {
                reference: organisation.reference,
                name: organisation.name,
                listings: described.listings.map(serializeTicker),
                addresses: {
                  company: serializeAddress(described.addresses.company),
                  mailing: serializeAddress(described.addresses.mailing),
                },
              }
            : null,
          effective_date: event.effectiveDate?.toISOString() ?? null,
          compensations: (details.compensations ?? []).map((compensation) => ({
            type: compensation.type,
            value: compensation.value,
            value_type: compensation.value_type,
            value_suffix: compensation.value_suffix,
          })),
          articles: described.articles.map(({ article, annotations }) => ({
            reference: article.reference,
            title: article.title,
            published_at: article.publishedAt.toISOString(),
            annotations: annotations.map((annotation) => serializeAnnotation(annotation, article.licence)),
          })),
        },
      };
    }
    case 'funding':
      return {
        ...common,
        event_type: 'funding',
        data: {
          organisation: refOf(described.organisation),
          round: details.round ?? null,
          value: details.value ?? null,
          currency_code: details.currency_code ?? null,
          participants,
        },
      };
    case 'deal':
      return {
        ...common,
        event_type: 'deal',
        data: {
          organisation: refOf(described.organisation),
          acquirer: refOf(described.acquirer),
          acquiree: refOf(described.acquiree),
          deal: details.deal ? { ...details.deal } : null,
        },
      };
    case 'public_offering':
      return {
        ...common,
        event_type: 'public_offering',
        data: {
          organisation: refOf(described.organisation),
          offering: details.offering ? { ...details.offering } : null,
          participants,
        },
      };
    case 'client_summary': {
      const summary = described.clientSummary ? serializeClientSummary(described.clientSummary) : null;
      return {
        ...common,
        event_type: 'client_summary',
        data: {
          organisation: refOf(described.organisation),
          currency_code: summary?.currency_code ?? null,
          summary_type: summary?.summary_type ?? null,
          publish_date: summary?.publish_date ?? null,
          entries: summary?.entries ?? [],
        },
      };
    }
  }
}
