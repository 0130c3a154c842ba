import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countStatements, queryRows } from '../../src/db/database.ts';
import type { EventDetails } from '../../src/domain/vocabulary/events.ts';
import type { ClientSummaryEntry } from '../../src/domain/vocabulary/organisations.ts';
import { type Envelope, openTestApp, type TestApp } from '../support/test-app.ts';

interface PageMeta {
  total: number;
  rows_per_page: number;
  page: number;
  total_pages: number;
  links: Record<string, { href: string; method: string } | undefined>;
}

interface EventWire {
  reference: string;
  event_type: string;
  summary: string | null;
  publish_date: string;
  // biome-ignore lint/suspicious/noExplicitAny: the tests read `data` by path and assert every value they read.
  data: Record<string, any>;
  links: unknown[];
}

type EventList = Envelope<EventWire[], PageMeta>;

let app: TestApp;
beforeAll(async () => {
  app = await openTestApp();
});
afterAll(() => app.close());

const rows = <Row>(query: ReturnType<typeof sql>) => queryRows<Row>(app.services.db, query);

async function one<Row>(query: ReturnType<typeof sql>): Promise<Row> {
  const [row] = await rows<Row>(query);
  if (!row) throw new Error('the demo dataset has no row for this test');
  return row;
}

async function getEvent(reference: string, token?: string) {
  return app.getJson<Envelope<EventWire, null>>(`/v1/events/${reference}`, token);
}

async function list(query: string, token?: string) {
  return app.getJson<EventList>(`/v1/events${query}`, token);
}

/** Follows `next-page` links from `path`, returning every row in order; fails past `maxPages`. */
async function walk(path: string, maxPages = 50): Promise<EventWire[]> {
  const seen: EventWire[] = [];
  let next: string | undefined = path;
  for (let pages = 0; next; pages += 1) {
    if (pages >= maxPages) throw new Error(`more than ${maxPages} pages from ${path}`);
    const { status, body }: { status: number; body: EventList } = await app.getJson<EventList>(next);
    expect(status).toBe(200);
    seen.push(...body.success);
    next = body.meta.links['next-page']?.href;
  }
  return seen;
}

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

