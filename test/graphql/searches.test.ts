import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Envelope, openTestApp, type TestApp } from '../support/test-app.ts';

// biome-ignore lint/suspicious/noExplicitAny: the tests compare wire values read by path.
type Json = any;

let app: TestApp;
beforeAll(async () => {
  app = await openTestApp();
});
afterAll(() => app.close());

async function gql(query: string, variables?: Record<string, unknown>, token?: string) {
  const { body } = await app.graphql<Json>(query, variables, token);
  return body;
}

async function data(query: string, variables?: Record<string, unknown>, token?: string): Promise<Json> {
  const body = await gql(query, variables, token);
  expect(body.errors).toBeUndefined();
  return body.data;
}

async function restSave(query: unknown[]) {
  const response = await app.request('/v1/search/events', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ query }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as Envelope<{ queryId: string; ignored_field_types: string[] }, null>)
    .success;
}

const saveMutation = `mutation($query: [ChipInput!]!) {
  saveEventSearch(query: $query) {
    __typename
    ... on SavedSearch { id queryId ignoredFieldTypes query { fieldType label value operator } }
    ... on InvalidChipsError { message }
  }
}`;

const run = randomUUID();
const condition = (fieldType: string, value: string, operator = 'EQUAL') => ({
  fieldType,
  label: `${fieldType} ${run}`,
  value,
  operator,
});
const join = (value: string) => ({ fieldType: 'Operator', label: value, value });

describe('saveEventSearch', () => {
  it('saves chips with the same queryId as REST, whichever transport saves first', async () => {
    const chips = [condition('EventType', 'deal'), join('AND'), condition('DealStatus', 'Completed')];
    const viaRest = await restSave(chips);
    const { saveEventSearch } = await data(saveMutation, { query: chips });
    expect(saveEventSearch.__typename).toBe('SavedSearch');
    expect(saveEventSearch.queryId).toBe(viaRest.queryId);

    const other = [condition('MoveType', 'Promotion', 'equal'), join('or'), condition('Person', 'Jane')];
    const viaGraph = (await data(saveMutation, { query: other })).saveEventSearch;
    expect((await restSave(other)).queryId).toBe(viaGraph.queryId);
    expect(viaGraph.ignoredFieldTypes).toEqual(['Person']);
    expect(viaGraph.query).toEqual([
      { ...other[0], operator: 'EQUAL' },
      { fieldType: 'Operator', label: 'or', value: 'OR', operator: null },
      other[2],
    ]);
  });

  it.each([
    ['an empty list', []],
    ['a join first', [join('AND'), condition('EventType', 'deal')]],
    ['two conditions in a row', [condition('EventType', 'deal'), condition('EventType', 'move')]],
    ['a condition without operator', [{ fieldType: 'EventType', label: 'Deal', value: 'deal' }]],
    ['an Organisation value that is not a UUID', [condition('Organisation', 'Acme Ltd')]],
    ['an unknown operator', [condition('EventType', 'deal', 'LIKE')]],
    [
      'a join other than AND/OR',
      [condition('EventType', 'deal'), join('XOR'), condition('EventType', 'move')],
    ],
  ])('answers an InvalidChipsError for %s', async (_case, query) => {
    const { saveEventSearch } = await data(saveMutation, { query });
    expect(saveEventSearch).toEqual({
      __typename: 'InvalidChipsError',
      message: 'Invalid chip data detected.',
    });
  });

  it('refuses a plan that does not cover searches', async () => {
    const body = await gql(saveMutation, { query: [condition('EventType', 'deal')] }, app.tokens.starter);
    expect(body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });
});

describe('savedSearch and events(queryId:)', () => {
  it('reads a saved search back by queryId and by global id', async () => {
    const chips = [condition('EventType', 'funding'), join('OR'), condition('Industry', '40')];
    const { __typename, ...saved } = (await data(saveMutation, { query: chips })).saveEventSearch;
    expect(__typename).toBe('SavedSearch');
    const fields = 'id queryId ignoredFieldTypes query { fieldType label value operator }';
    const { savedSearch } = await data(`query($q: UUID!) { savedSearch(queryId: $q) { ${fields} } }`, {
      q: saved.queryId,
    });
    expect(savedSearch).toEqual(saved);
    expect(Buffer.from(saved.id, 'base64').toString()).toBe(`SavedSearch:${saved.queryId}`);
    const { node } = await data(`query($id: ID!) { node(id: $id) { ... on SavedSearch { ${fields} } } }`, {
      id: saved.id,
    });
    expect(node).toEqual(saved);
    const missing = await data(
      '{ savedSearch(queryId: "4f1c2b1e-0000-4000-8000-000000000003") { queryId } }',
    );
    expect(missing.savedSearch).toBeNull();
  });

  it('lists the events of a saved search as REST does, with the same total', async () => {
    const chips = [condition('DealType', 'merger'), join('OR'), condition('MoveType', 'Retirement')];
    const { queryId } = await restSave(chips);
    const { body } = await app.getJson<Envelope<{ reference: string }[], { total: number }>>(
      `/v1/events?queryId=${queryId}&limit=100`,
    );
    const { events } = await data(
      'query($q: UUID!) { events(queryId: $q, first: 100) { totalCount { value } edges { node { reference } } } }',
      { q: queryId },
    );
    expect(body.success.length).toBeGreaterThan(0);
    expect(events.edges.map((edge: Json) => edge.node.reference)).toEqual(
      body.success.map((e) => e.reference),
    );
    expect(events.totalCount.value).toBe(body.meta.total);
  });
});

describe('suggestions', () => {
  const query = `query($q: String!, $first: Int, $after: String) {
    suggestions(query: $q, first: $first, after: $after) {
      totalCount { value }
      pageInfo { hasNextPage endCursor }
      edges { node { fieldType label value operator } }
    }
  }`;

  it('suggests what REST suggests, page by page, with the same total', async () => {
    const first = await data(query, { q: 'vice', first: 10 });
    const second = await data(query, { q: 'vice', first: 10, after: first.suggestions.pageInfo.endCursor });
    const { body } = await app.getJson<Envelope<Json[], { total: number }>>(
      '/v1/search/suggestions?query=vice&limit=20',
    );
    const nodes = [...first.suggestions.edges, ...second.suggestions.edges].map((edge: Json) => edge.node);
    expect(nodes).toEqual(body.success);
    expect(first.suggestions.totalCount.value).toBe(body.meta.total);
    expect(first.suggestions.pageInfo.hasNextPage).toBe(true);
  });

  it('is open to a plan that covers suggestions and refuses bad arguments with clear codes', async () => {
    const starter = await data(query, { q: 'retire' }, app.tokens.starter);
    expect(starter.suggestions.edges.map((edge: Json) => edge.node.label)).toEqual(['Retirement']);
    const blank = await gql(query, { q: '   ' });
    expect(blank.errors?.[0]?.extensions?.code).toBe('INVALID_PARAMETER');
    const forged = await gql(query, { q: 'vice', after: 'not-a-cursor' });
    expect(forged.errors?.[0]?.extensions?.code).toBe('INVALID_PARAMETER');
    const tooMany = await gql(query, { q: 'vice', first: 500 });
    expect(tooMany.errors?.[0]?.message).toContain('100');
  });
});
