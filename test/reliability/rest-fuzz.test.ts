import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/database.ts';
import { activityPeriods, activityTypes } from '../../src/domain/organisations/find-organisations.ts';
import { profileTypes } from '../../src/domain/profiles/find-profiles.ts';
import { annotationTypes } from '../../src/domain/vocabulary/articles.ts';
import { eventTypes } from '../../src/domain/vocabulary/events.ts';
import { organisationStatuses, scoreDimensions } from '../../src/domain/vocabulary/organisations.ts';
import { openTestApp, type TestApp } from '../support/test-app.ts';
import {
  assertProperty,
  FuzzTally,
  fuzzRuns,
  fuzzTimeoutMs,
  readEnvelope,
  writeUnlimitedPlansFile,
} from './support/fuzz.ts';
import {
  hostileNumber,
  hostileText,
  hostileUuid,
  pagingValue,
  parameterValue,
  pathSegment,
  type QueryPair,
  queryPairs,
  toQueryString,
} from './support/hostile.ts';

/** Share of FUZZ_RUNS this file tries (the GraphQL file takes the rest). */
const runs = fuzzRuns(0.7);

let app: TestApp;
const tally = new FuzzTally('REST fuzz');
const references = {
  organisations: [] as string[],
  profiles: [] as string[],
  articles: [] as string[],
  events: [] as string[],
  queryIds: [] as string[],
};

beforeAll(async () => {
  app = await openTestApp({ PLANS_FILE: writeUnlimitedPlansFile() });
  const sample = async (table: string) =>
    (
      await queryRows<{ reference: string }>(
        app.services.db,
        sql`select reference::text as reference from ${sql.identifier(table)} order by reference limit 3`,
      )
    ).map((row) => row.reference);
  references.organisations = await sample('organisations');
  references.profiles = await sample('profiles');
  references.articles = await sample('articles');
  references.events = await sample('events');
  const saved = await app.request('/v1/search/events', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      query: [{ fieldType: 'EventType', label: 'Moves', value: 'move', operator: 'EQUAL' }],
    }),
  });
  references.queryIds = [((await saved.json()) as { success: { queryId: string } }).success.queryId];
});
const timings = new Map<string, number>();
afterAll(async () => {
  console.log(tally.summary());
  if (process.env.FUZZ_TIMINGS)
    console.log(
      [...timings]
        .sort((a, b) => b[1] - a[1])
        .map(([e, ms]) => `${e}: ${ms.toFixed(0)} ms`)
        .join('\n'),
    );
  await app?.close();
});

type Method = 'GET' | 'POST';

/** One generated request and what the spec and docs/rest.md allow for it. */
interface RestCase {
  endpoint: string;
  method: Method;
  path: string;
  pairs: QueryPair[];
  /** The query parameters the endpoint knows. */
  known: string[];
  headers: Record<string, string>;
  body?: string;
  /** The statuses this request may get (401, 403 and 429 are added by the token chosen). */
  allowed: number[];
  /** Value checks on a 200 list page: the cap on `limit`, and which parameter filters by substring. */
  list?: { cap: number; substring?: { parameter: string; field: string; trimmed: boolean } };
}

const page = { page: pagingValue, limit: pagingValue };

/** A path segment where a reference belongs: a real one, an unknown UUID, or junk. */
function referenceSegment(real: string[]): fc.Arbitrary<string> {
  return fc.oneof(fc.constantFrom(...real), hostileUuid.map(pathSegment));
}

function getCase(
  endpoint: string,
  path: fc.Arbitrary<string>,
  parameters: Record<string, fc.Arbitrary<string>>,
  allowed: number[],
  list?: RestCase['list'],
): fc.Arbitrary<RestCase> {
  return fc.record({ path, pairs: queryPairs(parameters) }).map(({ path, pairs }) => ({
    endpoint,
    method: 'GET' as const,
    path,
    pairs,
    known: Object.keys(parameters),
    headers: {},
    allowed,
    list,
  }));
}

