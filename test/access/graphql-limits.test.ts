import { getIntrospectionQuery } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countStatements } from '../../src/db/database.ts';
import { openTestApp, type TestApp } from '../support/test-app.ts';

let app: TestApp;
let organisation = '';
/** SQL statements of a request that runs nothing but the token lookup. */
let authenticationStatements = 0;

beforeAll(async () => {
  app = await openTestApp();
  const { body } = await app.getJson<{ success: { reference: string }[] }>(
    '/v1/organisations?show_empty=true&limit=1',
  );
  organisation = body.success[0]!.reference;
  authenticationStatements = (await countStatements(() => app.graphql('{ __typename }'))).statements;
});
afterAll(async () => {
  await app.services.quotas?.close();
  await app.close();
});

/** Runs an operation and counts the SQL statements it sent beyond authenticating the token. */
async function run(query: string, variables: Record<string, unknown> = {}, token?: string) {
  const { result, statements } = await countStatements(() => app.graphql(query, variables, token));
  return { ...result, sql: statements - authenticationStatements };
}

function refusal(limit: string, message: string) {
  return { errors: [{ message, extensions: { code: 'QUERY_LIMIT_EXCEEDED', limit } }] };
}

describe('the statement counter', () => {
  it('counts the token lookup, and the queries of an operation that runs', async () => {
    expect(authenticationStatements).toBe(1);
    const { body, sql } = await run('query ($r: UUID!) { organisation(reference: $r) { name } }', {
      r: organisation,
    });
    expect(body.data).toEqual({ organisation: { name: expect.any(String) } });
    expect(sql).toBeGreaterThan(0);
  });
});

describe('operations over a limit are refused before any SQL runs', () => {
  it('refuses a query nested deeper than 12', async () => {
    // organisation → currentExecutives → profile → experiences → organisation → … : 14 levels down to `name`.
    let selection = 'name';
    for (let level = 0; level < 3; level += 1) {
      selection = `currentExecutives { profile { experiences { organisation { ${selection} } } } }`;
    }
    const { body, sql } = await run(`query ($r: UUID!) { organisation(reference: $r) { ${selection} } }`, {
      r: organisation,
    });
    expect(body).toEqual(refusal('depth', 'Query depth limit of 12 exceeded, found 14.'));
    expect(sql).toBe(0);
  });

  it('refuses more than 30 aliases', async () => {
    const fields = Array.from(
      { length: 31 },
      (_, index) => `o${index}: organisation(reference: $r) { name }`,
    );
    const { body, sql } = await run(`query ($r: UUID!) { ${fields.join(' ')} }`, { r: organisation });
    expect(body).toEqual(refusal('aliases', 'Aliases limit of 30 exceeded, found 31.'));
    expect(sql).toBe(0);
  });

  it('refuses more than 20 directives', async () => {
    const fields = Array.from({ length: 21 }, (_, index) => `n${index}: name @include(if: true)`);
    const { body, sql } = await run(
      `query ($r: UUID!) { organisation(reference: $r) { ${fields.join(' ')} } }`,
      {
        r: organisation,
      },
    );
    expect(body).toEqual(refusal('directives', 'Directives limit of 20 exceeded, found 21.'));
    expect(sql).toBe(0);
  });

  it('refuses a document of more than 2,000 tokens', async () => {
    const { body, sql } = await run(
      `query ($r: UUID!) { organisation(reference: $r) { ${'name '.repeat(2_000)} } }`,
      { r: organisation },
    );
    expect(body).toEqual(
      refusal('tokens', 'Token limit of 2000 exceeded; send a smaller document (variables do not count).'),
    );
    expect(sql).toBe(0);
  });

  it('refuses a page of more than 100, literal or from a variable, naming the field', async () => {
    const literal = await run('{ organisations(first: 1000) { edges { node { name } } } }');
    expect(literal.body).toEqual(
      refusal(
        'pageSize',
        '`first: 1000` on Query.organisations is over the page size limit of 100; page with the cursors instead.',
      ),
    );
    expect(literal.sql).toBe(0);

    const variable = await run(
      'query ($r: UUID!, $n: Int) { organisation(reference: $r) { events(last: $n) { edges { cursor } } } }',
      { r: organisation, n: 101 },
    );
    expect(variable.body.errors?.[0]?.message).toBe(
      '`last: 101` on Organisation.events is over the page size limit of 100; page with the cursors instead.',
    );
    expect(variable.sql).toBe(0);
  });

  it('refuses a query costing more than the plan allows per query, and reports the cost', async () => {
    // 1 + 100 × (1 + 1 + 100 × (1 + 1 + 1 + 100 × 1)) points.
    const bomb = `{ organisations(first: 100) { edges { node {
      events(first: 100) { edges { node { ... on MoveEvent { profile { events(first: 100) { edges { cursor node { reference } } } } } } } }
    } } } }`;
    const { body, sql } = await run(bomb);
    const requested = 1 + 100 * (1 + 1 + 100 * (1 + 1 + 1 + 100 * 1));
    expect(body).toEqual({
      ...refusal(
        'cost',
        `This query costs ${requested} points, over the limit of 60000 per query of plan enterprise; ask for fewer items (first/last) or fewer nested connections.`,
      ),
      extensions: {
        cost: { requested, remaining: expect.any(Number), limit: 600000, resetSeconds: expect.any(Number) },
      },
    });
    expect(sql).toBe(0);
  });

  it('answers 400 to clients that accept application/graphql-response+json', async () => {
    const response = await app.request('/graphql', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/graphql-response+json' },
      body: JSON.stringify({ query: '{ organisations(first: 101) { edges { cursor } } }' }),
    });
    expect(response.status).toBe(400);
    expect((await response.json()).errors[0].extensions).toEqual({
      code: 'QUERY_LIMIT_EXCEEDED',
      limit: 'pageSize',
    });
  });
});

