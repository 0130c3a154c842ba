import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApp, type TestApp } from '../support/test-app.ts';

/**
 * The README's tour, run against the demo dataset (the test database is seeded the way `npm start` seeds a fresh
 * clone: scale 1). Names, counts, titles and texts are compared exactly. The seed dates everything relative to
 * the day it runs (README "Decisions"), so dates are only checked for their form, and the cost budget's
 * `remaining`/`resetSeconds` depend on the requests before and the clock, so they are only checked to be numbers.
 */
const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

/** The first fenced block of `language` after `marker`. */
function blockAfter(marker: string, language: string): string {
  const at = readme.indexOf(marker);
  expect(at, `README has "${marker}"`).toBeGreaterThanOrEqual(0);
  const open = readme.indexOf(`\`\`\`${language}\n`, at);
  const close = readme.indexOf('\n```', open + 4);
  return readme.slice(open + language.length + 4, close);
}

let app: TestApp;
beforeAll(async () => {
  app = await openTestApp();
});
afterAll(async () => {
  await app?.close();
});

interface Executive {
  title: string;
  profile: {
    fullName: string;
    articles: {
      edges: {
        node: { article: { title: string; publishedAt: string }; about: { type: string; summary: string }[] };
      }[];
    };
  };
}

function withoutDates(executives: Executive[]) {
  return executives.map((executive) => ({
    ...executive,
    profile: {
      ...executive.profile,
      articles: {
        edges: executive.profile.articles.edges.map(({ node }) => ({
          node: { ...node, article: { ...node.article, publishedAt: 'a date' } },
        })),
      },
    },
  }));
}

describe('the README tour', () => {
  it('GraphQL: the example query answers what the README shows (its first executives, and how many)', async () => {
    const command = blockAfter('### GraphQL (`/graphql`)', 'sh');
    const payload = JSON.parse(command.slice(command.indexOf("-d '") + 4, command.lastIndexOf("'"))) as {
      query: string;
      variables: Record<string, unknown>;
    };
    const shown = JSON.parse(blockAfter('Real output from the demo dataset', 'json'));
    const { status, body } = await app.graphql(payload.query, payload.variables);
    expect(status).toBe(200);
    expect(body.errors).toBeUndefined();
    const organisation = (
      body.data as { organisation: Record<string, unknown> & { currentExecutives: Executive[] } }
    ).organisation;
    const expected = shown.data.organisation;
    expect({ name: organisation.name, status: organisation.status, sizeBand: organisation.sizeBand }).toEqual(
      {
        name: expected.name,
        status: expected.status,
        sizeBand: expected.sizeBand,
      },
    );
    const total = readme.match(/the first of its (\d+) current executives/)?.[1];
    expect(organisation.currentExecutives).toHaveLength(Number(total));
    const first = organisation.currentExecutives.slice(0, expected.currentExecutives.length);
    expect(withoutDates(first)).toEqual(withoutDates(expected.currentExecutives));
    for (const executive of first) {
      for (const { node } of executive.profile.articles.edges) {
        expect(node.article.publishedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      }
    }
    const cost = body.extensions?.cost as Record<string, number>;
    expect({ requested: cost.requested, limit: cost.limit }).toEqual({
      requested: shown.extensions.cost.requested,
      limit: shown.extensions.cost.limit,
    });
    expect(typeof cost.remaining).toBe('number');
    expect(typeof cost.resetSeconds).toBe('number');
  });

  it('REST: the organisation people example has the counts and the row the README shows', async () => {
    const command = blockAfter('### REST `/v1`', 'sh');
    const path = command.match(/http:\/\/127\.0\.0\.1:4000(\/v1\/[^']+)'/)?.[1];
    expect(path).toBeDefined();
    const counts = readme.match(
      /gives `current_executives` \((\d+)\), `current_professionals` \((\d+)\) and `alumni` \((\d+)\)/,
    );
    expect(counts).not.toBeNull();
    const { status, body } = await app.getJson<{
      success: Record<'current_executives' | 'current_professionals' | 'alumni', Record<string, unknown>[]>;
    }>(path as string);
    expect(status).toBe(200);
    const people = body.success;
    expect([
      people.current_executives.length,
      people.current_professionals.length,
      people.alumni.length,
    ]).toEqual(counts?.slice(1, 4).map(Number));
    const row = JSON.parse(blockAfter('each row like', 'json'));
    const actual = [...people.current_executives, ...people.current_professionals, ...people.alumni].find(
      (candidate) => candidate.reference === row.reference,
    ) as (typeof row & { role: { start_date: string } }) | undefined;
    expect(actual).toBeDefined();
    expect(actual?.role.start_date).toMatch(/^\d{4}-\d\d-\d\d$/);
    expect({ ...actual, role: { ...actual?.role, start_date: 'a date' } }).toEqual({
      ...row,
      role: { ...row.role, start_date: 'a date' },
    });
  });

  it('client: the organisation and the name filter of the client example find something', async () => {
    const example = blockAfter('### The typed client (`orgraph/client`)', 'ts');
    const reference = example.match(/getOrganisation\('([0-9a-f-]{36})'\)/)?.[1];
    const name = example.match(/allOrganisations\(\{ show_empty: 'true', name: '([^']+)' \}\)/)?.[1];
    expect((await app.getJson(`/v1/organisations/${reference}`)).status).toBe(200);
    const { status, body } = await app.getJson<{ success: { name: string }[] }>(
      `/v1/organisations?show_empty=true&name=${encodeURIComponent(name as string)}`,
    );
    expect(status).toBe(200);
    expect(body.success.length).toBeGreaterThan(0);
    for (const organisation of body.success)
      expect(organisation.name.toLowerCase()).toContain(name?.toLowerCase());
  });
});
