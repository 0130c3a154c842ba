import { parse, validate } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphiqlExampleQuery } from '../../src/graphql/graphiql-example.ts';
import { schema } from '../../src/graphql/schema.ts';
import { openTestApp, type TestApp } from '../support/test-app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await openTestApp();
});
afterAll(() => app.close());

interface Example {
  organisations: {
    totalCount: { value: number; isEstimate: boolean } | null;
    edges: {
      node: {
        name: string;
        currentExecutives: {
          title: string;
          profile: { fullName: string; articles: { edges: { node: { article: { title: string } } }[] } };
        }[];
      };
    }[];
  };
}

describe('the GraphiQL example query', () => {
  it('is valid against the schema', () => {
    expect(validate(schema, parse(graphiqlExampleQuery))).toEqual([]);
  });

  it('runs without errors and walks organisation → executives → articles', async () => {
    const { status, body } = await app.graphql<Example>(graphiqlExampleQuery);
    expect(body.errors).toBeUndefined();
    expect(status).toBe(200);
    const organisations = body.data!.organisations.edges.map(({ node }) => node);
    expect(organisations).toHaveLength(2);
    for (const organisation of organisations) {
      expect(organisation.name).toEqual(expect.any(String));
      for (const executive of organisation.currentExecutives) {
        expect(executive.profile.fullName).toEqual(expect.any(String));
        expect(executive.profile.articles.edges.length).toBeLessThanOrEqual(2);
      }
    }
  });
});