describe('cost reporting', () => {
  it('reports the cost of every operation in extensions.cost and charges it', async () => {
    const query = '{ organisations(first: 5) { edges { node { name } } totalCount { value } } }';
    const first = await run(query);
    const second = await run(query);
    // 1 + 5 × 1 for the connection, and the count at its time limit (COUNT_TIMEOUT_MS, 200 ms: 200 points).
    const requested = 1 + 5 + app.services.config.countTimeoutMs;
    expect(first.body.extensions?.cost).toEqual({
      requested,
      remaining: expect.any(Number),
      limit: 600000,
      resetSeconds: expect.any(Number),
    });
    const remaining = (result: typeof first) =>
      (result.body.extensions?.cost as { remaining?: number })?.remaining;
    expect(remaining(first)! - remaining(second)!).toBe(requested);
  });

  it('prices the same document anew for other variables and another operation', async () => {
    const document =
      'query Page($first: Int) { organisations(first: $first) { edges { node { name } } } } query One { __typename }';
    const price = async (operationName: string, variables: Record<string, unknown>) => {
      const response = await app.request('/graphql', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ query: document, operationName, variables }),
      });
      const body = (await response.json()) as { extensions?: { cost?: { requested?: number } } };
      return body.extensions?.cost?.requested;
    };
    // 1 + first × 1 for the connection.
    expect(await price('Page', { first: 5 })).toBe(6);
    expect(await price('Page', { first: 50 })).toBe(51);
    expect(await price('Page', { first: 5 })).toBe(6);
    expect(await price('One', {})).toBe(0);
  });

  it('keeps introspection allowed and cheap', async () => {
    const { body, sql } = await run(getIntrospectionQuery({ descriptions: true }));
    expect(body.errors).toBeUndefined();
    expect((body.data as { __schema: { queryType: { name: string } } }).__schema.queryType.name).toBe(
      'Query',
    );
    expect(body.extensions?.cost).toMatchObject({ requested: 1 });
    expect(sql).toBe(0);
  });
});
