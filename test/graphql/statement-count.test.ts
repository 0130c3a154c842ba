import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countStatements } from '../../src/db/database.ts';
import { nestedArticles } from '../support/graph-documents.ts';
import { openTestApp, type TestApp } from '../support/test-app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await openTestApp();
});
afterAll(() => app.close());

// organisation → people → profile → experiences → organisation, and profile → articles → annotations.
const nestedQuery = nestedArticles;

interface NestedData {
  organisations: {
    edges: {
      node: {
        name: string;
        currentExecutives: { profile: { experiences: unknown[]; articles: { edges: unknown[] } } }[];
        currentProfessionals: unknown[];
        alumni: unknown[];
      };
    }[];
  };
}

async function measure(first: number) {
  const { result, statements } = await countStatements(() => app.graphql<NestedData>(nestedQuery, { first }));
  expect(result.status).toBe(200);
  expect(result.body.errors).toBeUndefined();
  return { data: result.body.data!, statements };
}

describe('SQL statements of a nested query', () => {
  it('are bounded by the depth of the query, not by the number of rows', async () => {
    const small = await measure(2);
    const large = await measure(20);

    const organisations = large.data.organisations.edges.map((edge) => edge.node);
    expect(organisations).toHaveLength(20);
    const people = organisations.flatMap((o) => [
      ...o.currentExecutives,
      ...o.currentProfessionals,
      ...o.alumni,
    ]);
    const experiences = organisations.flatMap((o) =>
      o.currentExecutives.flatMap((e) => e.profile.experiences),
    );
    const articles = organisations.flatMap((o) =>
      o.currentExecutives.flatMap((e) => e.profile.articles.edges),
    );
    // The larger query really does load many more rows at every level.
    expect(people.length).toBeGreaterThan(40);
    expect(experiences.length).toBeGreaterThan(20);
    expect(articles.length).toBeGreaterThan(5);

    // Loads of one depth can land in two batches when their parents resolve in different ticks; an N+1 would
    // add at least one statement per extra organisation (eighteen here).
    expect(large.statements).toBeLessThanOrEqual(small.statements + 2);
    expect(large.statements).toBeLessThanOrEqual(22);
  });
});
