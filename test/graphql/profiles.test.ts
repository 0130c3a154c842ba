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

async function graph<Data>(query: string, variables?: Record<string, unknown>, token?: string) {
  const { status, body } = await app.graphql<Data>(query, variables, token);
  expect(status).toBe(200);
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  return body.data!;
}

interface Page<Node> {
  totalCount: { value: number; isEstimate: boolean } | null;
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string; endCursor: string };
  edges: { cursor: string; node: Node }[];
}

interface RestProfile {
  reference: string;
  names: { fullName: string; firstName: string; lastName: string };
  current_role: { title: string; organisation: string | null; start_date: string | null } | null;
  confidenceScore: number | null;
  experiences: {
    reference: string;
    organisation: { reference: string; name: string } | null;
    occupation_title: string;
    occupation: { reference: string; name: string } | null;
    startDate: string | null;
    endDate: string | null;
  }[];
  emails: { value: string; domain: string; confidence_score: number; is_valid: boolean }[];
  links: { Linkedin: { href: string } } | [];
}

const profileFields = `
  id reference fullName firstName lastName linkedinUrl confidenceScore
  currentRole { reference occupationTitle startDate organisation { name } }
  experiences {
    reference occupationTitle startDate endDate isCurrent
    organisation { reference name } occupation { reference name }
  }
  emails { value domain confidenceScore isValid }`;

interface GraphProfile {
  id: string;
  reference: string;
  fullName: string;
  firstName: string;
  lastName: string;
  linkedinUrl: string | null;
  confidenceScore: number | null;
  currentRole: {
    reference: string;
    occupationTitle: string;
    startDate: string | null;
    organisation: { name: string } | null;
  } | null;
  experiences: {
    reference: string;
    occupationTitle: string;
    startDate: string | null;
    endDate: string | null;
    isCurrent: boolean;
    organisation: { reference: string; name: string } | null;
    occupation: { reference: string; name: string } | null;
  }[];
  emails: { value: string; domain: string; confidenceScore: number; isValid: boolean }[];
}

describe('Profile', () => {
  it('matches GET /v1/profiles/{ref} on every shared field', async () => {
    const people = await rows<{ reference: string }>(sql`
      (select p.reference from profiles p where p.linkedin_url is not null
        and (select count(*) from experiences e where e.profile_reference = p.reference and e.end_date is null) >= 2
        order by p.reference limit 2)
      union all
      (select p.reference from profiles p where p.linkedin_url is null
        and not exists (select 1 from experiences e where e.profile_reference = p.reference and e.end_date is null)
        order by p.reference limit 1)`);
    expect(people).toHaveLength(3);
    for (const { reference } of people) {
      const rest = (await app.getJson<{ success: RestProfile }>(`/v1/profiles/${reference}`)).body.success;
      const { profile } = await graph<{ profile: GraphProfile }>(
        `query ($reference: UUID!) { profile(reference: $reference) { ${profileFields} } }`,
        { reference },
      );
      expect(profile.id).toBe(globalId('Profile', reference));
      expect({
        reference: profile.reference,
        names: { fullName: profile.fullName, firstName: profile.firstName, lastName: profile.lastName },
        current_role: profile.currentRole && {
          title: profile.currentRole.occupationTitle,
          organisation: profile.currentRole.organisation?.name ?? null,
          start_date: profile.currentRole.startDate,
        },
        confidenceScore: profile.confidenceScore,
        experiences: profile.experiences.map((e) => ({
          reference: e.reference,
          organisation: e.organisation,
          occupation_title: e.occupationTitle,
          occupation: e.occupation,
          startDate: e.startDate,
          endDate: e.endDate,
        })),
        emails: profile.emails.map((m) => ({
          value: m.value,
          domain: m.domain,
          confidence_score: m.confidenceScore,
          is_valid: m.isValid,
        })),
        links: profile.linkedinUrl ? { Linkedin: { href: profile.linkedinUrl } } : [],
      }).toEqual(rest);
      for (const experience of profile.experiences)
        expect(experience.isCurrent).toBe(experience.endDate === null);
    }
  });

  it('is null for an unknown reference', async () => {
    const data = await graph<{ profile: null }>(
      '{ profile(reference: "00000000-0000-4000-8000-000000000000") { reference } }',
    );
    expect(data.profile).toBeNull();
  });

  it('round-trips node(id) for Profile, Experience and Occupation', async () => {
    const [experience] = await rows<{
      reference: string;
      profile_reference: string;
      occupation_reference: string;
    }>(sql`
      select reference, profile_reference, occupation_reference from experiences
      where occupation_reference is not null order by reference limit 1`);
    const data = await graph<{
      profile: { __typename: string; reference: string } | null;
      experience: { __typename: string; reference: string; profile: { reference: string } } | null;
      occupation: { __typename: string; reference: string } | null;
    }>(
      `query ($profile: ID!, $experience: ID!, $occupation: ID!) {
        profile: node(id: $profile) { __typename ... on Profile { reference } }
        experience: node(id: $experience) { __typename ... on Experience { reference profile { reference } } }
        occupation: node(id: $occupation) { __typename ... on Occupation { reference } }
      }`,
      {
        profile: globalId('Profile', experience!.profile_reference),
        experience: globalId('Experience', experience!.reference),
        occupation: globalId('Occupation', experience!.occupation_reference),
      },
    );
    expect(data.profile).toEqual({ __typename: 'Profile', reference: experience!.profile_reference });
    expect(data.experience).toEqual({
      __typename: 'Experience',
      reference: experience!.reference,
      profile: { reference: experience!.profile_reference },
    });
    expect(data.occupation).toEqual({
      __typename: 'Occupation',
      reference: experience!.occupation_reference,
    });
  });
});

