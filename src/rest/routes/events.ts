import { createRoute, z } from '@hono/zod-openapi';
import { describeEvents } from '../../domain/events/describe-events.ts';
import { countEvents, findEvents, prepareEventFilter } from '../../domain/events/find-events.ts';
import { getEvent } from '../../domain/events/get-event.ts';
import { eventTypes } from '../../domain/vocabulary/events.ts';
import { covers } from '../../http/authenticate.ts';
import { commonErrorResponses, envelope, envelopeSchema, notFoundResponse } from '../envelope.ts';
import { maxEventsLimit, pageMeta, pageMetaSchema, pageWindow, pagingQuery, splitPage } from '../paging.ts';
import type { RestApp } from '../router.ts';
import { eventSchema, serializeEvent } from '../serializers/events.ts';

const uuidParam = (name: string, description: string, location: 'path' | 'query') =>
  z.uuid({ error: 'must be a UUID' }).openapi({ param: { name, in: location }, description });

const isoDatetime = z.iso.datetime({ offset: true });

/** A date (midnight UTC) or a date-time with a time zone; null when `text` is neither. */
export function parseInstant(text: string): Date | null {
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) {
    const date = new Date(`${text}T00:00:00.000Z`);
    return Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== text ? null : date;
  }
  if (!isoDatetime.safeParse(text).success) return null;
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? null : date;
}

const instantParam = (name: string, description: string) =>
  z
    .string()
    .transform((text, context) => {
      const instant = parseInstant(text);
      if (instant) return instant;
      context.addIssue({
        code: 'custom',
        message:
          'must be an ISO 8601 date (2024-05-01) or a date-time with a time zone (2024-05-01T09:30:00Z)',
      });
      return z.NEVER;
    })
    .optional()
    .openapi({
      param: { name, in: 'query' },
      description,
      type: 'string',
      example: '2024-05-01',
    });

const eventReferenceParams = z.object({
  eventReference: uuidParam('eventReference', "The event's reference.", 'path'),
});

const getEventRoute = createRoute({
  method: 'get',
  path: '/v1/events/{eventReference}',
  tags: ['Events'],
  summary: 'Get an event',
  description:
    "One event with the data of its type. A move's `data.articles` is empty when the caller's plan does not cover articles; annotation texts follow each article's licence.",
  middleware: [covers('events')] as const,
  security: [{ bearerAuth: [] }],
  request: { params: eventReferenceParams },
  responses: {
    200: {
      description: 'The event.',
      content: { 'application/json': { schema: envelopeSchema(eventSchema, z.null()) } },
    },
    ...notFoundResponse,
    ...commonErrorResponses,
  },
});

const listEventsQuery = z.object({
  eventType: z
    .enum(eventTypes, { error: `must be one of ${eventTypes.join(', ')}` })
    .optional()
    .openapi({ param: { name: 'eventType', in: 'query' }, description: 'Only events of this type.' }),
  queryId: uuidParam(
    'queryId',
    'A saved search (from `POST /v1/search/events`); only events matching its chips. Unknown ids give 404.',
    'query',
  ).optional(),
  organisationReference: uuidParam(
    'organisationReference',
    "Only events about this organisation: as the event's organisation, the acquirer or the acquiree.",
    'query',
  ).optional(),
  profileReference: uuidParam(
    'profileReference',
    'Only events about this person: the subject of a move or a participant of a funding round or offering.',
    'query',
  ).optional(),
  published_after: instantParam(
    'published_after',
    'Only events published at or after this instant (a date means midnight UTC).',
  ),
  published_before: instantParam(
    'published_before',
    'Only events published strictly before this instant (a date means midnight UTC). Must not be earlier than `published_after`.',
  ),
  ...pagingQuery(maxEventsLimit),
});

const listEventsRoute = createRoute({
  method: 'get',
  path: '/v1/events',
  tags: ['Events'],
  summary: 'List events',
  description:
    'Events, newest first (publish date, then reference, descending). Every filter given must hold. `limit` is capped at 200.',
  middleware: [covers('events')] as const,
  security: [{ bearerAuth: [] }],
  request: { query: listEventsQuery },
  responses: {
    200: {
      description: 'A page of events.',
      content: { 'application/json': { schema: envelopeSchema(z.array(eventSchema), pageMetaSchema) } },
    },
    404: {
      description: 'No saved search has the `queryId`.',
      content: { 'application/json': { schema: envelopeSchema(z.null(), z.null()) } },
    },
    ...commonErrorResponses,
  },
});

export function registerEventRoutes(app: RestApp): void {
  app.openapi(getEventRoute, async (c) => {
    const { db, viewer } = c.var.ctx;
    const event = await getEvent(db, c.req.valid('param').eventReference);
    const [described] = await describeEvents(db, [event], {
      includeArticles: viewer?.plan.covers.includes('articles') ?? false,
    });
    return c.json(envelope(c, serializeEvent(described!), null), 200);
  });

  app.openapi(listEventsRoute, async (c) => {
    const { db, primaryDb, viewer, config } = c.var.ctx;
    const query = c.req.valid('query');
    // Saved searches are read from the primary, so one saved a moment ago is found even behind a replica.
    const filter = await prepareEventFilter(primaryDb, {
      eventType: query.eventType,
      queryId: query.queryId,
      organisationReference: query.organisationReference,
      profileReference: query.profileReference,
      publishedAfter: query.published_after,
      publishedBefore: query.published_before,
    });
    const { page, limit } = query;
    const [rows, total] = await Promise.all([
      findEvents(db, filter, pageWindow(page, limit)),
      countEvents(db, filter, config.countTimeoutMs),
    ]);
    const { rows: events, hasNext } = splitPage(rows, limit);
    const described = await describeEvents(db, events, {
      includeArticles: viewer?.plan.covers.includes('articles') ?? false,
    });
    return c.json(
      envelope(c, described.map(serializeEvent), pageMeta(c, { total, page, limit, hasNext })),
      200,
    );
  });
}
