import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureStatements, countStatements, queryRows } from '../../src/db/database.ts';
import type { Envelope } from '../support/test-app.ts';
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
const upper = (value: string) => value.toUpperCase();

async function graph<Data>(query: string, variables?: Record<string, unknown>, token?: string) {
  const { status, body } = await app.graphql<Data>(query, variables, token);
  expect(status).toBe(200);
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  return body.data!;
}

async function rest<Success>(path: string) {
  const { status, body } = await app.getJson<Envelope<Success, unknown>>(path);
  expect(status, JSON.stringify(body.status)).toBe(200);
  return body;
}

const organisationFields = `
  id reference name description status verified confidence isFund employees sizeBand
  relationships { customers suppliers partners serviceProviders }
  scores { dimension score }
  aliases { name startDate endDate }
  tickers { value exchange { name code } currency status isPrimaryListing }
  domains { domain confidenceScore isValid }
  phones { number type isValid }
  industries { isPrimary industry { code name level parent { code level } } }
  addresses {
    company { city state country zipPostalCode }
    mailing { city state country zipPostalCode }
  }
  clientSummary {
    reference currencyCode summaryType publishDate
    entries { clientType clientTypeLabel numberOfClients fewerThan5 regulatoryAssetsUnderManagement }
  }
  clientSummaries { reference publishDate }`;

// biome-ignore lint/suspicious/noExplicitAny: compared field by field against the REST record.
type Json = any;

const richness = sql`
  (exists (select 1 from organisation_aliases x where x.organisation_reference = o.reference))::int
  + (exists (select 1 from organisation_tickers x where x.organisation_reference = o.reference))::int
  + ((select count(*) from organisation_addresses x where x.organisation_reference = o.reference) = 2)::int
  + (exists (select 1 from organisation_phones x where x.organisation_reference = o.reference))::int
  + (exists (select 1 from profile_stakes x where x.organisation_reference = o.reference and x.is_active))::int`;

/** An owner of other organisations with several AUM records and as many other parts as any such has. */
async function richOrganisation(): Promise<string> {
  const [rich] = await rows<{ reference: string }>(sql`
    select o.reference from organisations o
    where (select count(*) from client_summaries x where x.organisation_reference = o.reference) >= 2
      and exists (select 1 from organisation_ownerships x where x.owner_reference = o.reference)
    order by ${richness} desc, o.reference limit 1`);
  return rich!.reference;
}

/** A listed organisation (with tickers), as rich as any. */
async function listedOrganisation(): Promise<string> {
  const [listed] = await rows<{ reference: string }>(sql`
    select o.reference from organisations o
    where exists (select 1 from organisation_tickers x where x.organisation_reference = o.reference)
    order by ${richness} desc, o.reference limit 1`);
  return listed!.reference;
}

