import { type GraphQLObjectType, printSchema } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compiledReads } from '../../src/graphql/plugins/use-compiled-reads.ts';
import { schema, schemaWithoutPlanChecks } from '../../src/graphql/schema.ts';
import {
  everything,
  executivesArticles,
  nestedArticles,
  nestedRoles,
  people,
} from '../support/graph-documents.ts';
import { openTestApp, type PlanName, type TestApp } from '../support/test-app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await openTestApp();
});
afterAll(() => app.close());

// The plan checks of the checked schema run in `isTypeOf` of each object: counted, they show which path ran.
let checks = 0;
for (const type of Object.values(schema.getTypeMap())) {
  const object = type as GraphQLObjectType;
  if (type.name.startsWith('__') || typeof object.isTypeOf !== 'function') continue;
  const isTypeOf = object.isTypeOf;
  object.isTypeOf = (value, context, info) => {
    checks += 1;
    return isTypeOf(value, context, info);
  };
}

const events = /* GraphQL */ `
  query Events($first: Int!) {
    events(first: $first) {
      edges {
        cursor
        node {
          __typename id reference eventType summary publishDate
          organisation { reference name }
          ... on MoveEvent { moveType effectiveDate profile { fullName } occupation { name } }
          ... on FundingEvent { round value currencyCode participants { reference } }
          ... on DealEvent { acquirer { name } acquiree { name } deal { type status value } }
          ... on PublicOfferingEvent { offering { exchange ticker } }
          ... on ClientSummaryEvent { clientSummary { reference entries { clientType numberOfClients } } }
        }
      }
    }
  }
`;

const byIds = /* GraphQL */ `
  query ByIds($id: ID!, $ids: [ID!]!) {
    node(id: $id) {
      __typename
      id
      ... on Organisation { name currentExecutives { profile { fullName } } }
      ... on Profile { fullName }
    }
    nodes(ids: $ids) {
      __typename
      ... on Node { id }
      ... on Organisation { name }
      ... on Profile { fullName experiences { organisation { name } } }
      ... on Event { summary }
    }
  }
`;

/** A refused argument on a nullable field inside a list: an error at each item's path, the rest of the data. */
const errorsInAList = /* GraphQL */ `
  query ErrorsInAList($first: Int!) {
    organisations(first: $first, filter: { showEmpty: true }) {
      edges {
        node {
          name
          currentExecutives { profile { fullName articles(first: 2, after: "not-a-cursor") { edges { node { article { title } } } } } }
        }
      }
    }
  }
`;

/** A nullable root field failing beside one that answers. */
const nullableFailing = /* GraphQL */ `
  query NullableFailing($first: Int!) {
    node(id: "!!!") { id }
    organisations(first: $first) { edges { node { name } } }
  }
`;

/** The answer as sent (without its cost, which changes from request to request) and how many plan checks ran. */
async function answer(query: string, variables: Record<string, unknown>, compiled: boolean, plan: PlanName) {
  compiledReads.enabled = compiled;
  checks = 0;
  try {
    const response = await app.request('/graphql', {
      method: 'POST',
      token: app.tokens[plan],
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ query, variables }),
    });
    const { extensions: _cost, ...body } = await response.json();
    return { status: response.status, text: JSON.stringify(body), checks };
  } finally {
    compiledReads.enabled = true;
  }
}

/** The same answer from both executors; the compiled one ran no plan check (when any resolver `runs`). */
async function same(query: string, variables: Record<string, unknown>, runs = true) {
  const checked = await answer(query, variables, false, 'enterprise');
  const compiled = await answer(query, variables, true, 'enterprise');
  expect(compiled.text).toBe(checked.text);
  expect(compiled.status).toBe(checked.status);
  expect(checked.checks > 0).toBe(runs);
  expect(compiled.checks).toBe(0);
  return JSON.parse(compiled.text);
}