describe('Query.profiles', () => {
  const pageQuery = `query ($first: Int, $after: String, $last: Int, $before: String, $filter: ProfileFilter) {
    profiles(first: $first, after: $after, last: $last, before: $before, filter: $filter) {
      totalCount { value isEstimate }
      pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
      edges { cursor node { reference } }
    }
  }`;
  const page = (variables: Record<string, unknown>) =>
    graph<{ profiles: Page<{ reference: string }> }>(pageQuery, variables).then((data) => data.profiles);

  async function restOrder(query: string, pages: number): Promise<string[]> {
    const references: string[] = [];
    for (let n = 1; n <= pages; n += 1) {
      const { body } = await app.getJson<{ success: { reference: string }[] }>(
        `/v1/profiles?${query}&page=${n}`,
      );
      references.push(...body.success.map((row) => row.reference));
    }
    return references;
  }

  it('pages forward and backward in the REST order', async () => {
    const expected = await restOrder('limit=100', 2);
    const forward: string[] = [];
    const cursors: string[] = [];
    let after: string | undefined;
    for (let n = 0; n < 5; n += 1) {
      const result = await page({ first: 40, after });
      expect(result.edges).toHaveLength(40);
      expect(result.pageInfo.hasNextPage).toBe(true);
      expect(result.pageInfo.hasPreviousPage).toBe(n > 0);
      expect(result.totalCount).toEqual({ value: 6000, isEstimate: false });
      forward.push(...result.edges.map((edge) => edge.node.reference));
      cursors.push(...result.edges.map((edge) => edge.cursor));
      after = result.pageInfo.endCursor;
    }
    expect(forward).toEqual(expected);

    const backward: string[] = [];
    let before: string | undefined = cursors[199];
    while (before) {
      const result = await page({ last: 40, before });
      backward.unshift(...result.edges.map((edge) => edge.node.reference));
      before = result.pageInfo.hasPreviousPage ? result.pageInfo.startCursor : undefined;
    }
    expect(backward).toEqual(expected.slice(0, 199));
  });

  it('applies every REST filter, with the same order and total', async () => {
    const [organisation] = await rows<{ reference: string }>(sql`
      select organisation_reference as reference from experiences where organisation_reference is not null
      group by organisation_reference order by count(distinct profile_reference) desc, organisation_reference limit 1`);
    const cases: [Record<string, unknown>, string][] = [
      [{ search: 'son' }, 'search=son'],
      [{ search: '%' }, 'search=%25'],
      [
        { organisationReference: organisation!.reference },
        `organisationReference=${organisation!.reference}`,
      ],
      [{ profileType: 'BUSINESS_OWNER', search: 'a' }, 'profileType=business_owner&search=a'],
      [{ profileType: 'INVESTMENT_ADVISOR' }, 'profileType=investment_advisor'],
      [{ profileType: 'BROKER' }, 'profileType=broker'],
      [{ profileType: 'FUNDING_PARTICIPANT' }, 'profileType=funding_participant'],
      [{ profileType: 'PUBLIC_OFFERING_PARTICIPANT' }, 'profileType=public_offering_participant'],
    ];
    for (const [filter, query] of cases) {
      const { body } = await app.getJson<{ success: { reference: string }[]; meta: { total: number } }>(
        `/v1/profiles?${query}&limit=100`,
      );
      const result = await page({ first: 100, filter });
      expect(result.totalCount?.value, query).toBe(body.meta.total);
      expect(
        result.edges.map((edge) => edge.node.reference),
        query,
      ).toEqual(body.success.map((row) => row.reference));
    }
  });

  it('refuses more than 100 a page and a cursor it did not issue', async () => {
    const tooMany = await app.graphql(pageQuery, { first: 101 });
    expect(tooMany.body.errors?.[0]?.message).toContain('100');
    const forged = await app.graphql(pageQuery, { first: 2, after: 'bm90IGEgY3Vyc29y' });
    expect(forged.body.errors?.[0]?.extensions?.code).toBe('INVALID_PARAMETER');
  });
});