describe('Organisation', () => {
  it.each([
    ['an owner with AUM records', richOrganisation],
    ['a listed organisation', listedOrganisation],
  ])('matches GET /v1/organisations/{ref} on every shared field: %s', async (_label, pick) => {
    const reference = await pick();
    const [{ success: record }, data] = await Promise.all([
      rest<Json>(`/v1/organisations/${reference}`),
      graph<{ organisation: Json }>(
        `query ($reference: UUID!) { organisation(reference: $reference) { ${organisationFields} } }`,
        {
          reference,
        },
      ),
    ]);
    const node = data.organisation;
    expect(node.id).toBe(globalId('Organisation', reference));
    expect(node).toMatchObject({
      reference: record.reference,
      name: record.name,
      description: record.description,
      status: upper(record.status),
      verified: record.verified,
      confidence: record.confidence,
      employees: record.totals.employees,
      sizeBand: record.size,
      relationships: {
        customers: record.relationships.customers,
        suppliers: record.relationships.suppliers,
        partners: record.relationships.partners,
        serviceProviders: record.relationships.service_providers,
      },
    });
    expect(node.aliases).toEqual(
      record.aliases.map((a: Json) => ({ name: a.name, startDate: a.start_date, endDate: a.end_date })),
    );
    expect(node.tickers).toEqual(
      record.tickers.map((t: Json) => ({
        value: t.value,
        exchange: t.exchange,
        currency: t.currency,
        status: t.status,
        isPrimaryListing: t.is_primary_listing,
      })),
    );
    expect(node.domains).toEqual(
      record.domains.map((d: Json) => ({
        domain: d.domain,
        confidenceScore: d.confidence_score,
        isValid: d.is_valid,
      })),
    );
    expect(node.phones).toEqual(
      record.phones.map((p: Json) => ({ number: p.number, type: p.type, isValid: p.is_valid })),
    );
    expect(
      node.industries.map((i: Json) => ({
        code: i.industry.code,
        name: i.industry.name,
        level: i.industry.level,
        is_primary: i.isPrimary,
      })),
    ).toEqual(record.industries);
    for (const classification of node.industries) {
      const { code, level } = classification.industry;
      expect(classification.industry.parent).toEqual(
        level === 1 ? null : { code: code.slice(0, -2), level: level - 1 },
      );
    }
    for (const kind of ['company', 'mailing'] as const) {
      const address = record.addresses[kind];
      expect(node.addresses[kind]).toEqual(
        address && {
          city: address.city,
          state: address.state,
          country: address.country,
          zipPostalCode: address.zip_postal_code,
        },
      );
    }
    const summary = record.client_summary;
    if (summary === null) expect(node.clientSummary).toBeNull();
    else {
      expect(node.clientSummary).toMatchObject({
        currencyCode: summary.currency_code,
        summaryType: upper(summary.summary_type),
        publishDate: summary.publish_date,
        entries: summary.entries.map((e: Json) => ({
          clientType: e.client_type,
          clientTypeLabel: e.client_type_label,
          numberOfClients: e.number_of_clients,
          fewerThan5: e.fewer_than_5,
          regulatoryAssetsUnderManagement: e.regulatory_assets_under_management,
        })),
      });
      expect(node.clientSummaries[0]).toEqual({
        reference: node.clientSummary.reference,
        publishDate: summary.publish_date,
      });
      const dates = node.clientSummaries.map((s: Json) => s.publishDate);
      expect(dates).toEqual([...dates].sort().reverse());
    }
    const summaries = await rows<{ count: string }>(
      sql`select count(*) from client_summaries where organisation_reference = ${reference}`,
    );
    expect(node.clientSummaries).toHaveLength(Number(summaries[0]!.count));

    const scores = await rows<{ dimension: string; score: number }>(
      sql`select dimension, score from organisation_scores where organisation_reference = ${reference}`,
    );
    expect(node.scores).toHaveLength(scores.length);
    expect(node.scores).toEqual(
      expect.arrayContaining(scores.map((s) => ({ dimension: upper(s.dimension), score: s.score }))),
    );
  });

  it('matches the people endpoint: executives, professionals, alumni', async () => {
    const [busiest] = await rows<{ reference: string }>(sql`
      select organisation_reference as reference from experiences where organisation_reference is not null
      group by 1 order by count(*) desc, 1 limit 1`);
    const reference = busiest!.reference;
    const role =
      '{ title startDate endDate profile { reference fullName firstName lastName linkedinUrl confidenceScore } }';
    const [{ success: people }, data] = await Promise.all([
      rest<Json>(`/v1/organisations/${reference}/people`),
      graph<{ organisation: Json }>(
        `query ($reference: UUID!) { organisation(reference: $reference) {
          name currentExecutives ${role} currentProfessionals ${role} alumni ${role} } }`,
        { reference },
      ),
    ]);
    const organisation = data.organisation;
    const asRest = (r: Json) => ({
      reference: r.profile.reference,
      name: r.profile.fullName,
      first_name: r.profile.firstName,
      last_name: r.profile.lastName,
      linkedin_url: r.profile.linkedinUrl,
      confidence_score: r.profile.confidenceScore ?? 0,
      role: { title: r.title, organisation: organisation.name, start_date: r.startDate, end_date: r.endDate },
    });
    expect(organisation.currentExecutives.map(asRest)).toEqual(people.current_executives);
    expect(organisation.currentProfessionals.map(asRest)).toEqual(people.current_professionals);
    expect(organisation.alumni.map(asRest)).toEqual(people.alumni);
    expect(people.alumni.length).toBeGreaterThan(0);
  });

  it('matches the ownership endpoint: owners, subsidiaries, profile owners', async () => {
    const reference = await richOrganisation();
    const link = '{ ownershipLabel isControllingInterest relationshipType organisation { reference name } }';
    const [{ success: ownership }, data] = await Promise.all([
      rest<Json>(`/v1/organisations/${reference}/ownership`),
      graph<{ organisation: Json }>(
        `query ($reference: UUID!) { organisation(reference: $reference) {
          owners ${link} subsidiaries ${link}
          profileOwners { ownershipBand titleOrStatus isControlPerson isActive profile { reference fullName } } } }`,
        { reference },
      ),
    ]);
    const asRest = (l: Json) => ({
      reference: l.organisation.reference,
      name: l.organisation.name,
      ownership_label: l.ownershipLabel,
      is_controlling_interest: l.isControllingInterest,
      relationship_type: l.relationshipType.toLowerCase(),
    });
    expect(ownership.subsidiaries.length).toBeGreaterThan(0);
    expect(data.organisation.owners.map(asRest)).toEqual(ownership.org_owners);
    expect(data.organisation.subsidiaries.map(asRest)).toEqual(ownership.subsidiaries);
    expect(
      data.organisation.profileOwners.map((s: Json) => ({
        reference: s.profile.reference,
        name: s.profile.fullName,
        ownership_label: s.ownershipBand,
        title_or_status: s.titleOrStatus,
        is_control_person: s.isControlPerson,
      })),
    ).toEqual(ownership.profile_owners);
    expect(data.organisation.profileOwners.every((s: Json) => s.isActive)).toBe(true);
  });

  it('reads the whole record in one statement, with or without an assets summary', async () => {
    const [withSummary, withoutSummary] = await Promise.all(
      ['exists', 'not exists'].map(async (which) => {
        const [row] = await rows<{ reference: string }>(sql`
          select o.reference from organisations o
          where ${sql.raw(which)} (select 1 from client_summaries x where x.organisation_reference = o.reference)
          order by o.reference limit 1`);
        return row!.reference;
      }),
    );
    const wholeRecord = `query ($reference: UUID!) { organisation(reference: $reference) {
      name aliases { name } tickers { value } domains { domain } phones { number }
      industries { isPrimary } addresses { company { city } } clientSummary { publishDate } } }`;
    for (const [reference, hasSummary] of [
      [withSummary!, true],
      [withoutSummary!, false],
    ] as const) {
      const { result, sent } = await captureStatements(() => app.graphql<Json>(wholeRecord, { reference }));
      expect(result.body.errors).toBeUndefined();
      expect(result.body.data.organisation.clientSummary === null).toBe(!hasSummary);
      // Beside the caller's token lookup (the embedded store keeps no viewer cache).
      const reads = sent.filter((statement) => !statement.query.includes('"api_tokens"'));
      expect(reads).toHaveLength(1);
    }
  });

  it('answers null for an unknown reference', async () => {
    const data = await graph<{ organisation: null }>(
      '{ organisation(reference: "6f1d3a52-0000-4000-8000-000000000000") { name } }',
    );
    expect(data.organisation).toBeNull();
  });

  it('round-trips node(id) for Organisation, ClientSummary and ProfileStake', async () => {
    const reference = await richOrganisation();
    const [stake] = await rows<{ reference: string; profile_reference: string; ownership_band: string }>(
      sql`select reference, profile_reference, ownership_band from profile_stakes order by reference limit 1`,
    );
    const [summary] = await rows<{ reference: string }>(
      sql`select reference from client_summaries where organisation_reference = ${reference} order by publish_date desc limit 1`,
    );
    const data = await graph<{ organisation: Json; stake: Json; summary: Json }>(
      `query ($organisation: ID!, $stake: ID!, $summary: ID!) {
        organisation: node(id: $organisation) { id ... on Organisation { reference } }
        stake: node(id: $stake) { id ... on ProfileStake { reference ownershipBand profile { reference } } }
        summary: node(id: $summary) { id ... on ClientSummary { reference organisation { reference } } }
      }`,
      {
        organisation: globalId('Organisation', reference),
        stake: globalId('ProfileStake', stake!.reference),
        summary: globalId('ClientSummary', summary!.reference),
      },
    );
    expect(data.organisation).toEqual({ id: globalId('Organisation', reference), reference });
    expect(data.stake).toEqual({
      id: globalId('ProfileStake', stake!.reference),
      reference: stake!.reference,
      ownershipBand: stake!.ownership_band,
      profile: { reference: stake!.profile_reference },
    });
    expect(data.summary).toEqual({
      id: globalId('ClientSummary', summary!.reference),
      reference: summary!.reference,
      organisation: { reference },
    });
  });

  it('hides ownership from a plan that does not cover it, keeping the rest', async () => {
    const reference = await richOrganisation();
    const { body } = await app.graphql<{ organisation: Json }>(
      `query ($reference: UUID!) { organisation(reference: $reference) { name subsidiaries { ownershipLabel } } }`,
      { reference },
      app.tokens.starter,
    );
    expect(body.data?.organisation.name).toEqual(expect.any(String));
    expect(body.data?.organisation.subsidiaries).toBeNull();
    expect(body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });
});

interface Connection {
  totalCount: { value: number; isEstimate: boolean };
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string; endCursor: string };
  edges: { cursor: string; node: { reference: string; name: string } }[];
}

