import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { OrganisationPeopleArticlesDocument } from '../../src/client/graphql.gen.ts';
import { createOrgraphClient } from '../../src/client/index.ts';
import { queryRows } from '../../src/db/database.ts';
import { type LiveServer, logLines, startLiveServer } from '../browser/live-server.ts';

/**
 * The shipped plans, but a token may send only one request a second: the client meets 429s whenever a page takes
 * less than a second (at 10 a second, a loaded machine served the 21 pages too slowly to meet one).
 */
function writeTightPlansFile(): string {
  const everything = [
    'organisations',
    'people',
    'suggestions',
    'events',
    'searches',
    'ownership',
    'articles',
  ];
  const plan = { rateLimit: { requests: 1, windowSeconds: 1 } };
  const graphqlCost = { points: 100_000, windowSeconds: 60, maxPerQuery: 20_000 };
  const file = join(mkdtempSync(join(tmpdir(), 'orgraph-client-')), 'plans.json');
  writeFileSync(
    file,
    JSON.stringify({
      starter: { covers: everything.slice(0, 3), ...plan, graphqlCost },
      professional: { covers: everything.slice(0, 6), ...plan, graphqlCost },
      enterprise: { covers: everything, ...plan, graphqlCost },
    }),
  );
  return file;
}

let server: LiveServer;
let organisationCount = 0;
let someName = '';

beforeAll(async () => {
  server = await startLiveServer({
    env: { PLANS_FILE: writeTightPlansFile() },
    prepare: async (db) => {
      const [row] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from organisations`);
      organisationCount = Number(row?.n);
      const [named] = await queryRows<{ name: string }>(
        db,
        sql`select name from organisations order by reference limit 1`,
      );
      someName = named!.name;
    },
  });
}, 120_000);
afterAll(async () => {
  if (server) expect(await server.stop()).toBe(0);
});

describe('the client against a listening orgraph process', () => {
  it('reads every organisation through the rate limit, waiting out each 429 as Retry-After says', async () => {
    const client = createOrgraphClient({ baseUrl: server.url, token: server.token, retry: { retries: 5 } });
    const references = new Set<string>();
    const every = { show_empty: 'true', min_confidence: 0, type: 'all', status: 'all', limit: 100 } as const;
    for await (const organisation of client.allOrganisations(every)) references.add(organisation.reference);
    expect(references.size).toBe(organisationCount);

    // More pages than the budget allows in one second: the service refused some, and the client retried them.
    // The log arrives through a pipe, possibly after the last response: wait for the line of every page.
    const pages = Math.floor(organisationCount / 100) + 1;
    const listLines = () => logLines(server.stdout()).filter((line) => line.route === '/v1/organisations');
    await vi.waitFor(() => expect(listLines().filter((line) => line.status === 200)).toHaveLength(pages));
    expect(listLines().filter((line) => line.status === 429).length).toBeGreaterThan(0);
  }, 120_000);

  it('runs a typed GraphQL document', async () => {
    const client = createOrgraphClient({ baseUrl: server.url, token: server.token, retry: { retries: 5 } });
    const data = await client.graphql(OrganisationPeopleArticlesDocument, {
      filter: { showEmpty: true, kind: 'ALL', minConfidence: 0, name: someName },
      first: 3,
      articlesPerPerson: 1,
    });
    const edges = data.organisations?.edges ?? [];
    expect(edges.length).toBeGreaterThan(0);
    for (const { node } of edges) expect(node.name.toLowerCase()).toContain(someName.toLowerCase());
  });
});
