import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/graphql/plugins/use-persisted-queries.ts';
import { errorRules } from '../../src/http/errors.ts';
import {
  type Instance,
  openInstance,
  tinyQuota,
  uniqueKeyPrefix,
  writeTinyPlansFile,
} from '../access/instances.ts';
import { openTestApp, type TestApp } from '../support/test-app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await openTestApp();
});
afterAll(() => app.close());

const graphqlResponse = 'application/graphql-response+json';
const json = 'application/json';

interface Case {
  name: string;
  /** The POST body, or a GET query string when `get` is set. */
  body?: Record<string, unknown> | string;
  get?: string;
  token?: string | null;
  code: string;
  /** Status under `Accept: application/graphql-response+json`, then under `Accept: application/json`. */
  status: [number, number];
  /** Whether the answer carries `data` (a field error) or not (a request error). */
  data: boolean;
}

const nested =
  'query ($first: Int) { organisations { edges { node { events(first: $first) { totalCount { value } } } } } }';
const unknownHash = 'a'.repeat(64);

/** Every mistake a client can make, with the code it is told and the status under each media type. */
const cases: Case[] = [
  {
    name: 'a document that does not parse',
    body: { query: '{ organisation(' },
    code: 'GRAPHQL_PARSE_FAILED',
    status: [400, 200],
    data: false,
  },
  {
    name: 'an unknown field',
    body: { query: '{ nope }' },
    code: 'GRAPHQL_VALIDATION_FAILED',
    status: [400, 200],
    data: false,
  },
  {
    name: 'a variable that fails coercion',
    body: {
      query: 'query ($ref: UUID!) { organisation(reference: $ref) { name } }',
      variables: { ref: 'not-a-uuid' },
    },
    code: 'BAD_USER_INPUT',
    status: [400, 200],
    data: false,
  },
  {
    name: 'a missing required variable',
    body: { query: 'query ($ref: UUID!) { organisation(reference: $ref) { name } }' },
    code: 'BAD_USER_INPUT',
    status: [400, 200],
    data: false,
  },
  // graphql-scalars' UUID lets one brace through; PostgreSQL refuses it, which was an internal error.
  {
    name: 'a UUID with a lone closing brace, written in the document',
    body: { query: '{ article(reference: "00000000-0000-0000-0000-000000000000}") { title } }' },
    code: 'GRAPHQL_VALIDATION_FAILED',
    status: [400, 200],
    data: false,
  },
  {
    name: 'a UUID with a lone closing brace, in a variable',
    body: {
      query: 'query ($ref: UUID!) { article(reference: $ref) { title } }',
      variables: { ref: '00000000-0000-0000-0000-000000000000}' },
    },
    code: 'BAD_USER_INPUT',
    status: [400, 200],
    data: false,
  },
  {
    name: 'a subscription operation',
    body: { query: 'subscription { organisations { edges { cursor } } }' },
    code: 'OPERATION_NOT_SUPPORTED',
    status: [400, 200],
    data: false,
  },
  ...['organisations', 'profiles', 'events'].flatMap((field) =>
    ['first', 'last'].map(
      (argument): Case => ({
        name: `a negative ${argument} on ${field}`,
        body: { query: `{ ${field}(${argument}: -1) { edges { cursor } } }` },
        code: 'INVALID_PARAMETER',
        status: [200, 200],
        data: true,
      }),
    ),
  ),
  {
    name: 'a negative first on organisation.events',
    body: { query: nested, variables: { first: -2 } },
    code: 'INVALID_PARAMETER',
    status: [200, 200],
    data: true,
  },
  {
    name: 'a page of more than 100',
    body: { query: '{ organisations(first: 101) { edges { cursor } } }' },
    code: 'QUERY_LIMIT_EXCEEDED',
    status: [400, 200],
    data: false,
  },
  {
    name: 'a global ID that is not one',
    body: { query: '{ node(id: "nope") { id } }' },
    code: 'INVALID_PARAMETER',
    status: [200, 200],
    data: true,
  },
  {
    name: 'a field the plan does not cover',
    body: { query: '{ events { edges { cursor } } }' },
    token: 'starter',
    code: 'FORBIDDEN',
    status: [200, 200],
    data: true,
  },
  {
    name: 'no token',
    body: { query: '{ __typename }' },
    token: null,
    code: 'UNAUTHENTICATED',
    status: [401, 401],
    data: false,
  },
  {
    name: 'an unknown token',
    body: { query: '{ __typename }' },
    token: 'orgraph_nope',
    code: 'UNAUTHENTICATED',
    status: [401, 401],
    data: false,
  },
  {
    name: 'a body that is not JSON',
    body: '{"query": ',
    code: 'BAD_REQUEST',
    status: [400, 400],
    data: false,
  },
  {
    name: 'a batch of operations',
    body: '[{"query": "{ __typename }"}, {"query": "{ __typename }"}]',
    code: 'BAD_REQUEST',
    status: [400, 400],
    data: false,
  },
  { name: 'no query at all', body: { variables: {} }, code: 'BAD_REQUEST', status: [400, 400], data: false },
  {
    name: 'a mutation over GET',
    get: `query=${encodeURIComponent('mutation { saveEventSearch(query: {}) { __typename } }')}`,
    code: 'BAD_REQUEST',
    status: [405, 405],
    data: false,
  },
  {
    name: 'a persisted-query hash the server does not know',
    body: { extensions: { persistedQuery: { version: 1, sha256Hash: unknownHash } } },
    code: 'PERSISTED_QUERY_NOT_FOUND',
    status: [400, 200],
    data: false,
  },
  {
    name: 'the same over GET',
    get: `extensions=${encodeURIComponent(JSON.stringify({ persistedQuery: { version: 1, sha256Hash: unknownHash } }))}`,
    code: 'PERSISTED_QUERY_NOT_FOUND',
    status: [400, 200],
    data: false,
  },
  {
    name: 'a persisted-query hash that is not the hash of its query',
    body: {
      query: '{ __typename }',
      extensions: { persistedQuery: { version: 1, sha256Hash: sha256Hex('{ other }') } },
    },
    code: 'PERSISTED_QUERY_HASH_MISMATCH',
    status: [400, 200],
    data: false,
  },
  {
    name: 'another persisted-query protocol version',
    body: {
      query: '{ __typename }',
      extensions: { persistedQuery: { version: 2, sha256Hash: sha256Hex('{ __typename }') } },
    },
    code: 'PERSISTED_QUERY_NOT_SUPPORTED',
    status: [400, 200],
    data: false,
  },
];

