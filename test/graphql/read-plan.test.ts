import DataLoader from 'dataloader';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { captureStatements, countStatements } from '../../src/db/database.ts';
import { readPlans } from '../../src/graphql/read-plan.ts';
import {
  articlesEverywhere,
  articlesFiltered,
  articlesTwoWays,
  everything,
  executivesArticles,
  executivesHistory,
  nestedArticles,
  nestedRoles,
  people,
} from '../support/graph-documents.ts';
import { openTestApp, type PlanName, type TestApp } from '../support/test-app.ts';

// Loads through the dataloaders: the plan path makes fewer, which shows it was taken.
const loads = vi.spyOn(DataLoader.prototype, 'load');

let app: TestApp;
beforeAll(async () => {
  app = await openTestApp();
});
afterAll(() => app.close());

const deferred = /* GraphQL */ `
  query Deferred($first: Int!) {
    organisations(first: $first, filter: { showEmpty: true }) {
      edges { node { name ... @defer { alumni { title } } currentExecutives { title } } }
    }
  }
`;

/** The answer as sent, through the plan (when `byPlan`) or through the loaders, and its statements. */
async function answer(
  query: string,
  variables: Record<string, unknown>,
  byPlan: boolean,
  plan: PlanName = 'enterprise',
) {
  loads.mockClear();
  readPlans.enabled = byPlan;
  try {
    const { result, statements } = await countStatements(() =>
      app.request('/graphql', {
        method: 'POST',
        token: app.tokens[plan],
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ query, variables }),
      }),
    );
    // The answer but its extensions, whose cost left in the window differs from request to request.
    const { extensions: _cost, ...body } = await result.json();
    const text = JSON.stringify(body);
    expect(result.status, text).toBe(200);
    expect(text, text).toMatch(/^\{"(data|errors)"/);
    const articlePages = loads.mock.calls.filter(
      ([key]) => (key as { args?: { options?: unknown } }).args?.options,
    );
    return { text, statements, loads: loads.mock.calls.length, articlePages: articlePages.length };
  } finally {
    readPlans.enabled = true;
  }
}

async function same(
  query: string,
  variables: Record<string, unknown>,
  plan: PlanName = 'enterprise',
): Promise<{ text: string; planned: number; loaded: number; articlePages: number; planLoads: number }> {
  const byLoaders = await answer(query, variables, false, plan);
  const byPlan = await answer(query, variables, true, plan);
  expect(byPlan.loads).toBeLessThan(byLoaders.loads);
  expect(byPlan.text).toBe(byLoaders.text);
  return {
    text: byPlan.text,
    planned: byPlan.statements,
    loaded: byLoaders.statements,
    articlePages: byPlan.articlePages,
    planLoads: byPlan.loads,
  };
}

