import { createRoute, z } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { invalidChipsMessage } from '../../domain/searches/chips.ts';
import { saveEventSearch } from '../../domain/searches/save-search.ts';
import { findSuggestionsPage, maxSuggestionQueryLength } from '../../domain/suggestions/find-suggestions.ts';
import type { AppEnv } from '../../http/app-env.ts';
import { covers } from '../../http/authenticate.ts';
import { answerForCode } from '../../http/errors.ts';
import { limitBodySize } from '../../http/limits/limit-body-size.ts';
import { commonErrorResponses, envelope, envelopeSchema, errorContent } from '../envelope.ts';
import { errorResponse } from '../errors.ts';
import { listResponse } from '../list-response.ts';
import { maxLimit, pageMetaSchema, pagingQuery } from '../paging.ts';
import type { RestApp } from '../router.ts';
import {
  chipSchemaRules,
  conditionChipSchema,
  joinChipSchema,
  savedSearchSchema,
  serializeSavedSearch,
  serializeSuggestion,
  suggestionSchema,
} from '../serializers/searches.ts';

/** Far above any real search (100 chips of long labels), far below what could strain the server. */
export const maxSearchBodyBytes = 64 * 1024;

/** The spec requires `Content-Type: application/json` on the POST; anything else is refused before the body is read. */
const requireJsonContentType: MiddlewareHandler<AppEnv> = async (c, next) => {
  const mediaType = (c.req.header('Content-Type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (mediaType !== 'application/json') {
    return errorResponse(c, answerForCode('UNSUPPORTED_MEDIA_TYPE'), [
      `Send the search as JSON with the header Content-Type: application/json (got ${mediaType ? `\`${mediaType}\`` : 'none'}).`,
    ]);
  }
  await next();
};

/** Malformed JSON gets the same envelope as every other error, with a sentence instead of a parser message. */
const requireParsableJson: MiddlewareHandler<AppEnv> = async (c, next) => {
  try {
    JSON.parse(await c.req.text());
  } catch {
    return errorResponse(c, answerForCode('BAD_REQUEST'), [
      'The request body is not valid JSON; send `{ "query": [ ...chips ] }`.',
    ]);
  }
  await next();
};

const maxChipList = chipSchemaRules.query.prefixItems.length;

const saveSearchBody = z
  .object({
    query: z.array(z.unknown()).openapi({
      type: 'array',
      description: `The chips in order: a condition chip, then join and condition chips in turn, so an odd count, at most ${maxChipList}. An empty list or any malformed chip gives 400 \`${invalidChipsMessage}\`.`,
      // Each position's kind and the odd lengths are added by the finishing pass (chipSchemaRules).
      minItems: 1,
      maxItems: maxChipList,
    }),
  })
  .openapi('SaveEventSearchBody');

const saveSearchRoute = createRoute({
  method: 'post',
  path: '/v1/search/events',
  operationId: 'saveEventSearch',
  tags: ['Searches'],
  summary: 'Save an event search',
  description:
    'Stores chips as a reusable filter for `GET /v1/events?queryId=`. Identical chips (labels included) give the same `queryId`. ' +
    'Operators and join values are compared in any case and stored upper case. Chips of field types the search does not support are accepted, match every event, and are listed in `ignored_field_types`.',
  middleware: [
    covers('searches'),
    requireJsonContentType,
    limitBodySize(maxSearchBodyBytes),
    requireParsableJson,
  ] as const,
  request: {
    body: { required: true, content: { 'application/json': { schema: saveSearchBody } } },
  },
  responses: {
    201: {
      description: 'The saved search (also when identical chips were saved before).',
      content: { 'application/json': { schema: envelopeSchema(savedSearchSchema, z.null()) } },
    },
    400: errorContent(
      `Malformed JSON, a body without a \`query\` array, or invalid chips (message \`${invalidChipsMessage}\`).`,
    ),
    413: errorContent(`The body is larger than ${maxSearchBodyBytes / 1024} KiB.`),
    415: errorContent('The Content-Type is not application/json.'),
    ...commonErrorResponses,
  },
});

const suggestionsQuery = z.object({
  query: z
    .string({ error: 'is required' })
    .trim()
    .min(1, 'must not be empty')
    .max(maxSuggestionQueryLength, `must be at most ${maxSuggestionQueryLength} characters long`)
    .openapi({
      param: { name: 'query', in: 'query' },
      description:
        'A name or phrase, 1 to 200 characters after trimming (so not only spaces); matches a substring, in any case; no NUL.',
      pattern: '^[^\\x00]*[^\\s\\x00][^\\x00]*$',
      example: 'capital',
    }),
  ...pagingQuery(maxLimit),
});

const suggestionsRoute = createRoute({
  method: 'get',
  path: '/v1/search/suggestions',
  operationId: 'listSuggestions',
  tags: ['Searches'],
  summary: 'List suggestions',
  description:
    'Filter values whose label contains `query`: organisations and occupations (value = reference), move types, event types, deal statuses and deal types (value = the exact value). People are never suggested. ' +
    'Best matches first: an exact match, then a prefix, then any substring; then by label, field type (in the order above) and value.',
  middleware: [covers('suggestions')] as const,
  request: { query: suggestionsQuery },
  responses: {
    200: {
      description: 'A page of suggestions.',
      content: { 'application/json': { schema: envelopeSchema(z.array(suggestionSchema), pageMetaSchema) } },
    },
    ...commonErrorResponses,
  },
});

export function registerSearchRoutes(app: RestApp): void {
  app.openAPIRegistry.register('ConditionChip', conditionChipSchema);
  app.openAPIRegistry.register('JoinChip', joinChipSchema);

  app.openapi(saveSearchRoute, async (c) => {
    const search = await saveEventSearch(c.var.ctx.primaryDb, c.req.valid('json').query);
    return c.json(envelope(c, serializeSavedSearch(search), null, 201), 201);
  });

  app.openapi(suggestionsRoute, async (c) => {
    const { db, config } = c.var.ctx;
    const { query, ...paging } = c.req.valid('query');
    return listResponse(
      c,
      paging,
      (window) => findSuggestionsPage(db, query, window, config.countTimeoutMs),
      serializeSuggestion,
      { countLimited: true },
    );
  });
}