const connectionQuery = `query ($filter: OrganisationFilter, $first: Int, $after: String, $last: Int, $before: String) {
  organisations(filter: $filter, first: $first, after: $after, last: $last, before: $before) {
    totalCount { value isEstimate }
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
    edges { cursor node { reference name } }
  }
}`;

async function restReferences(query: string): Promise<{ references: string[]; total: number }> {
  const references: string[] = [];
  let total = 0;
  for (let page = 1; page < 100; page += 1) {
    const body = await rest<{ reference: string }[]>(`/v1/organisations${query}&limit=100&page=${page}`);
    total = (body.meta as { total: number }).total;
    references.push(...body.success.map((row) => row.reference));
    if (body.success.length < 100) break;
  }
  return { references, total };
}

describe('organisations connection', () => {
  const cases: [string, string, Record<string, unknown>][] = [
    ['defaults', '?', {}],
    [
      'every kind of filter',
      '?type=all&status=active&verified=true&min_confidence=20&country=US&activity_type=move,funding&activity_period=year&score_min=30&score_dimension=growth_momentum',
      {
        kind: 'ALL',
        status: 'ACTIVE',
        verified: true,
        minConfidence: 20,
        country: 'US',
        activityTypes: ['MOVE', 'FUNDING'],
        activityPeriod: 'YEAR',
        minScore: { dimension: 'GROWTH_MOMENTUM', min: 30 },
      },
    ],
    [
      'funds with AUM in an industry',
      '?type=fund&has_raum=true&industry=40',
      { kind: 'FUNDS', hasAum: true, industry: '40' },
    ],
    [
      'a name with a wildcard, every organisation',
      '?show_empty=true&type=all&name=%25',
      { showEmpty: true, kind: 'ALL', name: '%' },
    ],
  ];

  it.each(cases)('pages forward over the same rows as REST: %s', async (_label, query, filter) => {
    const expected = await restReferences(query);
    expect(expected.references.length).toBeGreaterThan(0);
    const seen: string[] = [];
    let after: string | undefined;
    let totalCount: Connection['totalCount'] | undefined;
    for (let pages = 0; pages < 100; pages += 1) {
      const { organisations } = await graph<{ organisations: Connection }>(connectionQuery, {
        filter,
        first: 37,
        after,
      });
      totalCount = organisations.totalCount;
      seen.push(...organisations.edges.map((edge) => edge.node.reference));
      expect(organisations.pageInfo.hasPreviousPage).toBe(after !== undefined);
      if (!organisations.pageInfo.hasNextPage) break;
      after = organisations.pageInfo.endCursor;
    }
    expect(seen).toEqual(expected.references);
    expect(totalCount).toEqual({ value: expected.total, isEstimate: false });
  });

  it('pages backward from the end over the same rows in the same order', async () => {
    const filter = { kind: 'ALL', status: 'DORMANT' };
    const expected = await restReferences('?type=all&status=dormant');
    const seen: string[] = [];
    let before: string | undefined;
    const { organisations: last } = await graph<{ organisations: Connection }>(connectionQuery, {
      filter,
      last: 25,
    });
    seen.unshift(...last.edges.map((edge) => edge.node.reference));
    expect(last.pageInfo.hasNextPage).toBe(false);
    before = last.pageInfo.startCursor;
    for (let pages = 0; last.pageInfo.hasPreviousPage && pages < 100; pages += 1) {
      const page: { organisations: Connection } = await graph(connectionQuery, { filter, last: 25, before });
      const { organisations } = page;
      seen.unshift(...organisations.edges.map((edge) => edge.node.reference));
      if (!organisations.pageInfo.hasPreviousPage) break;
      before = organisations.pageInfo.startCursor;
    }
    expect(seen).toEqual(expected.references);
  });

  it('refuses more than 100 per page, a foreign cursor and bad filter values', async () => {
    const tooMany = await app.graphql(connectionQuery, { first: 101 });
    expect(tooMany.body.errors?.[0]?.message).toMatch(/100/);
    const cursor = await app.graphql(connectionQuery, { first: 5, after: 'bm90IG91cnM' });
    expect(cursor.body.errors?.[0]?.extensions?.code).toBe('INVALID_PARAMETER');
    for (const filter of [
      { industry: '99' },
      { country: 'Atlantis' },
      { minConfidence: 101 },
      { minScore: { dimension: 'IPO_READINESS', min: 0 } },
    ]) {
      const { body } = await app.graphql(connectionQuery, { filter, first: 5 });
      expect(body.errors?.[0]?.extensions?.code, JSON.stringify(filter)).toBe('INVALID_PARAMETER');
    }
  });

  it('loads nested fields in a number of statements that does not grow with the page', async () => {
    const nested = (
      first: number,
    ) => `{ organisations(first: ${first}, filter: { kind: ALL }) { edges { node {
      ${organisationFields}
      currentExecutives { title profile { fullName } } alumni { title }
      owners { relationshipType organisation { name } } subsidiaries { organisation { name } }
      profileOwners { ownershipBand profile { fullName stakes { ownershipBand organisation { name } } } }
    } } } }`;
    const few = await countStatements(() => app.graphql(nested(2)));
    const many = await countStatements(() => app.graphql(nested(12)));
    expect(few.result.body.errors).toBeUndefined();
    expect(many.result.body.errors).toBeUndefined();
    // Loads of one depth can land in two batches when their parents resolve in different ticks, so allow a
    // little slack; an N+1 would add at least one statement per extra organisation (ten here).
    expect(many.statements).toBeLessThanOrEqual(few.statements + 2);
    expect(many.statements).toBeLessThanOrEqual(24);
  });
});