describe('a connection read by its plan answers as the loaders do', () => {
  it('gives the nested roles byte for byte, in fewer statements', async () => {
    const { text, planned, loaded } = await same(nestedRoles, { first: 30 });
    type Role = { profile: { experiences: unknown[] } };
    const data: { node: Record<string, Role[]> }[] = JSON.parse(text).data.organisations.edges;
    expect(data).toHaveLength(30);
    const roles = data.flatMap((edge) => [
      ...edge.node.currentExecutives!,
      ...edge.node.currentProfessionals!,
      ...edge.node.alumni!,
    ]);
    expect(roles.length).toBeGreaterThan(30);
    expect(roles.some((role) => role.profile.experiences.length > 1)).toBe(true);
    expect(planned).toBeLessThanOrEqual(loaded);
  });

  it('gives the nested articles, read by plan with the texts their licence shows', async () => {
    const { text, planned, loaded, articlePages } = await same(nestedArticles, { first: 20 });
    expect(text).toContain('"articles":{"edges":[{');
    expect(text).toMatch(/"text":null/);
    expect(text).toMatch(/"text":"[^"]/);
    expect(articlePages).toBe(0);
    expect(planned).toBeLessThanOrEqual(loaded - 2);
  });

  it('gives articles under aliases and fragments, both licences, the page and its total', async () => {
    for (const collapse of ['LATEST', 'NONE']) {
      const { text, articlePages } = await same(articlesEverywhere, {
        first: 10,
        people: 5,
        articles: 1,
        collapse,
      });
      expect(JSON.parse(text).errors).toBeUndefined();
      expect(articlePages).toBe(0);
      expect(text).toContain('"licence":"METADATA_ONLY","content":null');
      expect(text).toMatch(/"licence":"FULL_TEXT","content":"[^"]/);
      expect(text).toMatch(/"text":null/);
      expect(text).toMatch(/"text":"[^"]/);
      expect(text).toContain('"hasNextPage":true');
      expect(text).toContain('"same":{"edges"');
      expect(text.includes('"historyCount":null')).toBe(collapse === 'NONE');
    }
  });

  it('gives articles filtered, read backwards, with their own statements and below the profiles list, loading nothing', async () => {
    const { text, articlePages, planLoads } = await same(articlesFiltered, { first: 8 });
    expect(planLoads).toBe(0);
    expect(JSON.parse(text).errors).toBeUndefined();
    expect(articlePages).toBe(0);
    expect(text).toContain('"hasPreviousPage":true');
    expect(text).toContain('"annotations":[{');
    expect(text).toMatch(/"profiles":\{"edges":\[.*"by":\[\{"summary"/);
  });

  it('leaves articles asked with two sets of arguments to the loader', async () => {
    const { text, articlePages } = await same(articlesTwoWays, { first: 10 });
    expect(JSON.parse(text).errors).toBeUndefined();
    expect(text).toContain('"reviews":{"edges":[{');
    expect(articlePages).toBeGreaterThan(0);
  });

  it('reads the history of the people of the lists that ask for it only', async () => {
    const { text } = await same(executivesHistory, { first: 20 });
    type Person = { profile: { reference: string } };
    const edges: { node: { currentExecutives: Person[]; alumni: Person[] } }[] =
      JSON.parse(text).data.organisations.edges;
    const executives = new Set(
      edges.flatMap((edge) => edge.node.currentExecutives.map((r) => r.profile.reference)),
    );
    const alumni = new Set(edges.flatMap((edge) => edge.node.alumni.map((r) => r.profile.reference)));
    expect([...alumni].some((reference) => !executives.has(reference))).toBe(true);
    const { sent } = await captureStatements(() => app.graphql(executivesHistory, { first: 20 }));
    const history = sent.filter((statement) =>
      /from "experiences"\s+where "experiences"."profile_reference"/.test(statement.query),
    );
    expect(history).toHaveLength(1);
    const read = new Set(String(history[0]!.params[0]).replace(/[{}]/g, '').split(','));
    expect(read).toEqual(executives);
  });

  it('gives the profiles list and its people’s experiences', async () => {
    const { text } = await same(people, { first: 20 });
    expect(JSON.parse(text).data.profiles.edges).toHaveLength(20);
    expect(text).toContain('"alumni":[{');
  });

  it('follows aliases, fragments, @skip/@include and a second level of people', async () => {
    for (const variables of [
      { first: 2, withHistory: true, skipAlumni: false },
      { first: 2, withHistory: false, skipAlumni: true },
    ]) {
      const { text } = await same(everything, variables);
      expect(JSON.parse(text).errors).toBeUndefined();
      if (variables.withHistory) expect(text).toContain('"where":{"reference"');
      else expect(text).not.toContain('"isCurrent"');
      expect(text.includes('"alumni"')).toBe(!variables.skipAlumni);
    }
  });

  it('keeps the plan refusals: FORBIDDEN at each articles path and the rest of the data', async () => {
    const { text } = await same(executivesArticles, { first: 6 }, 'starter');
    const body = JSON.parse(text);
    expect(body.errors.length).toBeGreaterThan(0);
    for (const error of body.errors) {
      expect(error.extensions.code).toBe('FORBIDDEN');
      expect(error.path.at(-1)).toBe('articles');
    }
    expect(body.data.organisations.edges[0].node.name).toEqual(expect.any(String));
  });

  it('leaves a selection with @defer to the loaders', async () => {
    const send = async (byPlan: boolean) => {
      loads.mockClear();
      readPlans.enabled = byPlan;
      try {
        const response = await app.request('/graphql', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Accept: 'multipart/mixed' },
          body: JSON.stringify({ query: deferred, variables: { first: 3 } }),
        });
        const text = (await response.text()).replace(/"cost":\{[^}]*\}/g, '');
        return { text, loads: loads.mock.calls.length };
      } finally {
        readPlans.enabled = true;
      }
    };
    const byLoaders = await send(false);
    const withPlans = await send(true);
    expect(withPlans.text).toContain('"alumni"');
    expect(withPlans.loads).toBe(byLoaders.loads);
    expect(withPlans.loads).toBeGreaterThan(0);
  });
});
