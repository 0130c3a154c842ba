import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ArticleTitleDocument, OrganisationDocument } from '../../src/client/graphql.gen.ts';
import {
  createOrgraphClient,
  OrgraphApiError,
  type OrgraphClient,
  OrgraphGraphqlError,
  OrgraphPageLimitError,
} from '../../src/client/index.ts';
import { queryRows } from '../../src/db/database.ts';
import { createApp } from '../../src/server/app.ts';
import { openTestApp, type TestApp } from '../support/test-app.ts';

let app: TestApp;
let client: OrgraphClient;
let requests: string[];

beforeAll(async () => {
  app = await openTestApp();
  const service = createApp(app.services);
  requests = [];
  // In-process: the client's requests go straight to the app, no port.
  client = createOrgraphClient({
    baseUrl: 'http://orgraph.test',
    token: app.tokens.enterprise,
    fetch: async (request) => {
      requests.push(`${request.method} ${new URL(request.url).pathname}${new URL(request.url).search}`);
      return service.fetch(request);
    },
  });
});
afterAll(() => app.close());

async function count(query: ReturnType<typeof sql>): Promise<number> {
  const [row] = await queryRows<{ n: number }>(app.services.db, query);
  return Number(row?.n);
}

const everyOrganisation = { show_empty: 'true', min_confidence: 0, type: 'all', status: 'all' } as const;

describe('iterating organisations', () => {
  it('reads every organisation of the dataset once, stopping at the first short page', async () => {
    const expected = await count(sql`select count(*)::int as n from organisations`);
    requests.length = 0;
    const references: string[] = [];
    for await (const organisation of client.allOrganisations({ ...everyOrganisation, limit: 100 })) {
      references.push(organisation.reference);
    }
    expect(references).toHaveLength(expected);
    expect(new Set(references).size).toBe(expected);
    // Every page but the last was full; the last was short (or empty when the count is a multiple of 100).
    expect(requests).toHaveLength(Math.floor(expected / 100) + 1);
    expect(requests.at(-1)).toContain(`page=${Math.floor(expected / 100) + 1}`);
  });

  it('pages by the size the service applied when it capped the limit', async () => {
    const expected = await count(sql`select count(*)::int as n from organisations`);
    let read = 0;
    for await (const _ of client.allOrganisations({ ...everyOrganisation, limit: 1000 })) read += 1;
    expect(read).toBe(expected);
  });

  it('throws once the page cap is reached before the end of the list', async () => {
    const read: string[] = [];
    const iterate = async () => {
      for await (const organisation of client.allOrganisations(
        { ...everyOrganisation, limit: 10 },
        { maxPages: 3 },
      )) {
        read.push(organisation.reference);
      }
    };
    await expect(iterate()).rejects.toBeInstanceOf(OrgraphPageLimitError);
    expect(read).toHaveLength(30);
  });

  it('reads the default list exactly as paging it by hand does', async () => {
    const pages: string[] = [];
    let page = 1;
    for (;;) {
      const { rows } = await client.listOrganisations({ page, limit: 100 });
      pages.push(...rows.map((row) => row.reference));
      if (rows.length < 100) break;
      page += 1;
    }
    const iterated: string[] = [];
    for await (const organisation of client.allOrganisations({ limit: 100 }))
      iterated.push(organisation.reference);
    expect(iterated).toEqual(pages);
    expect(iterated.length).toBeGreaterThan(0);
  });
});

