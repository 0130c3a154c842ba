/**
 * The finishing pass over the OpenAPI document the routes generate: what a route's zod schema cannot say on
 * its own. Response headers, the server, tags, contact and licence, OpenAPI links between operations, nullable
 * references written as `anyOf [$ref, null]`, and the default bounds every string, array and integer of a
 * response gets when its schema states none (request parameters state their own bounds).
 */

import { chipSchemaRules } from './serializers/searches.ts';

// biome-ignore lint/suspicious/noExplicitAny: the document is walked as plain JSON.
type Json = any;

/** Strings of a response without a stated bound: text fields are far shorter; imports refuse longer values. */
export const defaultMaxStringLength = 1_048_576;
/** Arrays of a response without a stated bound (lists that are not paginated: people, stakes, statements). */
export const defaultMaxItems = 100_000;
const int32Max = 2_147_483_647;

const tags = [
  {
    name: 'Organisations',
    description: 'Companies and funds: the list with its filters, one record, its people.',
  },
  {
    name: 'Ownership',
    description: 'Who owns an organisation, what it owns, and the stakes a person holds.',
  },
  { name: 'Profiles', description: 'People: the list, one profile with its history, and their articles.' },
  { name: 'Articles', description: 'News articles with their statements, events and organisations.' },
  { name: 'Events', description: 'Moves, funding rounds, deals, public offerings and client summaries.' },
  { name: 'Searches', description: 'Saved event searches (chips) and suggestions of filter values.' },
  {
    name: 'Resolve',
    description: 'A list of organisations or people matched to records, each row scored and explained.',
  },
  {
    name: 'Webhooks',
    description:
      'Signed deliveries of the new matches of a saved search to a URL of the caller (Standard Webhooks).',
  },
];

const headerComponents: Record<string, Json> = {
  'X-Correlation-ID': {
    description: 'The request identifier: the one the client sent when it was sane, else a new UUID.',
    required: true,
    schema: { type: 'string', maxLength: 128, pattern: '^[A-Za-z0-9._:@/+=-]{1,128}$' },
  },
  RateLimit: {
    description:
      'The remaining budget of the caller\'s plan (`"<plan>";r=<remaining>;t=<seconds to reset>`); sent once the token is known.',
    schema: { type: 'string', maxLength: 256, example: '"starter";r=599;t=42' },
  },
  'RateLimit-Policy': {
    description:
      'The quota of the caller\'s plan (`"<plan>";q=<requests>;w=<window seconds>`); sent with `RateLimit`.',
    schema: { type: 'string', maxLength: 256, example: '"starter";q=600;w=60' },
  },
  'Retry-After': {
    description: 'Seconds to wait before retrying.',
    required: true,
    schema: { type: 'integer', format: 'int32', minimum: 0, maximum: 86_400, example: 5 },
  },
  'WWW-Authenticate': {
    description: 'The authentication scheme to use: a bearer token.',
    required: true,
    schema: { type: 'string', const: 'Bearer realm="orgraph"' },
  },
};

const ref = (name: string) => ({ $ref: `#/components/headers/${name}` });

function headersFor(status: string): Record<string, Json> {
  const headers: Record<string, Json> = { 'X-Correlation-ID': ref('X-Correlation-ID') };
  if (/^[24]/.test(status)) {
    headers.RateLimit = ref('RateLimit');
    headers['RateLimit-Policy'] = ref('RateLimit-Policy');
  }
  if (status === '429' || status === '503') headers['Retry-After'] = ref('Retry-After');
  if (status === '401') headers['WWW-Authenticate'] = ref('WWW-Authenticate');
  return headers;
}

const body = (pointer: string) => `$response.body#${pointer}`;

/** Where one response feeds another operation, by operationId and status. */
const operationLinks: Record<string, Record<string, Record<string, Json>>> = {
  saveEventSearch: {
    '201': {
      listEvents: {
        operationId: 'listEvents',
        parameters: { queryId: body('/success/queryId') },
        description: 'The events the saved search matches.',
      },
    },
  },
  listOrganisations: {
    '200': {
      getOrganisation: {
        operationId: 'getOrganisation',
        parameters: { organisationReference: body('/success/0/reference') },
        description: "A row's record (the first row here; any row's `reference` works the same).",
      },
    },
  },
  getOrganisation: {
    '200': {
      listOrganisationPeople: {
        operationId: 'listOrganisationPeople',
        parameters: { organisationReference: '$request.path.organisationReference' },
        description: "The organisation's people.",
      },
      getOrganisationOwnership: {
        operationId: 'getOrganisationOwnership',
        parameters: { organisationReference: '$request.path.organisationReference' },
        description: "The organisation's ownership.",
      },
    },
  },
  listProfiles: {
    '200': {
      getProfile: {
        operationId: 'getProfile',
        parameters: { profileReference: body('/success/0/reference') },
        description: "A row's record (the first row here; any row's `reference` works the same).",
      },
    },
  },
  getProfile: {
    '200': {
      listProfileArticles: {
        operationId: 'listProfileArticles',
        parameters: { profileReference: '$request.path.profileReference' },
        description: "The person's articles.",
      },
      listProfileOwnership: {
        operationId: 'listProfileOwnership',
        parameters: { profileReference: '$request.path.profileReference' },
        description: "The person's stakes.",
      },
    },
  },
  listEvents: {
    '200': {
      getEvent: {
        operationId: 'getEvent',
        parameters: { eventReference: body('/success/0/reference') },
        description: "A row's record (the first row here; any row's `reference` works the same).",
      },
    },
  },
  listProfileArticles: {
    '200': {
      getArticle: {
        operationId: 'getArticle',
        parameters: { articleReference: body('/success/0/reference') },
        description: "An item's article (the first item here; any item's `reference` works the same).",
      },
    },
  },
};

