import { createRoute, z } from '@hono/zod-openapi';
import { findEventsPage, getEventRecord } from '../../domain/events/event-records.ts';
import { eventTypes } from '../../domain/vocabulary/events.ts';
import { covers } from '../../http/authenticate.ts';
import { commonErrorResponses, envelope, envelopeSchema, notFoundResponse } from '../envelope.ts';
import { listResponse } from '../list-response.ts';
import { maxEventsLimit, pageMetaSchema, pagingQuery } from '../paging.ts';
import { referenceParam } from '../params.ts';
import type { RestApp } from '../router.ts';
import { eventSchema, serializeEvent } from '../serializers/events.ts';

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
    .max(64, { error: 'must be at most 64 characters long' })
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
      maxLength: 64,
      anyOf: [
        { type: 'string', format: 'date', maxLength: 10 },
        { type: 'string', format: 'date-time', maxLength: 64 },
      ],
      example: '2024-05-01',
    });

const eventReferenceParams = z.object({
  eventReference: referenceParam('eventReference', "The event's reference.", 'path'),
});

const getEventRoute = createRoute({
  method: 'get',
  path: '/v1/events/{eventReference}',
  operationId: 'getEvent',
  tags: ['Events'],
  summary: 'Get an event',
  description:
    "One event with the data of its type. A move's `data.articles` is empty when the caller's plan does not cover articles; annotation texts follow each article's licence.",
  middleware: [covers('events')] as const,
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
  queryId: referenceParam(
    'queryId',
    'A saved search (from `POST /v1/search/events`); only events matching its chips. Unknown ids give 404.',
    'query',
  ).optional(),
  organisationReference: referenceParam(
    'organisationReference',
    "Only events about this organisation: as the event's organisation, the acquirer or the acquiree.",
    'query',
  ).optional(),
  profileReference: referenceParam(
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
    'Only events published strictly before this instant (a date means midnight UTC). A window that ends at or before its start (`published_after`) holds no event: the page is empty.',
  ),
  ...pagingQuery(maxEventsLimit),
});

const listEventsRoute = createRoute({
  method: 'get',
  path: '/v1/events',
  operationId: 'listEvents',
  tags: ['Events'],
  summary: 'List events',
  description:
    'Events, newest first (publish date, then reference, descending). Every filter given must hold. `limit` is capped at 200.',
  middleware: [covers('events')] as const,
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
    const event = await getEventRecord(db, c.req.valid('param').eventReference, {
      includeArticles: viewer?.plan.covers.includes('articles') ?? false,
    });
    return c.json(envelope(c, serializeEvent(event), null), 200);
  });

  app.openapi(listEventsRoute, async (c) => {
    const { db, primaryDb, viewer, config } = c.var.ctx;
    const { page, limit, ...query } = c.req.valid('query');
    const filter = {
      eventType: query.eventType,
      queryId: query.queryId,
      organisationReference: query.organisationReference,
      profileReference: query.profileReference,
      publishedAfter: query.published_after,
      publishedBefore: query.published_before,
    };
    return listResponse(
      c,
      { page, limit },
      (window) =>
        findEventsPage(db, primaryDb, filter, window, {
          includeArticles: viewer?.plan.covers.includes('articles') ?? false,
          countTimeoutMs: config.countTimeoutMs,
        }),
      serializeEvent,
      { countLimited: true },
    );
  });
}