describe('a method per endpoint', () => {
  it('reads an organisation, its people and its ownership', async () => {
    const [first] = (await client.listOrganisations({ ...everyOrganisation, limit: 1 })).rows;
    const reference = first!.reference;
    const organisation = await client.getOrganisation(reference);
    expect(organisation).toMatchObject({ reference, name: first!.name });
    const people = await client.getOrganisationPeople(reference);
    expect(Object.keys(people).sort()).toEqual(['alumni', 'current_executives', 'current_professionals']);
    const ownership = await client.getOrganisationOwnership(reference);
    expect(ownership.organisation).toEqual({ reference, name: first!.name });
  });

  it('reads profiles, a profile, its articles and its ownership', async () => {
    const page = await client.listProfiles({ limit: 5 });
    expect(page.rows).toHaveLength(5);
    expect(page.meta).toMatchObject({ page: 1, rows_per_page: 5 });
    expect(page.correlationId).toEqual(expect.any(String));
    const [person] = page.rows;
    const profile = await client.getProfile(person!.reference);
    expect(profile.reference).toBe(person!.reference);
    expect(profile.names.fullName).toBe(person!.name);

    const [author] = await queryRows<{ reference: string }>(
      app.services.db,
      sql`select subject_profile_reference as reference from annotations
          where subject_profile_reference is not null limit 1`,
    );
    const articles = await client.listProfileArticles(author!.reference, { limit: 3 });
    expect(articles.rows.length).toBeGreaterThan(0);
    const article = await client.getArticle(articles.rows[0]!.article.reference);
    expect(article.title).toBe(articles.rows[0]!.article.title);

    expect(await client.getProfileOwnership(randomUUID())).toEqual([]);
    expect(await client.listProfileOwnership(randomUUID())).toEqual([]);
    expect(client.listOrganisationPeople).toBe(client.getOrganisationPeople);
  });

  it('saves an event search and lists its events; reads one event', async () => {
    const saved = await client.saveEventSearch([
      { fieldType: 'EventType', label: 'Moves', value: 'move', operator: 'EQUAL' },
    ]);
    expect(saved.ignored_field_types).toEqual([]);
    const events = await client.listEvents({ queryId: saved.queryId, limit: 5 });
    expect(events.rows.length).toBeGreaterThan(0);
    expect(new Set(events.rows.map((event) => event.event_type))).toEqual(new Set(['move']));
    const event = await client.getEvent(events.rows[0]!.reference);
    expect(event.reference).toBe(events.rows[0]!.reference);

    const [funding] = (await client.listEvents({ eventType: 'funding', limit: 1 })).rows;
    expect(funding?.event_type).toBe('funding');
  });

  it('lists suggestions, and iterates them to the end', async () => {
    const page = await client.listSuggestions({ query: 'bank', limit: 5 });
    expect(page.rows.length).toBeGreaterThan(0);
    for (const suggestion of page.rows) expect(suggestion.label.toLowerCase()).toContain('bank');
    let all = 0;
    for await (const _ of client.allSuggestions({ query: 'bank', limit: 5 })) all += 1;
    expect(all).toBeGreaterThanOrEqual(page.rows.length);
  });

  it('iterates a profile’s articles and the events', async () => {
    const [author] = await queryRows<{ reference: string; n: number }>(
      app.services.db,
      sql`select subject_profile_reference as reference, count(*)::int as n from annotations
          where subject_profile_reference is not null
          group by subject_profile_reference order by count(*) desc, subject_profile_reference limit 1`,
    );
    const items: string[] = [];
    for await (const item of client.allProfileArticles(author!.reference, { collapse: 'none', limit: 2 })) {
      items.push(item.article.reference);
    }
    expect(items.length).toBeGreaterThan(0);
    expect(new Set(items).size).toBe(items.length);

    let events = 0;
    for await (const event of client.allEvents({ eventType: 'public_offering', limit: 200 })) {
      expect(event.event_type).toBe('public_offering');
      events += 1;
    }
    expect(events).toBe(
      await count(sql`select count(*)::int as n from events where type = 'public_offering'`),
    );
  });
});

describe('errors', () => {
  it('throws OrgraphApiError with the envelope messages and the correlation id', async () => {
    const failure = await client.getOrganisation(randomUUID()).catch((error) => error);
    expect(failure).toBeInstanceOf(OrgraphApiError);
    expect(failure.status).toBe(404);
    expect(failure.messages[0]).toMatch(/organisation/i);
    expect(failure.correlationId).toEqual(expect.any(String));
  });

  it('reports a bad token as 401', async () => {
    const service = createApp(app.services);
    const stranger = createOrgraphClient({
      baseUrl: 'http://orgraph.test',
      token: 'orgr_not-a-real-token',
      fetch: (request) => service.fetch(request),
    });
    await expect(stranger.listProfiles()).rejects.toMatchObject({ name: 'OrgraphApiError', status: 401 });
  });
});

describe('graphql()', () => {
  it('runs a typed document and returns its data', async () => {
    const [first] = (await client.listOrganisations({ ...everyOrganisation, limit: 1 })).rows;
    const data = await client.graphql(OrganisationDocument, { reference: first!.reference });
    expect(data.organisation?.name).toBe(first!.name);
    expect(data.organisation?.reference).toBe(first!.reference);
  });

  it('throws OrgraphGraphqlError carrying the errors', async () => {
    const starter = createOrgraphClient({
      baseUrl: 'http://orgraph.test',
      token: app.tokens.starter,
      fetch: (request) => createApp(app.services).fetch(request),
    });
    const [article] = await queryRows<{ reference: string }>(
      app.services.db,
      sql`select reference from articles limit 1`,
    );
    const failure = await starter
      .graphql(ArticleTitleDocument, { reference: article!.reference })
      .catch((e) => e);
    expect(failure).toBeInstanceOf(OrgraphGraphqlError);
    expect(failure.errors[0].extensions.code).toBe('FORBIDDEN');
  });
});