describe('a document the plan covers whole, compiled without plan checks', () => {
  it('answers the nested reads byte for byte as the checked schema does', async () => {
    const roles = await same(nestedRoles, { first: 30 });
    expect(roles.data.organisations.edges).toHaveLength(30);
    const articles = await same(nestedArticles, { first: 20 });
    expect(JSON.stringify(articles)).toContain('"articles":{"edges":[{');
    expect((await same(people, { first: 20 })).data.profiles.edges).toHaveLength(20);
    for (const variables of [
      { first: 2, withHistory: true, skipAlumni: false },
      { first: 2, withHistory: false, skipAlumni: true },
    ]) {
      expect((await same(everything, variables)).errors).toBeUndefined();
    }
    await same(executivesArticles, { first: 6 });
  });

  it('answers fragments on the event interface with every kind of event', async () => {
    const body = await same(events, { first: 60 });
    const kinds = new Set(
      body.data.events.edges.map((edge: { node: { __typename: string } }) => edge.node.__typename),
    );
    expect(kinds.size).toBeGreaterThan(2);
  });

  it('answers node and nodes of several types, null for an ID that matches none', async () => {
    const first = await same(
      '{ organisations(first: 1) { edges { node { id currentExecutives { profile { id } } } } } }',
      {},
    );
    const organisation = first.data.organisations.edges[0].node;
    const profileId = organisation.currentExecutives[0].profile.id;
    const missing = Buffer.from('Organisation:7b0c3a5e-9d1f-4b7e-8a59-2f7f1c3d9e10').toString('base64');
    const body = await same(byIds, { id: organisation.id, ids: [profileId, missing, organisation.id] });
    expect(body.data.node.name).toEqual(expect.any(String));
    expect(body.data.nodes.map((node: { __typename: string } | null) => node?.__typename ?? null)).toEqual([
      'Profile',
      null,
      'Organisation',
    ]);
  });

  it('gives errors inside a list at each item’s path, coded and located as the checked schema does', async () => {
    const body = await same(errorsInAList, { first: 5 });
    expect(body.errors.length).toBeGreaterThan(1);
    for (const error of body.errors) {
      expect(error.extensions.code).toBe('INVALID_PARAMETER');
      expect(error.path.at(-1)).toBe('articles');
      expect(error.locations).toHaveLength(1);
    }
    expect(body.data.organisations.edges[0].node.name).toEqual(expect.any(String));
  });

  it('gives a failing nullable field null with its coded error, and the rest of the data', async () => {
    const body = await same(nullableFailing, { first: 2 });
    expect(body.data.node).toBeNull();
    expect(body.errors.map((error: { extensions: { code: string } }) => error.extensions.code)).toEqual([
      'INVALID_PARAMETER',
    ]);
    expect(body.data.organisations.edges).toHaveLength(2);
  });

  it('gives variable errors as the checked schema does', async () => {
    const body = await same(nestedRoles, { first: 'many' }, false);
    expect(body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });
});

describe('a document the plan does not cover whole', () => {
  it('keeps the checked schema: FORBIDDEN at each articles path, the rest of the data', async () => {
    const body = await answer(executivesArticles, { first: 6 }, true, 'starter');
    expect(body.checks).toBeGreaterThan(0);
    const { data, errors } = JSON.parse(body.text);
    expect(errors.length).toBeGreaterThan(0);
    for (const error of errors) {
      expect(error.extensions.code).toBe('FORBIDDEN');
      expect(error.path.at(-1)).toBe('articles');
    }
    expect(data.organisations.edges[0].node.name).toEqual(expect.any(String));
  });

  it('keeps the checked schema for a node query whose possible types include one the plan lacks', async () => {
    const body = await answer('{ organisations(first: 1) { edges { node { id } } } }', {}, true, 'starter');
    const id = JSON.parse(body.text).data.organisations.edges[0].node.id;
    const byNode = await answer('query ($id: ID!) { node(id: $id) { id } }', { id }, true, 'starter');
    expect(byNode.checks).toBeGreaterThan(0);
    expect(JSON.parse(byNode.text).data.node.id).toBe(id);
  });
});

it('builds the schema without plan checks with the same types, fields and descriptions', () => {
  expect(printSchema(schemaWithoutPlanChecks)).toBe(printSchema(schema));
});