interface GraphAnnotation {
  reference: string;
  type: string;
  text: string | null;
  historyCount: number | null;
}
interface GraphProfileArticle {
  article: { reference: string; publishedAt: string };
  about: GraphAnnotation[];
  by: GraphAnnotation[];
  events: { reference: string }[];
}
interface RestProfileArticle {
  article: { reference: string; published_at: string };
  about: { reference: string; type: string; text: string | null; history_count?: number }[];
  by: { reference: string; type: string; text: string | null; history_count?: number }[];
  events: { reference: string }[];
}

const articlesQuery = `query ($reference: UUID!, $first: Int, $after: String, $last: Int, $before: String,
    $type: AnnotationType, $role: AnnotationRole, $collapse: Collapse!) {
  profile(reference: $reference) {
    articles(first: $first, after: $after, last: $last, before: $before, type: $type, role: $role, collapse: $collapse) {
      totalCount { value isEstimate }
      pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
      edges { cursor node {
        article { reference publishedAt }
        about { reference type text historyCount }
        by { reference type text historyCount }
        events { reference }
      } }
    }
  }
}`;

describe('Profile.articles', () => {
  let person: string;

  beforeAll(async () => {
    const [busy] = await rows<{ person: string }>(sql`
      select a.subject_profile_reference as person from annotations a
      where a.subject_profile_reference is not null and a.organisation_reference is not null
      group by a.subject_profile_reference, a.organisation_reference, a.type,
        coalesce(a.speaker_profile_reference::text, a.speaker_kind::text || ':' || a.speaker_name)
      having count(distinct a.article_reference) >= 3
      order by count(*) desc, a.subject_profile_reference limit 1`);
    person = busy!.person;
  });

  const fromRest = (item: RestProfileArticle) => ({
    article: { reference: item.article.reference, publishedAt: item.article.published_at },
    about: item.about.map((a) => ({
      reference: a.reference,
      type: a.type.toUpperCase(),
      text: a.text,
      historyCount: a.history_count ?? null,
    })),
    by: item.by.map((a) => ({
      reference: a.reference,
      type: a.type.toUpperCase(),
      text: a.text,
      historyCount: a.history_count ?? null,
    })),
    events: item.events.map((e) => ({ reference: e.reference })),
  });

  for (const [args, query] of [
    [{ collapse: 'LATEST' }, ''],
    [{ collapse: 'NONE' }, 'collapse=none'],
    [{ collapse: 'NONE', role: 'ABOUT' }, 'collapse=none&role=about'],
    [{ collapse: 'LATEST', type: 'REVIEW' }, 'type=review'],
  ] as const) {
    it(`matches GET /v1/profiles/{ref}/articles?${query}`, async () => {
      const { body } = await app.getJson<{ success: RestProfileArticle[]; meta: { total: number } }>(
        `/v1/profiles/${person}/articles?${query}&limit=100`,
      );
      expect(body.success.length).toBeGreaterThan(0);
      const data = await graph<{ profile: { articles: Page<GraphProfileArticle> } }>(articlesQuery, {
        reference: person,
        first: 100,
        ...args,
      });
      const connection = data.profile.articles;
      expect(connection.totalCount).toEqual({ value: body.meta.total, isEstimate: false });
      expect(connection.edges.map((edge) => edge.node)).toEqual(body.success.map(fromRest));
    });
  }

  it('pages forward and backward through the same list', async () => {
    const all = (
      await graph<{ profile: { articles: Page<GraphProfileArticle> } }>(articlesQuery, {
        reference: person,
        first: 100,
        collapse: 'NONE',
      })
    ).profile.articles.edges.map((edge) => edge.node.article.reference);
    expect(all.length).toBeGreaterThanOrEqual(4);
    const forward: string[] = [];
    let after: string | undefined;
    let last: Page<GraphProfileArticle> | undefined;
    do {
      last = (
        await graph<{ profile: { articles: Page<GraphProfileArticle> } }>(articlesQuery, {
          reference: person,
          first: 2,
          after,
          collapse: 'NONE',
        })
      ).profile.articles;
      expect(last.totalCount?.value).toBe(all.length);
      forward.push(...last.edges.map((edge) => edge.node.article.reference));
      after = last.pageInfo.endCursor;
    } while (last.pageInfo.hasNextPage);
    expect(forward).toEqual(all);

    const backward: string[] = [];
    let before: string | undefined;
    do {
      last = (
        await graph<{ profile: { articles: Page<GraphProfileArticle> } }>(articlesQuery, {
          reference: person,
          last: 3,
          before,
          collapse: 'NONE',
        })
      ).profile.articles;
      backward.unshift(...last.edges.map((edge) => edge.node.article.reference));
      before = last.pageInfo.startCursor;
    } while (last.pageInfo.hasPreviousPage);
    expect(backward).toEqual(all);
  });

  it('is null, with a FORBIDDEN error, for a plan without articles, leaving the rest of the profile', async () => {
    const { body } = await app.graphql<{ profile: { fullName: string; articles: null } }>(
      'query ($reference: UUID!) { profile(reference: $reference) { fullName articles(first: 1) { totalCount { value } } } }',
      { reference: person },
      app.tokens.professional,
    );
    expect(body.data?.profile.fullName).toBeTruthy();
    expect(body.data?.profile.articles).toBeNull();
    expect(body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });

  it('loads the articles of many people with as many statements as for a few', async () => {
    const nested = (first: number) => `{
      profiles(first: ${first}, filter: { profileType: BUSINESS_OWNER }) {
        edges { node {
          fullName
          currentRole { occupationTitle organisation { name } occupation { name } }
          emails { value }
          articles(first: 3) {
            totalCount { value }
            edges { node {
              article { title licence }
              about { summary text speaker { name profile { fullName } } }
              by { summary subject { profile { lastName } } }
              events { reference }
            } }
          }
        } }
      }
    }`;
    const few = await countStatements(() => app.graphql(nested(4)));
    const many = await countStatements(() => app.graphql(nested(60)));
    expect(few.result.body.errors).toBeUndefined();
    expect(many.result.body.errors).toBeUndefined();
    const people = (many.result.body.data as { profiles: Page<{ articles: Page<unknown> }> }).profiles.edges;
    expect(people).toHaveLength(60);
    expect(people.filter((edge) => edge.node.articles.edges.length > 0).length).toBeGreaterThan(3);
    expect(many.statements).toBe(few.statements);
  });
});