/** Chips as the spec describes them, and every way of getting them wrong. */
const chip = fc.oneof(
  fc.record(
    {
      fieldType: fc.oneof(
        fc.constantFrom(
          'Organisation',
          'Occupation',
          'MoveType',
          'EventType',
          'DealStatus',
          'DealType',
          'Person',
          'Operator',
        ),
        hostileText,
      ),
      label: hostileText,
      value: fc.oneof(fc.uuid(), fc.constantFrom('move', 'Appointment', 'completed', 'AND'), hostileText),
      operator: fc.oneof(fc.constantFrom('EQUAL', 'Equal', 'equal', 'NOT_EQUAL'), hostileText),
    },
    { requiredKeys: ['fieldType', 'label', 'value'] },
  ),
  fc.record({
    fieldType: fc.constant('Operator'),
    label: hostileText,
    value: fc.oneof(fc.constantFrom('AND', 'OR', 'or', ' And '), hostileText),
  }),
  fc.jsonValue({ maxDepth: 2 }),
);

const chipLists = fc.oneof(
  fc.array(chip, { maxLength: 9 }),
  fc.array(chip, { minLength: 95, maxLength: 110 }),
);

/** Well-formed chip lists (conditions joined by AND/OR), with hostile labels: these reach the database. */
const conditionChip = fc.oneof(
  fc.record({
    fieldType: fc.constantFrom('Organisation', 'Occupation'),
    label: hostileText,
    value: fc.oneof(
      fc.uuid(),
      fc.uuid().map((uuid) => ` ${uuid.toUpperCase()} `),
    ),
    operator: fc.constantFrom('EQUAL', 'Equal', ' equal '),
  }),
  fc.record({
    fieldType: fc.oneof(fc.constantFrom('MoveType', 'EventType', 'DealStatus', 'DealType'), hostileText),
    label: hostileText,
    value: fc.oneof(fc.constantFrom('move', 'Appointment', 'Completed', 'acquisition'), hostileText),
    operator: fc.constant('EQUAL'),
  }),
);
const joinChip = fc.record({
  fieldType: fc.constant('Operator'),
  label: hostileText,
  value: fc.constantFrom('AND', 'OR', 'or', ' And '),
});
const validChipLists = fc
  .array(fc.tuple(joinChip, conditionChip), { maxLength: 6 })
  .chain((pairs) => conditionChip.map((first) => [first, ...pairs.flat()]));

const searchBody: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: validChipLists.map((query) => JSON.stringify({ query })), weight: 8 },
  chipLists.map((query) => JSON.stringify({ query })),
  chipLists.map((query) => JSON.stringify({ query, extra: 'x' })),
  fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)),
  fc.constantFrom(
    '',
    '{',
    '{"query": [',
    'null',
    '[]',
    '{"query": null}',
    '{"query": {}}',
    '"query"',
    '\u0000',
    '{"query": [}]}',
  ),
  fc.string({ maxLength: 50 }),
  // Larger than the 64 KiB limit on this endpoint.
  fc
    .integer({ min: 65 * 1024, max: 300 * 1024 })
    .map((size) => JSON.stringify({ query: [{ fieldType: 'x'.repeat(size) }] })),
  fc.integer({ min: 1, max: 20 }).map((depth) => `${'{"query":'.repeat(depth)}[]${'}'.repeat(depth)}`),
  fc.constant(`{"query": ${'['.repeat(5000)}${']'.repeat(5000)}}`),
);

const saveSearch: fc.Arbitrary<RestCase> = fc
  .record({
    body: searchBody,
    contentType: fc.option(
      fc.constantFrom(
        'application/json',
        'application/json; charset=utf-8',
        'APPLICATION/JSON',
        'text/plain',
        'application/x-www-form-urlencoded',
        'application/jsonx',
        '',
      ),
      { freq: 8 },
    ),
    pairs: queryPairs({ query: hostileText }),
  })
  .map(
    ({ body, contentType, pairs }): RestCase => ({
      endpoint: 'POST /v1/search/events',
      method: 'POST' as const,
      path: '/v1/search/events',
      pairs,
      known: [],
      headers: contentType === null ? {} : { 'Content-Type': contentType },
      body,
      // The search takes no query parameters: any pair is refused with 422 before the body is read.
      allowed: pairs.length > 0 ? [422] : [201, 400, 413, 415],
    }),
  );

