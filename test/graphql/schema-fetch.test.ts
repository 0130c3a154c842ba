import { getIntrospectionQuery } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphiqlHeaders } from '../../src/graphql/graphiql-example.ts';
import { schemaFetchLimits } from '../../src/graphql/schema-fetch.ts';
import { openTestApp, type TestApp } from '../support/test-app.ts';

// The schema without a token, through the whole app: what GraphiQL's first fetch and a code generator send.
let app: TestApp;
beforeAll(async () => {
  // One proxy in front, so that each test names its client address in X-Forwarded-For.
  app = await openTestApp({ TRUST_PROXY: '1' });
});
afterAll(() => app.close());

const introspection = getIntrospectionQuery({ descriptions: true, inputValueDeprecation: true });
let addresses = 0;
/** A client address of its own, so that one test's fetches do not count against another's. */
const freshAddress = () => `192.0.2.${++addresses}`;

async function post(
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
  address = freshAddress(),
): Promise<{
  status: number;
  headers: Headers;
  body: Record<string, unknown> & { errors?: { extensions?: { code?: string } }[] };
}> {
  const response = await app.request('/graphql', {
    method: 'POST',
    token: null,
    headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': address, ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, body: await response.json() };
}

describe('the schema without a token', () => {
  it('is answered to the introspection query, as with a token', async () => {
    const without = await post({ query: introspection, operationName: 'IntrospectionQuery' });
    expect(without.status).toBe(200);
    const withToken = await app.graphql(introspection);
    expect(withToken.status).toBe(200);
    expect(without.body.data).toEqual(withToken.body.data);
    expect(without.body.errors).toBeUndefined();
    const types = (without.body.data as { __schema: { types: { name: string }[] } }).__schema.types;
    expect(types.map((type) => type.name)).toEqual(expect.arrayContaining(['Query', 'Organisation']));
  });

  it("is answered with GraphiQL's placeholder header, which is not a token", async () => {
    const { Authorization } = JSON.parse(graphiqlHeaders) as { Authorization: string };
    const answer = await post({ query: '{ __schema { queryType { name } } }' }, { Authorization });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ data: { __schema: { queryType: { name: 'Query' } } } });
  });

  it('is answered in the media type asked for', async () => {
    const answer = await post(
      { query: '{ __type(name: "Organisation") { name } }' },
      { Accept: 'application/graphql-response+json' },
    );
    expect(answer.headers.get('Content-Type')).toBe('application/graphql-response+json; charset=utf-8');
    expect(answer.body).toEqual({ data: { __type: { name: 'Organisation' } } });
  });

  it('does not open the data: a query is still UNAUTHENTICATED', async () => {
    const answer = await post({ query: '{ organisations(first: 1) { edges { node { name } } } }' });
    expect(answer.status).toBe(401);
    expect(answer.headers.get('WWW-Authenticate')).toBe('Bearer realm="orgraph"');
    expect(answer.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    expect(answer.body.data).toBeUndefined();
  });

  it('refuses introspection mixed with data fields, in the document or in a fragment', async () => {
    for (const query of [
      '{ __schema { queryType { name } } organisations(first: 1) { edges { node { name } } } }',
      'query { __type(name: "Query") { name } ...Data } fragment Data on Query { organisations(first: 1) { totalCount { value } } }',
    ]) {
      const answer = await post({ query });
      expect(answer.status).toBe(401);
      expect(answer.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
      expect(answer.body.data).toBeUndefined();
    }
  });

  it('leaves a token that could be real to the token check, whatever the document', async () => {
    const answer = await post(
      { query: '{ __schema { queryType { name } } }' },
      { Authorization: `Bearer orgr_${'a'.repeat(43)}` },
    );
    expect(answer.status).toBe(401);
    expect(answer.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });

  it('refuses a body larger than a schema fetch needs, as any request without a token', async () => {
    const answer = await post({
      query: `{ __schema { queryType { name } } }${' '.repeat(schemaFetchLimits.bodyBytes)}`,
    });
    expect(answer.status).toBe(401);
  });

  it('answers an invalid introspection document with its validation error', async () => {
    const answer = await post(
      { query: '{ __schema { nope } }' },
      { Accept: 'application/graphql-response+json' },
    );
    expect(answer.status).toBe(400);
    expect(answer.body.errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });

  it('is rate limited per client address, with Retry-After', async () => {
    const address = freshAddress();
    const { points, windowSeconds } = schemaFetchLimits.perAddress;
    const query = { query: '{ __schema { queryType { name } } }' };
    for (let fetch = 0; fetch < points; fetch += 1) expect((await post(query, {}, address)).status).toBe(200);
    const refused = await post(query, {}, address);
    expect(refused.status).toBe(429);
    expect(refused.body.errors?.[0]?.extensions?.code).toBe('RATE_LIMITED');
    expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(0);
    expect(Number(refused.headers.get('Retry-After'))).toBeLessThanOrEqual(windowSeconds);
    // Another address, and the same one with a token, are not held back.
    expect((await post(query)).status).toBe(200);
    const withToken = await app.request('/graphql', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': address },
      body: JSON.stringify(query),
    });
    expect(withToken.status).toBe(200);
  });
});