const isNullSchema = (schema: Json) =>
  schema &&
  typeof schema === 'object' &&
  (schema.type === 'null' ||
    (Array.isArray(schema.type) && schema.type.includes('null') && Object.keys(schema).length === 1));

/** `allOf [$ref, {type: [object, null]}]` allows no null under JSON Schema; the nullable reference is `anyOf [$ref, null]`. */
function nullableReferences(schema: Json): void {
  if (
    Array.isArray(schema.allOf) &&
    schema.allOf.length === 2 &&
    schema.allOf[0].$ref &&
    isNullSchema(schema.allOf[1])
  ) {
    const [reference] = schema.allOf;
    delete schema.allOf;
    schema.anyOf = [reference, { type: 'null' }];
  }
}

/** The bounds a response schema states when its own schema states none. */
function defaultBounds(schema: Json): void {
  const types: string[] = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (
    types.includes('string') &&
    schema.maxLength === undefined &&
    schema.enum === undefined &&
    schema.const === undefined
  ) {
    schema.maxLength =
      schema.format === 'uuid'
        ? 36
        : schema.format === 'date'
          ? 10
          : schema.format === 'date-time'
            ? 30
            : defaultMaxStringLength;
  }
  if (types.includes('array') && schema.maxItems === undefined) schema.maxItems = defaultMaxItems;
  if (types.includes('integer')) {
    schema.format ??= 'int32';
    if (schema.minimum === undefined && schema.exclusiveMinimum === undefined) schema.minimum = 0;
    if (schema.maximum === undefined && schema.exclusiveMaximum === undefined) schema.maximum = int32Max;
  }
}

function walk(node: Json, visit: (schema: Json) => void): void {
  if (Array.isArray(node)) {
    for (const item of node) walk(item, visit);
    return;
  }
  if (!node || typeof node !== 'object') return;
  visit(node);
  for (const value of Object.values(node)) walk(value, visit);
}

/** The chips' rules that zod's metadata cannot hold: a conditional, and `false` schemas. */
function chipRules(schemas: Record<string, Json>): void {
  const { ConditionChip, JoinChip, SaveEventSearchBody } = schemas;
  if (ConditionChip) Object.assign(ConditionChip, chipSchemaRules.ConditionChip);
  if (JoinChip) Object.assign(JoinChip.properties, chipSchemaRules.JoinChip.properties);
  const query = SaveEventSearchBody?.properties?.query;
  if (query) Object.assign(query, chipSchemaRules.query);
}

/** Finishes the generated document in place and returns it. */
export function finishOpenApiDocument(document: Json): Json {
  document.tags = tags;
  document.components ??= {};
  document.components.headers = headerComponents;
  // Components that are parameters' schemas (the capped `limit`) state their own bounds, as parameters do.
  const parameterSchemas = new Set<string>();
  for (const item of Object.values(document.paths ?? {}) as Json[])
    for (const operation of Object.values(item) as Json[])
      for (const parameter of operation.parameters ?? [])
        if (parameter.schema?.$ref) parameterSchemas.add(parameter.schema.$ref.split('/').pop());
  for (const [name, schema] of Object.entries(document.components.schemas ?? {}))
    if (!parameterSchemas.has(name))
      walk(schema, (node) => {
        nullableReferences(node);
        defaultBounds(node);
      });
  chipRules(document.components.schemas ?? {});
  for (const item of Object.values(document.paths ?? {}) as Json[]) {
    for (const operation of Object.values(item) as Json[]) {
      for (const parameter of operation.parameters ?? []) walk(parameter.schema, nullableReferences);
      for (const [status, response] of Object.entries(operation.responses ?? {}) as [string, Json][]) {
        response.headers = { ...headersFor(status), ...response.headers };
        walk(response.content, (node) => {
          nullableReferences(node);
          defaultBounds(node);
        });
        const links = operationLinks[operation.operationId]?.[status];
        if (links) response.links = links;
      }
    }
  }
  return document;
}