/** Paths and methods no endpoint has. */
const nowhere: fc.Arbitrary<RestCase> = fc
  .record({
    method: fc.constantFrom<Method>('GET', 'POST'),
    path: fc.oneof(
      fc.constantFrom(
        '/v1',
        '/v1/',
        '/v1/organisations/',
        '/v1//organisations',
        '/v1/events/a/b',
        '/v2/organisations',
        '/v1/search',
        '/v1/%00',
      ),
      hostileText.map((text) => `/v1/${pathSegment(text)}`),
    ),
  })
  .map(({ method, path }) => ({
    endpoint: 'unknown path',
    method,
    path,
    pairs: [],
    known: [],
    headers: {},
    // A known path asked with a method it does not serve is 405.
    allowed: method === 'POST' && path === '/v1/search/events' ? [400, 415] : [404, 405, 422],
  }));

/** Every endpoint's requests; built once the sampled references are known. */
function restCases(): fc.Arbitrary<RestCase> {
  const organisationsList = getCase(
    'GET /v1/organisations',
    fc.constant('/v1/organisations'),
    {
      name: hostileText,
      show_empty: parameterValue(['true']),
      industry: parameterValue(['45', '4510', '451020', '45102010', '10', '99']),
      country: parameterValue(['GB', 'gb', 'GBR', 'United Kingdom', 'france', 'Atlantis']),
      type: parameterValue(['fund', 'all']),
      status: parameterValue([...organisationStatuses, 'all']),
      verified: parameterValue(['true', 'false']),
      min_confidence: hostileNumber,
      has_raum: parameterValue(['true', 'false']),
      activity_type: parameterValue([
        'move',
        'funding,move',
        'public_offering, client_summary',
        ...activityTypes,
      ]),
      activity_period: parameterValue(activityPeriods),
      score_min: hostileNumber,
      score_dimension: parameterValue(scoreDimensions),
      ...page,
    },
    [200, 422],
    { cap: 100, substring: { parameter: 'name', field: 'name', trimmed: false } },
  );

  const organisationRecord = (suffix: '' | '/people' | '/ownership') =>
    getCase(
      `GET /v1/organisations/{ref}${suffix}`,
      referenceSegment(references.organisations).map((ref) => `/v1/organisations/${ref}${suffix}`),
      {},
      [200, 404, 422],
    );

  const profilesList = getCase(
    'GET /v1/profiles',
    fc.constant('/v1/profiles'),
    {
      search: hostileText,
      organisationReference: fc.oneof(fc.constantFrom(...references.organisations), hostileUuid),
      profileType: parameterValue(profileTypes),
      ...page,
    },
    [200, 422],
    { cap: 100, substring: { parameter: 'search', field: 'name', trimmed: false } },
  );

  const profileRecord = getCase(
    'GET /v1/profiles/{ref}',
    referenceSegment(references.profiles).map((ref) => `/v1/profiles/${ref}`),
    {},
    [200, 404, 422],
  );

  const profileArticles = getCase(
    'GET /v1/profiles/{ref}/articles',
    referenceSegment(references.profiles).map((ref) => `/v1/profiles/${ref}/articles`),
    {
      type: parameterValue(annotationTypes),
      role: parameterValue(['about', 'by']),
      collapse: parameterValue(['latest', 'none']),
      ...page,
    },
    [200, 404, 422],
    { cap: 100 },
  );

  const profileOwnership = getCase(
    'GET /v1/profiles/{ref}/ownership',
    referenceSegment(references.profiles).map((ref) => `/v1/profiles/${ref}/ownership`),
    {},
    // An unknown reference gives an empty array, not 404 (the spec's rule).
    [200, 422],
  );

  const article = getCase(
    'GET /v1/articles/{ref}',
    referenceSegment(references.articles).map((ref) => `/v1/articles/${ref}`),
    {},
    [200, 404, 422],
  );

  const event = getCase(
    'GET /v1/events/{ref}',
    referenceSegment(references.events).map((ref) => `/v1/events/${ref}`),
    {},
    [200, 404, 422],
  );

  const instant = parameterValue([
    '2024-05-01',
    '2024-05-01T09:30:00Z',
    '2024-02-30',
    '2024-05-01T09:30:00',
    '+275760-09-13',
    '0000-01-01',
  ]);
  const eventsList = getCase(
    'GET /v1/events',
    fc.constant('/v1/events'),
    {
      eventType: parameterValue(eventTypes),
      queryId: fc.oneof(fc.constantFrom(...references.queryIds), hostileUuid),
      organisationReference: fc.oneof(fc.constantFrom(...references.organisations), hostileUuid),
      profileReference: fc.oneof(fc.constantFrom(...references.profiles), hostileUuid),
      published_after: instant,
      published_before: instant,
      ...page,
    },
    // 404: a well-formed queryId that no saved search has.
    [200, 404, 422],
    { cap: 200 },
  );

  const suggestions = getCase(
    'GET /v1/search/suggestions',
    fc.constant('/v1/search/suggestions'),
    { query: fc.oneof(hostileText, fc.constantFrom('capital', 'Appoint', 'deal', 'move')), ...page },
    [200, 422],
    { cap: 100, substring: { parameter: 'query', field: 'label', trimmed: true } },
  );

  return fc.oneof(
    { arbitrary: organisationsList, weight: 4 },
    { arbitrary: organisationRecord(''), weight: 1 },
    { arbitrary: organisationRecord('/people'), weight: 1 },
    { arbitrary: organisationRecord('/ownership'), weight: 1 },
    { arbitrary: profilesList, weight: 3 },
    { arbitrary: profileRecord, weight: 1 },
    { arbitrary: profileArticles, weight: 2 },
    { arbitrary: profileOwnership, weight: 1 },
    { arbitrary: article, weight: 1 },
    { arbitrary: event, weight: 1 },
    { arbitrary: eventsList, weight: 3 },
    { arbitrary: suggestions, weight: 3 },
    { arbitrary: saveSearch, weight: 3 },
    { arbitrary: nowhere, weight: 1 },
  );
}

