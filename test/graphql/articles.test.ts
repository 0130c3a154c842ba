import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countStatements, queryRows } from '../../src/db/database.ts';
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
const globalId = (type: string, reference: string) => Buffer.from(`${type}:${reference}`).toString('base64');

async function graph<Data>(query: string, variables?: Record<string, unknown>) {
  const { status, body } = await app.graphql<Data>(query, variables);
  expect(status).toBe(200);
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  return body.data!;
}

const annotationFields = `
  id reference type summary text start end historyCount
  speaker { kind name role organisationName profile { reference } }
  subject { name role organisationName profile { reference } }`;

interface GraphAnnotation {
  id: string;
  reference: string;
  type: string;
  summary: string;
  text: string | null;
  start: number;
  end: number;
  historyCount: number | null;
  speaker: {
    kind: string;
    name: string;
    role: string | null;
    organisationName: string | null;
    profile: { reference: string } | null;
  };
  subject: {
    name: string;
    role: string | null;
    organisationName: string | null;
    profile: { reference: string } | null;
  };
}
interface GraphArticle {
  id: string;
  reference: string;
  title: string;
  url: string | null;
  publishedAt: string;
  licence: string;
  content: string | null;
  offsetsUnit: string;
  annotations: GraphAnnotation[];
}
interface RestArticle {
  reference: string;
  title: string;
  url: string | null;
  published_at: string;
  content: string;
  licence: string;
  offsets_unit: string;
  annotations: {
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
  }[];
}

const articleQuery = `query ($reference: UUID!) {
  article(reference: $reference) {
    id reference title url publishedAt licence content offsetsUnit
    annotations { ${annotationFields} }
  }
}`;

describe('Article', () => {
  it('matches GET /v1/articles/{ref} on every shared field, under both licences', async () => {
    const samples = await rows<{ reference: string }>(sql`
      (select reference from articles where licence = 'full_text' order by reference limit 3)
      union all
      (select reference from articles r where licence = 'metadata_only'
        and exists (select 1 from annotations a where a.article_reference = r.reference) order by reference limit 2)`);
    for (const { reference } of samples) {
      const rest = (await app.getJson<{ success: RestArticle }>(`/v1/articles/${reference}`)).body.success;
      const { article } = await graph<{ article: GraphArticle }>(articleQuery, { reference });
      expect(article.id).toBe(globalId('Article', reference));
      expect(article.licence).toBe(rest.licence.toUpperCase());
      // The graph says null where REST sends "" for withheld content.
      expect(article.content).toBe(rest.licence === 'full_text' ? rest.content : null);
      expect({
        reference: article.reference,
        title: article.title,
        url: article.url,
        published_at: article.publishedAt,
        offsets_unit: article.offsetsUnit,
        annotations: article.annotations.map((a) => ({
          reference: a.reference,
          type: a.type.toLowerCase(),
          summary: a.summary,
          text: a.text,
          start: a.start,
          end: a.end,
          speaker: {
            kind: a.speaker.kind.toLowerCase(),
            name: a.speaker.name,
            role: a.speaker.role,
            organisation_name: a.speaker.organisationName,
            profile_reference: a.speaker.profile?.reference ?? null,
          },
          subject: {
            name: a.subject.name,
            role: a.subject.role,
            organisation_name: a.subject.organisationName,
            profile_reference: a.subject.profile?.reference ?? null,
          },
        })),
      }).toEqual({
        reference: rest.reference,
        title: rest.title,
        url: rest.url,
        published_at: rest.published_at,
        offsets_unit: rest.offsets_unit,
        annotations: rest.annotations,
      });
      for (const annotation of article.annotations) {
        expect(annotation.historyCount).toBeNull();
        if (article.content !== null)
          expect(article.content.slice(annotation.start, annotation.end)).toBe(annotation.text);
        else expect(annotation.text).toBeNull();
      }
    }
  });

  it('round-trips node(id) for Article and Annotation, applying the licence to a lone annotation', async () => {
    const [withheld] = await rows<{ reference: string; article_reference: string; summary: string }>(sql`
      select a.reference, a.article_reference, a.summary from annotations a join articles r on r.reference = a.article_reference
      where r.licence = 'metadata_only' order by a.reference limit 1`);
    const [shown] = await rows<{ reference: string; text: string }>(sql`
      select a.reference, a.text from annotations a join articles r on r.reference = a.article_reference
      where r.licence = 'full_text' order by a.reference limit 1`);
    const data = await graph<{
      article: { __typename: string; reference: string } | null;
      withheld: { __typename: string; reference: string; summary: string; text: string | null } | null;
      shown: { reference: string; text: string | null; article: { reference: string } } | null;
    }>(
      `query ($article: ID!, $withheld: ID!, $shown: ID!) {
        article: node(id: $article) { __typename ... on Article { reference } }
        withheld: node(id: $withheld) { __typename ... on Annotation { reference summary text } }
        shown: node(id: $shown) { ... on Annotation { reference text article { reference } } }
      }`,
      {
        article: globalId('Article', withheld!.article_reference),
        withheld: globalId('Annotation', withheld!.reference),
        shown: globalId('Annotation', shown!.reference),
      },
    );
    expect(data.article).toEqual({ __typename: 'Article', reference: withheld!.article_reference });
    expect(data.withheld).toEqual({
      __typename: 'Annotation',
      reference: withheld!.reference,
      summary: withheld!.summary,
      text: null,
    });
    expect(data.shown?.text).toBe(shown!.text);
  });

  it('is null for an unknown reference', async () => {
    const data = await graph<{ article: null }>(
      '{ article(reference: "00000000-0000-4000-8000-000000000000") { title } }',
    );
    expect(data.article).toBeNull();
  });
});