async function send(target: Pick<TestApp, 'request'>, request: Case, accept: string): Promise<Response> {
  const token = request.token === 'starter' ? app.tokens.starter : request.token;
  const init = { token, headers: { Accept: accept, 'Content-Type': 'application/json' } };
  if (request.get !== undefined) return target.request(`/graphql?${request.get}`, { ...init, method: 'GET' });
  const body = typeof request.body === 'string' ? request.body : JSON.stringify(request.body);
  return target.request('/graphql', { ...init, method: 'POST', body });
}

describe('every error a client can cause', () => {
  describe.each([
    [graphqlResponse, 0],
    [json, 1],
  ] as const)('under Accept: %s', (accept, column) => {
    it.each(cases)('$name: its code, status and media type', async (request) => {
      const response = await send(app, request, accept);
      const body = await response.json();
      expect({ status: response.status, code: body.errors?.[0]?.extensions?.code }).toEqual({
        status: request.status[column],
        code: request.code,
      });
      expect(response.headers.get('Content-Type')).toBe(`${accept}; charset=utf-8`);
      expect('data' in body).toBe(request.data);
      expect(body.errors[0].message).toEqual(expect.any(String));
      expect(body.errors[0].message.length).toBeGreaterThan(0);
    });
  });

  it('keeps GraphQL’s own words for a variable that fails coercion', async () => {
    const response = await send(app, cases[2]!, graphqlResponse);
    expect((await response.json()).errors[0].message).toBe(
      'Variable "$ref" got invalid value "not-a-uuid"; Value is not a valid UUID: not-a-uuid',
    );
  });

  it('takes a UUID in braces, as PostgreSQL does, and answers it', async () => {
    const response = await send(
      app,
      {
        ...cases[0]!,
        body: { query: '{ article(reference: "{00000000-0000-0000-0000-000000000000}") { title } }' },
      },
      graphqlResponse,
    );
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.data).toEqual({ article: null });
    expect(body.errors).toBeUndefined();
  });

  it('tells a persisted-query miss in the words Apollo’s link tests for', async () => {
    const response = await send(app, cases.find((c) => c.code === 'PERSISTED_QUERY_NOT_FOUND')!, json);
    expect((await response.json()).errors).toEqual([
      { message: 'PersistedQueryNotFound', extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' } },
    ]);
  });

  it('names every code it uses in the one error table', () => {
    for (const request of cases) expect(Object.keys(errorRules)).toContain(request.code);
  });
});

describe('a spent request budget', () => {
  let instance: Instance;
  beforeAll(() => {
    instance = openInstance(app, {
      PLANS_FILE: writeTinyPlansFile(),
      RATE_LIMIT_KEY_PREFIX: uniqueKeyPrefix(),
    });
  });
  afterAll(() => instance.close());

  it.each([graphqlResponse, json])('answers 429 with its code and Retry-After, in %s', async (accept) => {
    const token = (await import('../access/instances.ts')).createTestToken;
    const fresh = await token(app, 'enterprise');
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let attempt = 0; attempt <= tinyQuota.requests; attempt += 1) {
      last = await instance.request('/graphql', {
        method: 'POST',
        token: fresh,
        headers: { Accept: accept, 'Content-Type': 'application/json' },
        body: JSON.stringify({ query: '{ __typename }' }),
      });
      statuses.push(last.status);
    }
    expect(statuses).toEqual([...Array(tinyQuota.requests).fill(200), 429]);
    expect(last!.headers.get('Content-Type')).toBe(`${accept}; charset=utf-8`);
    expect(Number(last!.headers.get('Retry-After'))).toBeGreaterThan(0);
    expect((await last!.json()).errors[0].extensions.code).toBe('RATE_LIMITED');
  });
});
