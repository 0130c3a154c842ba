import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/database.ts';
import { openTestApp, type TestApp } from '../support/test-app.ts';

let app: TestApp;

beforeAll(async () => {
  app = await openTestApp();
});
afterAll(async () => {
  await app.services.quotas?.close();
  await app.close();
});

const rows = <Row>(query: SQL) => queryRows<Row>(app.services.db, query);

interface WireAnnotation {
  reference: string;
  type: string;
  summary: string;
  text: string | null;
  start: number;
  end: number;
  speaker: {
    kind: string;
    name: string;
    role: string | null;
    organisation_name: string | null;
    profile_reference: string | null;
  };
  subject: {
    name: string;
    role: string | null;
    organisation_name: string | null;
    profile_reference: string | null;
  };
}
interface ArticleRecord {
  reference: string;
  title: string;
  url: string | null;
  published_at: string;
  content: string;
  licence: 'full_text' | 'metadata_only';
  offsets_unit: string;
  annotations: WireAnnotation[];
  events: { reference: string; type: string }[];
  organisations: { reference: string; name: string }[];
}

async function getArticle(reference: string): Promise<ArticleRecord> {
  const { status, body } = await app.getJson<{ success: ArticleRecord; meta: null }>(
    `/v1/articles/${reference}`,
  );
  expect(status, reference).toBe(200);
  expect(body.meta).toBeNull();
  return body.success;
}

/** True when a character outside the Basic Multilingual Plane precedes `offset`, so UTF-16 and code point offsets differ. */
const astralBefore = (content: string, offset: number) => [...content.slice(0, offset)].length !== offset;