interface Page<Node> {
  totalCount: { value: number; isEstimate: boolean } | null;
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string; endCursor: string };
  edges: { cursor: string; node: Node }[];
}

describe('Organisation.articles', () => {
  const organisationArticles = `query ($id: ID!, $first: Int, $after: String, $last: Int, $before: String) {
    node(id: $id) { ... on Organisation {
      articles(first: $first, after: $after, last: $last, before: $before) {
        totalCount { value isEstimate }
        pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
        edges { cursor node { reference publishedAt } }
      }
    } }
  }`;

  it('lists the articles naming the organisation newest first, paging both ways', async () => {
    const [organisation] = await rows<{ reference: string }>(sql`
      select organisation_reference as reference from article_organisations group by organisation_reference
      order by count(*) desc, organisation_reference limit 1`);
    const expected = await rows<{ reference: string }>(sql`
      select r.reference from article_organisations ao join articles r on r.reference = ao.article_reference
      where ao.organisation_reference = ${organisation!.reference} order by r.published_at desc, r.reference desc`);
    expect(expected.length).toBeGreaterThanOrEqual(4);
    const id = globalId('Organisation', organisation!.reference);
    const read = (variables: Record<string, unknown>) =>
      graph<{ node: { articles: Page<{ reference: string; publishedAt: string }> } }>(organisationArticles, {
        id,
        ...variables,
      }).then((data) => data.node.articles);

    const forward: string[] = [];
    let after: string | undefined;
    let page: Page<{ reference: string; publishedAt: string }>;
    do {
      page = await read({ first: 3, after });
      expect(page.totalCount).toEqual({ value: expected.length, isEstimate: false });
      forward.push(...page.edges.map((edge) => edge.node.reference));
      after = page.pageInfo.endCursor;
    } while (page.pageInfo.hasNextPage);
    expect(forward).toEqual(expected.map((row) => row.reference));

    const backward: string[] = [];
    let before: string | undefined;
    do {
      page = await read({ last: 2, before });
      backward.unshift(...page.edges.map((edge) => edge.node.reference));
      before = page.pageInfo.startCursor;
    } while (page.pageInfo.hasPreviousPage);
    expect(backward).toEqual(forward);
  });

  it('costs the same number of statements for twenty organisations as for two', async () => {
    const organisations = await rows<{ reference: string }>(sql`
      select distinct organisation_reference as reference from article_organisations order by organisation_reference limit 20`);
    const query = `query ($ids: [ID!]!) {
      nodes(ids: $ids) { ... on Organisation { name articles(first: 2) {
        totalCount { value }
        edges { node { title annotations { summary text subject { profile { fullName } } } } }
      } } }
    }`;
    const ids = organisations.map((o) => globalId('Organisation', o.reference));
    const few = await countStatements(() => app.graphql(query, { ids: ids.slice(0, 2) }));
    const many = await countStatements(() => app.graphql(query, { ids }));
    expect(few.result.body.errors).toBeUndefined();
    expect(many.result.body.errors).toBeUndefined();
    const nodes = (many.result.body.data as { nodes: { articles: Page<unknown> }[] }).nodes;
    expect(nodes).toHaveLength(20);
    for (const node of nodes) expect(node.articles.edges.length).toBeGreaterThan(0);
    expect(many.statements).toBe(few.statements);
  });
});

describe('MoveEvent.articles', () => {
  it('lists the source articles of a move, newest first', async () => {
    const [move] = await rows<{ reference: string }>(sql`
      select e.reference from events e join event_articles ea on ea.event_reference = e.reference
      where e.type = 'move' group by e.reference order by count(*) desc, e.reference limit 1`);
    const expected = await rows<{ reference: string }>(sql`
      select r.reference from event_articles ea join articles r on r.reference = ea.article_reference
      where ea.event_reference = ${move!.reference} order by r.published_at desc, r.reference desc`);
    const data = await graph<{ node: { articles: { reference: string }[] } }>(
      'query ($id: ID!) { node(id: $id) { ... on MoveEvent { articles { reference } } } }',
      { id: globalId('MoveEvent', move!.reference) },
    );
    expect(data.node.articles.map((article) => article.reference)).toEqual(
      expected.map((row) => row.reference),
    );
  });
});