describe('GET /v1/events/{eventReference}: one record per event type', () => {
  it('describes a move: person, title, organisation with listings and addresses, pay', async () => {
    const move = await one<{
      reference: string;
      profile_reference: string;
      organisation_reference: string;
      occupation_reference: string | null;
      move_type: string;
      effective_date: Date;
      publish_date: Date;
      summary: string;
      details: EventDetails;
    }>(sql`select reference, profile_reference, organisation_reference, occupation_reference, move_type,
        effective_date, publish_date, summary, details
      from events e where type = 'move' and occupation_reference is not null
        and jsonb_array_length(coalesce(details->'compensations', '[]')) > 0
        and exists (select 1 from organisation_tickers t where t.organisation_reference = e.organisation_reference)
        and exists (select 1 from organisation_addresses a where a.organisation_reference = e.organisation_reference and a.kind = 'company')
      order by reference limit 1`);
    const person = await one<{ first_name: string; last_name: string }>(
      sql`select first_name, last_name from profiles where reference = ${move.profile_reference}`,
    );
    const occupation = await one<{ name: string }>(
      sql`select name from occupations where reference = ${move.occupation_reference}`,
    );
    const organisation = await one<{ name: string }>(
      sql`select name from organisations where reference = ${move.organisation_reference}`,
    );
    const tickers = await rows<{ value: string; exchange_code: string; is_primary_listing: boolean }>(
      sql`select value, exchange_code, is_primary_listing from organisation_tickers where organisation_reference = ${move.organisation_reference}`,
    );
    const company = await one<{ country: string | null; city: string | null }>(
      sql`select country, city from organisation_addresses where organisation_reference = ${move.organisation_reference} and kind = 'company'`,
    );

    const { status, body } = await getEvent(move.reference);
    expect(status).toBe(200);
    expect(body.status).toEqual({ code: 200, messages: [] });
    expect(body.meta).toBeNull();
    const event = body.success;
    expect(Object.keys(event).sort()).toEqual([
      'data',
      'event_type',
      'links',
      'publish_date',
      'reference',
      'summary',
    ]);
    expect(event).toMatchObject({
      reference: move.reference,
      event_type: 'move',
      summary: move.summary,
      publish_date: iso(move.publish_date),
      links: [],
    });
    expect(event.data.move_type).toBe(move.move_type);
    expect(event.data.profile).toEqual({
      reference: move.profile_reference,
      first_name: person.first_name,
      last_name: person.last_name,
    });
    expect(event.data.occupation).toEqual({ reference: move.occupation_reference, name: occupation.name });
    expect(event.data.organisation.reference).toBe(move.organisation_reference);
    expect(event.data.organisation.name).toBe(organisation.name);
    expect(event.data.organisation.listings.map((l: { value: string }) => l.value).sort()).toEqual(
      tickers.map((t) => t.value).sort(),
    );
    expect(event.data.organisation.listings[0]).toEqual({
      value: expect.any(String),
      exchange: { name: expect.any(String), code: expect.any(String) },
      currency: expect.any(String),
      status: expect.any(String),
      is_primary_listing: tickers.some((t) => t.is_primary_listing),
    });
    expect(event.data.organisation.addresses.company).toMatchObject({
      country: company.country,
      city: company.city,
    });
    expect(event.data.effective_date).toBe(iso(move.effective_date));
    expect(event.data.compensations).toEqual(move.details.compensations);
    expect(Array.isArray(event.data.articles)).toBe(true);
  });

  it('describes a funding round with its investors', async () => {
    const funding = await one<{ reference: string; organisation_reference: string; details: EventDetails }>(
      sql`select reference, organisation_reference, details from events e where type = 'funding'
        and exists (select 1 from event_participants p where p.event_reference = e.reference) order by reference limit 1`,
    );
    const investors = await rows<{ profile_reference: string; role: string }>(
      sql`select profile_reference, role from event_participants where event_reference = ${funding.reference}`,
    );
    const { status, body } = await getEvent(funding.reference);
    expect(status).toBe(200);
    const { data } = body.success;
    expect(body.success.event_type).toBe('funding');
    expect(data.organisation.reference).toBe(funding.organisation_reference);
    expect(data).toMatchObject({
      round: funding.details.round,
      value: funding.details.value,
      currency_code: funding.details.currency_code,
    });
    expect(
      data.participants.map((p: { reference: string; role: string }) => `${p.reference}:${p.role}`).sort(),
    ).toEqual(investors.map((i) => `${i.profile_reference}:${i.role}`).sort());
  });

  it('describes a deal: acquirer, acquiree and terms', async () => {
    const deal = await one<{
      reference: string;
      acquirer_reference: string;
      acquiree_reference: string;
      acquiree_name: string;
      details: EventDetails;
    }>(sql`select e.reference, e.acquirer_reference, e.acquiree_reference, o.name as acquiree_name, e.details
      from events e join organisations o on o.reference = e.acquiree_reference
      where e.type = 'deal' order by e.reference limit 1`);
    const { body } = await getEvent(deal.reference);
    const { data } = body.success;
    expect(body.success.event_type).toBe('deal');
    expect(data.acquirer.reference).toBe(deal.acquirer_reference);
    expect(data.organisation).toEqual(data.acquirer);
    expect(data.acquiree).toEqual({ reference: deal.acquiree_reference, name: deal.acquiree_name });
    expect(data.deal).toEqual(deal.details.deal);
    expect(Object.keys(data.deal).sort()).toEqual(
      ['announcement_date', 'completion_date', 'status', 'terms', 'type', 'value', 'value_usd'].sort(),
    );
  });

  it('describes a public offering', async () => {
    const offering = await one<{ reference: string; organisation_reference: string; details: EventDetails }>(
      sql`select reference, organisation_reference, details from events where type = 'public_offering' order by reference limit 1`,
    );
    const { body } = await getEvent(offering.reference);
    expect(body.success.event_type).toBe('public_offering');
    expect(body.success.data.organisation.reference).toBe(offering.organisation_reference);
    expect(body.success.data.offering).toEqual(offering.details.offering);
  });

  it('describes an assets-under-management record from its client summary', async () => {
    const record = await one<{
      reference: string;
      organisation_reference: string;
      currency_code: string;
      summary_type: string;
      summary_date: Date;
      entries: ClientSummaryEntry[];
    }>(sql`select e.reference, e.organisation_reference, s.currency_code, s.summary_type,
        s.publish_date as summary_date, s.entries
      from events e join client_summaries s on s.reference = e.client_summary_reference
      where e.type = 'client_summary' order by e.reference limit 1`);
    const { body } = await getEvent(record.reference);
    expect(body.success.event_type).toBe('client_summary');
    expect(body.success.data).toMatchObject({
      organisation: { reference: record.organisation_reference },
      currency_code: record.currency_code,
      summary_type: record.summary_type,
      publish_date: iso(record.summary_date),
    });
    expect(body.success.data.entries).toEqual(record.entries);
  });

  it('answers 404 for an unknown reference and 422 for a malformed one', async () => {
    const unknown = await getEvent('00000000-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(404);
    expect(unknown.body.status.messages[0]).toContain('00000000-0000-4000-8000-000000000000');
    const malformed = await getEvent('not-a-uuid');
    expect(malformed.status).toBe(422);
    expect(malformed.body.status.messages[0]).toContain('eventReference');
  });
});

describe('move articles: licence and coverage rules', () => {
  async function moveWithArticle(licence: 'full_text' | 'metadata_only') {
    return one<{ event_reference: string; article_reference: string }>(sql`
      select ea.event_reference, ea.article_reference from event_articles ea
      join events e on e.reference = ea.event_reference
      join articles a on a.reference = ea.article_reference
      where e.type = 'move' and a.licence = ${licence}
        and exists (select 1 from annotations n where n.article_reference = a.reference)
      order by ea.event_reference limit 1`);
  }

  interface EmbeddedArticle {
    reference: string;
    title: string;
    published_at: string;
    annotations: { reference: string; text: string | null; summary: string; start: number; end: number }[];
  }

  async function articleOf(eventReference: string, articleReference: string, token?: string) {
    const { body } = await getEvent(eventReference, token);
    return {
      articles: body.success.data.articles as EmbeddedArticle[],
      article: (body.success.data.articles as EmbeddedArticle[]).find(
        (a) => a.reference === articleReference,
      ),
    };
  }

  it('embeds every source article with its annotations and their texts under a full-text licence', async () => {
    const link = await moveWithArticle('full_text');
    const expected = await rows<{ reference: string }>(
      sql`select article_reference as reference from event_articles where event_reference = ${link.event_reference}`,
    );
    const annotations = await rows<{ reference: string; text: string; start: number; end: number }>(
      sql`select reference, text, start, "end" from annotations where article_reference = ${link.article_reference} order by start, "end", reference`,
    );
    const article = await one<{ title: string; published_at: Date }>(
      sql`select title, published_at from articles where reference = ${link.article_reference}`,
    );
    const { articles, article: embedded } = await articleOf(link.event_reference, link.article_reference);
    expect(articles.map((a) => a.reference).sort()).toEqual(expected.map((e) => e.reference).sort());
    expect(embedded).toMatchObject({ title: article.title, published_at: iso(article.published_at) });
    expect(
      (embedded as EmbeddedArticle).annotations.map(({ reference, text, start, end }) => ({
        reference,
        text,
        start,
        end,
      })),
    ).toEqual(annotations);
  });

  it('withholds annotation texts (not summaries) under a metadata-only licence', async () => {
    const link = await moveWithArticle('metadata_only');
    const { article } = await articleOf(link.event_reference, link.article_reference);
    const annotations = (article as EmbeddedArticle).annotations;
    expect(annotations.length).toBeGreaterThan(0);
    for (const annotation of annotations) {
      expect(annotation.text).toBeNull();
      expect(annotation.summary.length).toBeGreaterThan(0);
    }
  });

  it("leaves data.articles empty when the caller's plan does not cover articles", async () => {
    const link = await moveWithArticle('full_text');
    const enterprise = await articleOf(link.event_reference, link.article_reference, app.tokens.enterprise);
    const professional = await articleOf(
      link.event_reference,
      link.article_reference,
      app.tokens.professional,
    );
    expect(enterprise.articles.length).toBeGreaterThan(0);
    expect(professional.articles).toEqual([]);
  });

  it('refuses a plan that does not cover events', async () => {
    const link = await moveWithArticle('full_text');
    const { status, body } = await getEvent(link.event_reference, app.tokens.starter);
    expect(status).toBe(403);
    expect(body.status.messages[0]).toContain('events');
  });
});

describe('GET /v1/events', () => {
  it('lists newest first with the default page size and an exact total', async () => {
    const { status, body } = await list('');
    expect(status).toBe(200);
    const expected = await rows<{ reference: string }>(
      sql`select reference from events order by publish_date desc, reference desc limit 20`,
    );
    const { count } = await one<{ count: number }>(sql`select count(*)::int as count from events`);
    expect(body.success.map((event) => event.reference)).toEqual(expected.map((row) => row.reference));
    expect(body.meta).toMatchObject({ total: count, rows_per_page: 20, page: 1 });
    expect(body.meta.links['next-page']?.href).toBe('/v1/events?page=2&limit=20');
  });

  it('caps limit at 200', async () => {
    const { body } = await list('?limit=500');
    expect(body.success).toHaveLength(200);
    expect(body.meta.rows_per_page).toBe(200);
  });

  it('reads a page of 200 mixed events in a fixed number of statements', async () => {
    const small = await countStatements(() => list('?limit=200&page=3'));
    const large = await countStatements(() => list('?limit=200'));
    const types = new Set(large.result.body.success.map((event) => event.event_type));
    expect(types.size).toBe(5);
    // authentication, page, count (two with its time limit), nine kinds of embedded records at most
    expect(large.statements).toBeLessThanOrEqual(16);
    expect(small.statements).toBe(large.statements);
  });

  const filters: [string, string, (query: { value: string }) => ReturnType<typeof sql>][] = [
    ['eventType', 'public_offering', () => sql`type = 'public_offering'`],
    [
      'organisationReference',
      'organisation',
      ({ value }) =>
        sql`(organisation_reference = ${value} or acquirer_reference = ${value} or acquiree_reference = ${value})`,
    ],
    [
      'profileReference',
      'profile',
      ({ value }) =>
        sql`(profile_reference = ${value} or reference in (select event_reference from event_participants where profile_reference = ${value}))`,
    ],
    ['published_after', 'recent day', ({ value }) => sql`publish_date >= ${value}::timestamptz`],
    ['published_before', 'old instant', ({ value }) => sql`publish_date < ${value}::timestamptz`],
  ];

  it.each(filters)(
    'filters by %s: every row matches and the total is the matching count',
    async (name, sample, where) => {
      let value = sample;
      if (sample === 'organisation') {
        // An acquiree that is also an organisation of other events, so both sides of the match are exercised.
        value = (
          await one<{ reference: string }>(sql`select acquiree_reference as reference from events e
          where type = 'deal' and exists (select 1 from events m where m.organisation_reference = e.acquiree_reference)
          order by acquiree_reference limit 1`)
        ).reference;
      }
      if (sample === 'profile') {
        value = (
          await one<{
            reference: string;
          }>(sql`select p.profile_reference as reference from event_participants p
          where exists (select 1 from events m where m.profile_reference = p.profile_reference)
          order by p.profile_reference limit 1`)
        ).reference;
      }
      if (sample === 'recent day') {
        // A date (midnight UTC) some 500 events back: the seed dates everything relative to its own day.
        const row = await one<{ day: string }>(
          sql`select to_char(publish_date, 'YYYY-MM-DD') as day from events order by publish_date desc offset 500 limit 1`,
        );
        value = row.day;
      }
      if (sample === 'old instant') {
        const row = await one<{ at: Date }>(
          sql`select publish_date as at from events order by publish_date offset 800 limit 1`,
        );
        value = iso(row.at)!;
      }
      const expected = await rows<{ reference: string }>(
        sql`select reference from events where ${where({ value })} order by publish_date desc, reference desc`,
      );
      const { count: all } = await one<{ count: number }>(sql`select count(*)::int as count from events`);
      const seen = await walk(`/v1/events?${name}=${encodeURIComponent(value)}&limit=200`);
      const { body } = await list(`?${name}=${encodeURIComponent(value)}`);
      expect(expected.length).toBeGreaterThan(0);
      expect(expected.length).toBeLessThan(all);
      expect(body.meta.total).toBe(expected.length);
      expect(seen.map((event) => event.reference)).toEqual(expected.map((row) => row.reference));
    },
  );

  it('combines filters with AND', async () => {
    const organisation = await one<{ reference: string }>(
      sql`select organisation_reference as reference from events where organisation_reference is not null
        group by organisation_reference having count(distinct type) >= 2 and bool_or(type = 'move')
        order by count(*) desc, organisation_reference limit 1`,
    );
    const { body } = await list(`?organisationReference=${organisation.reference}&eventType=move&limit=200`);
    const expected = await rows<{ reference: string }>(
      sql`select reference from events where type = 'move' and ${organisation.reference} in (organisation_reference, acquirer_reference, acquiree_reference)
        order by publish_date desc, reference desc`,
    );
    const any = await list(`?organisationReference=${organisation.reference}&limit=200`);
    expect(body.success.map((event) => event.reference)).toEqual(expected.map((row) => row.reference));
    expect(any.body.meta.total).toBeGreaterThan(body.meta.total);
    for (const event of body.success) expect(event.event_type).toBe('move');
  });

  it('walks a filtered list through next-page links, visiting every row exactly once', async () => {
    const seen = await walk('/v1/events?eventType=deal&limit=37');
    const references = seen.map((event) => event.reference);
    const { count } = await one<{ count: number }>(
      sql`select count(*)::int as count from events where type = 'deal'`,
    );
    expect(new Set(references).size).toBe(references.length);
    expect(references).toHaveLength(count);
    for (let i = 1; i < seen.length; i += 1) {
      const [previous, current] = [seen[i - 1]!, seen[i]!];
      const ordered =
        previous.publish_date > current.publish_date ||
        (previous.publish_date === current.publish_date && previous.reference > current.reference);
      expect(ordered).toBe(true);
    }
  });

  it('treats the publication window as half-open: after inclusive, before exclusive', async () => {
    const event = await one<{ publish_date: Date }>(
      sql`select publish_date from events order by publish_date desc, reference desc offset 10 limit 1`,
    );
    const instant = iso(event.publish_date)!;
    const from = await list(`?published_after=${instant}&limit=200`);
    const until = await list(`?published_before=${instant}&limit=200`);
    expect(from.body.success.at(-1)?.publish_date).toBe(instant);
    expect(until.body.success.every((row) => row.publish_date < instant)).toBe(true);
    const { count } = await one<{ count: number }>(sql`select count(*)::int as count from events`);
    expect(from.body.meta.total + until.body.meta.total).toBe(count);
  });

  it.each([
    ['eventType=merger', 'eventType'],
    ['queryId=123', 'queryId'],
    ['organisationReference=acme', 'organisationReference'],
    ['profileReference=x', 'profileReference'],
    ['published_after=yesterday', 'published_after'],
    ['published_before=2025-02-30', 'published_before'],
    ['published_after=2025-01-01T10:00:00', 'published_after'],
    ['limit=0', 'limit'],
    ['page=-1', 'page'],
  ])('rejects %s with 422 naming the parameter', async (query, parameter) => {
    const { status, body } = await list(`?${query}`);
    expect(status).toBe(422);
    expect(body.status.code).toBe(422);
    expect(body.status.messages.join(' ')).toContain(parameter);
  });

  it('answers a window whose start is after its end, or is its end, with an empty page', async () => {
    for (const window of [
      'published_after=2026-02-01&published_before=2026-01-01',
      'published_after=2024-05-01&published_before=2000-01-01T00:00:00Z',
      'published_after=2026-01-01&published_before=2026-01-01',
    ]) {
      const { status, body } = await list(`?${window}`);
      expect(status, window).toBe(200);
      expect(body.success).toEqual([]);
      expect(body.meta).toMatchObject({ total: 0, page: 1, total_pages: 1 });
    }
  });

  it('answers 404 with a clear message for an unknown queryId', async () => {
    const queryId = '4f1c2b1e-0000-4000-8000-000000000001';
    const { status, body } = await list(`?queryId=${queryId}`);
    expect(status).toBe(404);
    expect(body.status.messages[0]).toContain(`No saved search has the queryId ${queryId}`);
  });
});