type Caller = 'enterprise' | 'starter' | 'none' | 'garbage';
/** Mostly a caller whose plan covers everything, so that the inputs reach the endpoints; now and then not. */
const caller = fc.oneof(
  { arbitrary: fc.constant<Caller>('enterprise'), weight: 12 },
  { arbitrary: fc.constantFrom<Caller>('starter', 'none', 'garbage'), weight: 3 },
);
const garbageAuthorization = fc.oneof(
  fc.constantFrom(
    'Bearer',
    'Bearer ',
    'Basic dXNlcjpwYXNz',
    'bearer orgr_',
    'Bearer orgr_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    'Token x',
  ),
  // Header values are bytes without line breaks or NUL: UTF-8 text arrives as Latin-1 characters.
  hostileText.map((text) =>
    `Bearer ${Buffer.from(text, 'utf8').toString('latin1')}`.replace(/[\r\n\0]/g, '').slice(0, 8_000),
  ),
);

function pairValue(pairs: QueryPair[], key: string): string | undefined {
  const found = pairs.filter((pair) => pair.key === key);
  return found.length === 1 ? found[0]!.value : undefined;
}

async function send(input: RestCase, who: Caller, authorization: string): Promise<void> {
  const url = `${input.path}${toQueryString(input.pairs)}`;
  const headers = new Headers(input.headers);
  if (who === 'garbage') headers.set('Authorization', authorization);
  const token = who === 'enterprise' ? app.tokens.enterprise : who === 'starter' ? app.tokens.starter : null;
  const init: RequestInit & { token: string | null } = { method: input.method, headers, token };
  if (input.body !== undefined) init.body = input.body;
  const started = performance.now();
  const response = await app.request(url, init);
  tally.record(response.status);
  timings.set(input.endpoint, (timings.get(input.endpoint) ?? 0) + performance.now() - started);
  const context = `${input.endpoint}: ${input.method} ${url.slice(0, 300)} as ${who} → ${response.status}`;
  const body = await readEnvelope(response, context);

  const allowed = new Set(input.allowed);
  // An empty path segment routes nowhere.
  if (/\/\/|\/$/.test(input.path)) allowed.add(404);
  if (who === 'none' || who === 'garbage') allowed.add(401);
  if (who === 'starter') allowed.add(403);
  expect([...allowed], context).toContain(response.status);
  if (response.status === 403) expect(who, context).toBe('starter');

  // A 422 names the parameter it refuses: one the request sent, one the endpoint requires, or the path's reference.
  if (response.status === 422) {
    const named = body.status.messages.map(
      (message) => message.match(/^Invalid (?:query|path) parameter `([^`]*)`/)?.[1],
    );
    const sent = new Set([
      ...input.pairs.map((pair) => pair.key),
      ...input.known,
      'organisationReference',
      'profileReference',
      'articleReference',
      'eventReference',
    ]);
    for (const name of named) if (name !== undefined) expect([...sent], context).toContain(name);
  }

  const cleanlyEncoded = input.pairs.every((pair) => pair.encoding === 'component');
  if (response.status === 200 && input.list && cleanlyEncoded) {
    expect(Array.isArray(body.success), context).toBe(true);
    const rows = body.success as Record<string, unknown>[];
    const meta = body.meta as { rows_per_page: number; page: number };
    const limit = Math.min(Number(pairValue(input.pairs, 'limit') ?? 20), input.list.cap);
    expect(meta.rows_per_page, context).toBe(limit);
    expect(meta.page, context).toBe(Number(pairValue(input.pairs, 'page') ?? 1));
    expect(rows.length, context).toBeLessThanOrEqual(limit);
    const substring = input.list.substring;
    const raw = substring && pairValue(input.pairs, substring.parameter);
    const needle = raw !== undefined && substring?.trimmed ? raw.trim() : raw;
    // ASCII only, so that JavaScript's case folding and the database's agree.
    if (substring && needle && /^[\x20-\x7e]+$/.test(needle)) {
      for (const row of rows) {
        expect(String(row[substring.field]).toLowerCase(), context).toContain(needle.toLowerCase());
      }
    }
  }
  if (response.status === 201) {
    const saved = body.success as { queryId: string; ignored_field_types: string[] };
    expect(saved.queryId, context).toMatch(/^[0-9a-f-]{36}$/);
    const chips = (JSON.parse(input.body!) as { query: { fieldType: string }[] }).query;
    const supported = ['Organisation', 'Occupation', 'MoveType', 'EventType', 'DealStatus', 'DealType'];
    const conditions = chips.filter((_, index) => index % 2 === 0);
    const unsupported = [
      ...new Set(conditions.map((chip) => chip.fieldType).filter((type) => !supported.includes(type))),
    ];
    expect(saved.ignored_field_types.sort(), context).toEqual(unsupported.sort());
    // Saving the same chips again gives the same search.
    const again = await app.request(url, init);
    expect(again.status, context).toBe(201);
    expect(((await again.json()) as { success: { queryId: string } }).success.queryId, context).toBe(
      saved.queryId,
    );
  }
}

describe('REST endpoints under generated hostile input', () => {
  it(
    `never answer 5xx, always the envelope and a status the spec names (${runs} inputs)`,
    async () => {
      await assertProperty(
        fc.asyncProperty(restCases(), caller, garbageAuthorization, async (input, who, authorization) => {
          await send(input, who, authorization);
        }),
        runs,
      );
      expect(tally.serverErrors).toBe(0);
    },
    fuzzTimeoutMs(runs),
  );

  it('still answers afterwards, with the same data', async () => {
    expect((await app.request('/readyz', { token: null })).status).toBe(200);
    const { status, body } = await app.getJson<{ success: { reference: string } }>(
      `/v1/organisations/${references.organisations[0]}`,
    );
    expect(status).toBe(200);
    expect(body.success.reference).toBe(references.organisations[0]);
  });
});
