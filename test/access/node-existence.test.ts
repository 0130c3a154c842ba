import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countStatements, queryRows } from '../../src/db/database.ts';
import { openTestApp, type TestApp } from '../support/test-app.ts';

let app: TestApp;
let existingDeal: string;
let existingArticle: string;
let existingOrganisation: string;
beforeAll(async () => {
  app = await openTestApp();
  const [row] = await queryRows<{ deal: string; article: string; organisation: string }>(
    app.services.db,
    sql`select (select reference from events where type = 'deal' order by reference limit 1) as deal,
      (select reference from articles order by reference limit 1) as article,
      (select reference from organisations order by reference limit 1) as organisation`,
  );
  existingDeal = row!.deal;
  existingArticle = row!.article;
  existingOrganisation = row!.organisation;
});
afterAll(() => app.close());

const globalId = (typename: string, reference: string) =>
  Buffer.from(`${typename}:${reference}`).toString('base64');

const nodeQuery = 'query($id: ID!) { node(id: $id) { id } }';

describe('node(id:) for a type the plan does not cover', () => {
  it('answers the same FORBIDDEN whether the record exists, does not, or is of another type', async () => {
    const ids = [
      globalId('DealEvent', existingDeal),
      globalId('DealEvent', randomUUID()),
      globalId('DealEvent', existingOrganisation),
      globalId('FundingEvent', existingDeal),
    ];
    const answers = [];
    for (const id of ids) {
      const { status, body } = await app.graphql(nodeQuery, { id }, app.tokens.starter);
      expect(status).toBe(200);
      expect(body.data).toEqual({ node: null });
      expect(body.errors).toHaveLength(1);
      expect(body.errors![0]!.extensions?.code).toBe('FORBIDDEN');
      expect(body.errors![0]!.path).toEqual(['node']);
      answers.push(body.errors![0]!.message.replace(/FundingEvent/, 'DealEvent'));
    }
    expect(new Set(answers).size).toBe(1);
    expect(answers[0]).toMatch(/starter.*DealEvent.*events/);
  });

  it('refuses articles to a plan without them, existing or not', async () => {
    for (const reference of [existingArticle, randomUUID()]) {
      const { body } = await app.graphql(
        nodeQuery,
        { id: globalId('Article', reference) },
        app.tokens.professional,
      );
      expect(body.data).toEqual({ node: null });
      expect(body.errors?.map((error) => error.extensions?.code)).toEqual(['FORBIDDEN']);
    }
  });

  it('decides from the ID alone: a refused ID sends no SQL beyond the token check', async () => {
    const baseline = await countStatements(() =>
      app.graphql('{ __typename }', undefined, app.tokens.starter),
    );
    const refused = await countStatements(() =>
      app.graphql(nodeQuery, { id: globalId('DealEvent', existingDeal) }, app.tokens.starter),
    );
    expect(refused.result.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect(refused.statements).toBe(baseline.statements);
  });

  it('still answers a covered type: a record, or null when unknown', async () => {
    const found = await app.graphql(
      nodeQuery,
      { id: globalId('DealEvent', existingDeal) },
      app.tokens.professional,
    );
    expect(found.body).toMatchObject({ data: { node: { id: globalId('DealEvent', existingDeal) } } });
    expect(found.body.errors).toBeUndefined();
    const unknown = await app.graphql(
      nodeQuery,
      { id: globalId('DealEvent', randomUUID()) },
      app.tokens.professional,
    );
    expect(unknown.body).toEqual({ data: { node: null }, extensions: expect.anything() });
  });
});

describe('nodes(ids:) for a type the plan does not cover', () => {
  it('refuses each such ID in place, existing or not, and answers the others', async () => {
    const ids = [
      globalId('Organisation', existingOrganisation),
      globalId('DealEvent', existingDeal),
      globalId('DealEvent', randomUUID()),
      globalId('Organisation', randomUUID()),
    ];
    const { status, body } = await app.graphql(
      'query($ids: [ID!]!) { nodes(ids: $ids) { id } }',
      { ids },
      app.tokens.starter,
    );
    expect(status).toBe(200);
    expect(body.data).toEqual({ nodes: [{ id: ids[0] }, null, null, null] });
    const errors = [...(body.errors ?? [])].sort((a, b) => Number(a.path?.[1]) - Number(b.path?.[1]));
    expect(errors.map((error) => [error.path, error.extensions?.code])).toEqual([
      [['nodes', 1], 'FORBIDDEN'],
      [['nodes', 2], 'FORBIDDEN'],
    ]);
    expect(errors[0]!.message).toBe(errors[1]!.message);
  });
});