describe('Profile.stakes and Article.organisations', () => {
  it('Profile.stakes matches GET /v1/profiles/{ref}/ownership', async () => {
    const [holder] = await rows<{ profile_reference: string }>(sql`
      select profile_reference from profile_stakes group by 1 order by count(*) desc, 1 limit 1`);
    const reference = holder!.profile_reference;
    const [{ success: items }, data] = await Promise.all([
      rest<Json[]>(`/v1/profiles/${reference}/ownership`),
      graph<{ profile: Json }>(
        `query ($reference: UUID!) { profile(reference: $reference) { stakes {
          organisation { reference name } ownershipType ownershipBand titleOrStatus isControlPerson isActive startDate endDate } } }`,
        { reference },
      ),
    ]);
    expect(items.length).toBeGreaterThan(0);
    expect(
      data.profile.stakes.map((s: Json) => ({
        organisation: s.organisation,
        ownershipType: s.ownershipType,
        ownershipPercentage: s.ownershipBand,
        titleOrStatus: s.titleOrStatus,
        isControlPerson: s.isControlPerson,
        isActive: s.isActive,
        startDate: s.startDate,
        endDate: s.endDate,
      })),
    ).toEqual(items);
  });

  it('Article.organisations lists the organisations the article names', async () => {
    const [article] = await rows<{ article_reference: string }>(sql`
      select article_reference from article_organisations group by 1 order by count(*) desc, 1 limit 1`);
    const expected = await rows<{ reference: string }>(sql`
      select o.reference from article_organisations ao join organisations o on o.reference = ao.organisation_reference
      where ao.article_reference = ${article!.article_reference} order by o.name, o.reference`);
    const data = await graph<{ node: { organisations: { reference: string }[] } }>(
      'query ($id: ID!) { node(id: $id) { ... on Article { organisations { reference } } } }',
      { id: globalId('Article', article!.article_reference) },
    );
    expect(data.node.organisations).toEqual(expected);
  });
});