describe('GET /v1/articles/{articleReference}', () => {
  it('gives offsets in UTF-16 code units: content.slice(start, end) is the text of every statement of every full_text article', async () => {
    const articles = await rows<{ reference: string; annotations: number }>(sql`
      select r.reference, (select count(*) from annotations a where a.article_reference = r.reference)::int as annotations
      from articles r where r.licence = 'full_text' order by r.reference`);
    expect(articles.length).toBeGreaterThan(1000);
    let checked = 0;
    let afterAstral = 0;
    const queue = [...articles];
    const worker = async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        const article = await getArticle(next.reference);
        expect(article.licence).toBe('full_text');
        expect(article.offsets_unit).toBe('utf16');
        expect(article.annotations).toHaveLength(next.annotations);
        for (const annotation of article.annotations) {
          expect(annotation.text, annotation.reference).not.toBeNull();
          expect(article.content.slice(annotation.start, annotation.end), annotation.reference).toBe(
            annotation.text,
          );
          if (astralBefore(article.content, annotation.start)) afterAstral += 1;
          checked += 1;
        }
      }
    };
    await Promise.all(Array.from({ length: 6 }, worker));
    const [{ count }] = (await rows<{ count: number }>(sql`
      select count(*)::int as count from annotations a join articles r on r.reference = a.article_reference
      where r.licence = 'full_text'`)) as [{ count: number }];
    expect(checked).toBe(count);
    // Every article opens with an emoji and a byline that may hold CJK Extension B names, so code point
    // offsets would be wrong for all of these.
    expect(afterAstral).toBe(count);
  }, 120_000);

  it('orders statements by start and returns the stored fields', async () => {
    const [stored] = await rows<{
      reference: string;
      title: string;
      url: string | null;
      published_at: string;
    }>(sql`
      select reference, title, url, to_char(published_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as published_at
      from articles where licence = 'full_text' and url is not null
        and (select count(*) from annotations a where a.article_reference = articles.reference) >= 4
      order by reference limit 1`);
    const article = await getArticle(stored!.reference);
    expect(article).toMatchObject({
      reference: stored!.reference,
      title: stored!.title,
      url: stored!.url,
      published_at: stored!.published_at,
    });
    const starts = article.annotations.map((annotation) => annotation.start);
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
    const [first] = await rows<{
      reference: string;
      type: string;
      summary: string;
      speaker_kind: string;
      speaker_name: string;
      subject_name: string;
      subject_profile_reference: string | null;
    }>(sql`
      select reference, type::text as type, summary, speaker_kind::text as speaker_kind, speaker_name, subject_name, subject_profile_reference
      from annotations where article_reference = ${stored!.reference} order by start, "end", reference limit 1`);
    expect(article.annotations[0]).toMatchObject({
      reference: first!.reference,
      type: first!.type,
      summary: first!.summary,
      speaker: { kind: first!.speaker_kind, name: first!.speaker_name },
      subject: { name: first!.subject_name, profile_reference: first!.subject_profile_reference },
    });
  });

  it('withholds content and statement texts under metadata_only, keeping titles, summaries and offsets', async () => {
    const [stored] = await rows<{ reference: string; title: string }>(sql`
      select reference, title from articles r where licence = 'metadata_only'
        and exists (select 1 from annotations a where a.article_reference = r.reference)
      order by reference limit 1`);
    const annotations = await rows<{ reference: string; summary: string; start: number; end: number }>(sql`
      select reference, summary, start, "end" from annotations where article_reference = ${stored!.reference}
      order by start, "end", reference`);
    const article = await getArticle(stored!.reference);
    expect(article.title).toBe(stored!.title);
    expect(article.licence).toBe('metadata_only');
    expect(article.content).toBe('');
    expect(article.offsets_unit).toBe('utf16');
    expect(
      article.annotations.map(({ reference, summary, start, end, text }) => ({
        reference,
        summary,
        start,
        end,
        text,
      })),
    ).toEqual(annotations.map((annotation) => ({ ...annotation, text: null })));
  });

  it('lists the events it reports and the organisations it names', async () => {
    const [stored] = await rows<{ reference: string }>(sql`
      select r.reference from articles r where exists (select 1 from event_articles ea where ea.article_reference = r.reference)
        and (select count(*) from article_organisations ao where ao.article_reference = r.reference) >= 2
      order by r.reference limit 1`);
    const events = await rows<{ reference: string; type: string }>(sql`
      select e.reference, e.type::text as type from event_articles ea join events e on e.reference = ea.event_reference
      where ea.article_reference = ${stored!.reference}`);
    const organisations = await rows<{ reference: string; name: string }>(sql`
      select o.reference, o.name from article_organisations ao join organisations o on o.reference = ao.organisation_reference
      where ao.article_reference = ${stored!.reference}`);
    const article = await getArticle(stored!.reference);
    const byReference = (a: { reference: string }, b: { reference: string }) =>
      a.reference.localeCompare(b.reference);
    expect([...article.events].sort(byReference)).toEqual([...events].sort(byReference));
    expect([...article.organisations].sort(byReference)).toEqual([...organisations].sort(byReference));
  });

  it('is 404 for an unknown reference and 422 for a malformed one', async () => {
    const missing = await app.getJson<{ status: { messages: string[] } }>(
      '/v1/articles/00000000-0000-4000-8000-000000000000',
    );
    expect(missing.status).toBe(404);
    expect(missing.body.status.messages[0]).toContain('article');
    const malformed = await app.getJson<{ status: { messages: string[] } }>('/v1/articles/123');
    expect(malformed.status).toBe(422);
    expect(malformed.body.status.messages[0]).toContain('articleReference');
  });

  it('is refused to a plan that does not cover articles', async () => {
    const [stored] = await rows<{ reference: string }>(
      sql`select reference from articles order by reference limit 1`,
    );
    const { status, body } = await app.getJson<{ success: null; status: { messages: string[] } }>(
      `/v1/articles/${stored!.reference}`,
      app.tokens.professional,
    );
    expect(status).toBe(403);
    expect(body.success).toBeNull();
    expect(body.status.messages[0]).toContain('articles');
  });
});
