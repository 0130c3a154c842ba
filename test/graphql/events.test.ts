import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countStatements, queryRows } from '../../src/db/database.ts';
import { type Envelope, openTestApp, type TestApp } from '../support/test-app.ts';

// biome-ignore lint/suspicious/noExplicitAny: the tests compare wire values read by path.
type Json = any;

let app: TestApp;
beforeAll(async () => {
  app = await openTestApp();
});
afterAll(() => app.close());

const rows = <Row>(query: ReturnType<typeof sql>) => queryRows<Row>(app.services.db, query);

async function gql(query: string, variables?: Record<string, unknown>, token?: string) {
  const { body } = await app.graphql<Json>(query, variables, token);
  return body;
}

async function data(query: string, variables?: Record<string, unknown>, token?: string): Promise<Json> {
  const body = await gql(query, variables, token);
  expect(body.errors).toBeUndefined();
  return body.data;
}

async function rest(path: string): Promise<Json> {
  const { status, body } = await app.getJson<Envelope<Json, Json>>(path);
  expect(status).toBe(200);
  return body;
}

const eventFields = `
  __typename id reference eventType summary publishDate links
  organisation { reference name }
  ... on MoveEvent {
    moveType effectiveDate
    profile { reference fullName }
    occupation { reference name }
    compensations { type value valueType valueSuffix }
  }
  ... on FundingEvent { round value currencyCode participants { reference } }
  ... on DealEvent {
    acquirer { reference name }
    acquiree { reference name }
    deal { type status value valueUsd announcementDate completionDate terms }
  }
  ... on PublicOfferingEvent { offering { exchange ticker price sharesOffered currencyCode } participants { reference } }
  ... on ClientSummaryEvent { clientSummary { reference currencyCode publishDate entries { clientType numberOfClients } } }
`;

const typeNames = {
  move: 'MoveEvent',
  funding: 'FundingEvent',
  deal: 'DealEvent',
  public_offering: 'PublicOfferingEvent',
  client_summary: 'ClientSummaryEvent',
} as const;

async function sampleOf(type: keyof typeof typeNames): Promise<string> {
  const [row] = await rows<{ reference: string }>(sql`
    select reference from events e where type = ${type}
      and (type <> 'move' or (occupation_reference is not null and jsonb_array_length(coalesce(details->'compensations', '[]')) > 0))
      and (type not in ('funding', 'public_offering') or exists (select 1 from event_participants p where p.event_reference = e.reference))
    order by reference limit 1`);
  if (!row) throw new Error(`no ${type} event in the demo dataset`);
  return row.reference;
}

/** What the graph must say for a REST event record. */
function expectParity(node: Json, wire: Json) {
  expect(node.reference).toBe(wire.reference);
  expect(node.eventType).toBe(wire.event_type.toUpperCase());
  expect(node.__typename).toBe(typeNames[wire.event_type as keyof typeof typeNames]);
  expect(node.summary).toBe(wire.summary);
  expect(node.publishDate).toBe(wire.publish_date);
  expect(node.links).toEqual(wire.links);
  expect(node.organisation).toEqual(
    wire.data.organisation
      ? { reference: wire.data.organisation.reference, name: wire.data.organisation.name }
      : null,
  );
  const { data } = wire;
  switch (wire.event_type) {
    case 'move':
      expect(node.moveType).toBe(data.move_type);
      expect(node.effectiveDate).toBe(data.effective_date);
      expect(node.profile.reference).toBe(data.profile.reference);
      expect(node.profile.fullName).toContain(data.profile.last_name);
      expect(node.occupation).toEqual(data.occupation);
      expect(node.compensations).toEqual(
        data.compensations.map((c: Json) => ({
          type: c.type,
          value: c.value,
          valueType: c.value_type,
          valueSuffix: c.value_suffix,
        })),
      );
      expect(node.compensations.length).toBeGreaterThan(0);
      break;
    case 'funding':
      expect(node).toMatchObject({ round: data.round, value: data.value, currencyCode: data.currency_code });
      expect(node.participants.map((p: Json) => p.reference)).toEqual(
        data.participants.map((p: Json) => p.reference),
      );
      expect(node.participants.length).toBeGreaterThan(0);
      break;
    case 'deal':
      expect(node.acquirer).toEqual(data.acquirer);
      expect(node.acquiree).toEqual(data.acquiree);
      expect(node.deal).toEqual({
        type: data.deal.type,
        status: data.deal.status,
        value: data.deal.value,
        valueUsd: data.deal.value_usd,
        announcementDate: data.deal.announcement_date,
        completionDate: data.deal.completion_date,
        terms: data.deal.terms,
      });
      break;
    case 'public_offering':
      expect(node.offering).toEqual({
        exchange: data.offering.exchange,
        ticker: data.offering.ticker,
        price: data.offering.price,
        sharesOffered: data.offering.shares_offered,
        currencyCode: data.offering.currency_code,
      });
      expect(node.participants.map((p: Json) => p.reference)).toEqual(
        data.participants.map((p: Json) => p.reference),
      );
      break;
    case 'client_summary':
      expect(node.clientSummary.currencyCode).toBe(data.currency_code);
      expect(node.clientSummary.publishDate).toBe(data.publish_date);
      expect(node.clientSummary.entries).toEqual(
        data.entries.map((e: Json) => ({ clientType: e.client_type, numberOfClients: e.number_of_clients })),
      );
      break;
  }
}

describe('event(reference:) and node(id:)', () => {
  it.each(Object.keys(typeNames) as (keyof typeof typeNames)[])(
    'shows a %s event as REST does, and round-trips its global id',
    async (type) => {
      const reference = await sampleOf(type);
      const wire = (await rest(`/v1/events/${reference}`)).success;
      const { event } = await data(`query($r: UUID!) { event(reference: $r) { ${eventFields} } }`, {
        r: reference,
      });
      expectParity(event, wire);
      expect(Buffer.from(event.id, 'base64').toString()).toBe(`${typeNames[type]}:${reference}`);
      const { node } = await data(`query($id: ID!) { node(id: $id) { ... on Event { ${eventFields} } } }`, {
        id: event.id,
      });
      expect(node).toEqual(event);
    },
  );

  it('answers null for an unknown reference, and for an id naming the wrong event type', async () => {
    const deal = await sampleOf('deal');
    const unknown = await data('{ event(reference: "00000000-0000-4000-8000-000000000000") { reference } }');
    expect(unknown.event).toBeNull();
    const wrongType = Buffer.from(`MoveEvent:${deal}`).toString('base64');
    const { nodes } = await data('query($ids: [ID!]!) { nodes(ids: $ids) { id } }', { ids: [wrongType] });
    expect(nodes).toEqual([null]);
    // An ID whose reference is not a UUID is not one of ours at all: refused, not null.
    const notUuid = Buffer.from('DealEvent:acme').toString('base64');
    const refused = await gql('query($ids: [ID!]!) { nodes(ids: $ids) { id } }', { ids: [notUuid] });
    expect(refused.errors?.[0]?.extensions?.code).toBe('INVALID_PARAMETER');
  });

  it('refuses a plan that does not cover events, with a FORBIDDEN code', async () => {
    const body = await gql(
      '{ events(first: 1) { edges { node { reference } } } }',
      undefined,
      app.tokens.starter,
    );
    expect(body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const allowed = await data(
      '{ events(first: 1) { edges { node { reference } } } }',
      undefined,
      app.tokens.professional,
    );
    expect(allowed.events.edges).toHaveLength(1);
    const [row] = await rows<{ reference: string }>(
      sql`select organisation_reference as reference from events where organisation_reference is not null order by reference limit 1`,
    );
    const nested = await gql(
      'query($r: UUID!) { organisation(reference: $r) { reference events(first: 1) { edges { node { reference } } } } }',
      { r: row!.reference },
      app.tokens.starter,
    );
    expect(nested.data.organisation).toEqual({ reference: row!.reference, events: null });
    expect(nested.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });
});

const listQuery = `query($first: Int, $after: String, $last: Int, $before: String, $filter: EventFilter, $queryId: UUID) {
  events(first: $first, after: $after, last: $last, before: $before, filter: $filter, queryId: $queryId) {
    totalCount { value isEstimate }
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
    edges { cursor node { reference } }
  }
}`;

async function walkForward(variables: Record<string, unknown>, first = 100) {
  const references: string[] = [];
  let after: string | null = null;
  for (let pages = 0; ; pages += 1) {
    if (pages > 60) throw new Error('too many pages');
    const { events } = await data(listQuery, { ...variables, first, after });
    references.push(...events.edges.map((edge: Json) => edge.node.reference));
    if (!events.pageInfo.hasNextPage) return { references, total: events.totalCount };
    after = events.pageInfo.endCursor;
  }
}

async function restReferences(query: string): Promise<string[]> {
  const references: string[] = [];
  let next: string | undefined = `/v1/events?${query}&limit=200`;
  while (next) {
    const body = await rest(next);
    references.push(...body.success.map((event: Json) => event.reference));
    next = body.meta.links['next-page']?.href;
  }
  return references;
}

describe('events connection', () => {
  it('walks every event of a filtered list with cursors, in the REST order, with the same total', async () => {
    const { references, total } = await walkForward({ filter: { eventType: 'PUBLIC_OFFERING' } });
    const expected = await restReferences('eventType=public_offering');
    expect(references).toEqual(expected);
    expect(total).toEqual({ value: expected.length, isEstimate: false });
  });

  it('pages backwards with last/before to the same rows', async () => {
    const forward = await data(listQuery, { first: 30, filter: { eventType: 'FUNDING' } });
    const cursorOfLast = forward.events.edges.at(-1).cursor;
    const backward = await data(listQuery, {
      last: 10,
      before: cursorOfLast,
      filter: { eventType: 'FUNDING' },
    });
    expect(backward.events.edges.map((e: Json) => e.node.reference)).toEqual(
      forward.events.edges.slice(19, 29).map((e: Json) => e.node.reference),
    );
    expect(backward.events.pageInfo.hasPreviousPage).toBe(true);
  });

  it('applies every filter as REST does', async () => {
    const [row] = await rows<{ organisation: string; profile: string; from: string; until: string }>(sql`
      select (select acquiree_reference from events where type = 'deal' order by reference limit 1) as organisation,
        (select profile_reference from event_participants order by profile_reference limit 1) as profile,
        (select to_char(publish_date, 'YYYY-MM-DD') from events where type = 'deal' order by publish_date offset 300 limit 1) as from,
        (select to_char(publish_date, 'YYYY-MM-DD') from events where type = 'deal' order by publish_date offset 500 limit 1) as until`);
    const { organisation, profile, from, until } = row!;
    const cases: [Record<string, unknown>, string][] = [
      [{ organisationReference: organisation }, `organisationReference=${organisation}`],
      [{ profileReference: profile }, `profileReference=${profile}`],
      [
        { eventType: 'DEAL', publishedAfter: `${from}T00:00:00Z`, publishedBefore: `${until}T00:00:00Z` },
        `eventType=deal&published_after=${from}&published_before=${until}`,
      ],
    ];
    for (const [filter, query] of cases) {
      const { references } = await walkForward({ filter });
      expect(references.length).toBeGreaterThan(0);
      expect(references).toEqual(await restReferences(query));
    }
  });

  it('refuses pages over 100 and cursors it did not issue', async () => {
    const tooMany = await gql(listQuery, { first: 101 });
    expect(tooMany.errors?.[0]?.message).toContain('100');
    const forged = await gql(listQuery, { first: 5, after: 'bm90LWEtY3Vyc29y' });
    expect(forged.errors?.[0]?.extensions?.code).toBe('INVALID_PARAMETER');
  });

  it('answers an empty publication window with no events, and rejects an unknown saved search', async () => {
    const window = await gql(listQuery, {
      first: 5,
      filter: { publishedAfter: '2025-02-01T00:00:00Z', publishedBefore: '2025-01-01T00:00:00Z' },
    });
    expect(window.errors).toBeUndefined();
    expect(window.data?.events.edges).toEqual([]);
    const unknown = await gql(listQuery, { first: 5, queryId: '4f1c2b1e-0000-4000-8000-000000000002' });
    expect(unknown.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });
});

const nestedQuery = `query($ids: [ID!]!) {
  nodes(ids: $ids) {
    ... on Organisation {
      reference
      events(first: 50) {
        totalCount { value }
        edges { node {
          reference organisation { name }
          ... on DealEvent { acquiree { name } }
          ... on FundingEvent { participants { fullName } }
        } }
      }
    }
  }
}`;

describe('edges into events', () => {
  it('lists an organisation and a person events as REST filters them, with their totals', async () => {
    const [row] = await rows<{ organisation: string; profile: string }>(sql`
      select (select organisation_reference from events group by organisation_reference order by count(*) desc, organisation_reference limit 1) as organisation,
        (select profile_reference from event_participants p where exists (select 1 from events e where e.profile_reference = p.profile_reference)
          order by profile_reference limit 1) as profile`);
    const organisationId = Buffer.from(`Organisation:${row!.organisation}`).toString('base64');
    const profileId = Buffer.from(`Profile:${row!.profile}`).toString('base64');
    const { nodes } = await data(
      `query($ids: [ID!]!) { nodes(ids: $ids) {
        ... on Organisation { events(first: 100) { totalCount { value } edges { node { reference } } } }
        ... on Profile { events(first: 100) { totalCount { value } edges { node { reference } } } }
      } }`,
      { ids: [organisationId, profileId] },
    );
    const byOrganisation = await restReferences(`organisationReference=${row!.organisation}`);
    const byProfile = await restReferences(`profileReference=${row!.profile}`);
    expect(nodes[0].events.edges.map((e: Json) => e.node.reference)).toEqual(byOrganisation.slice(0, 100));
    expect(nodes[0].events.totalCount.value).toBe(byOrganisation.length);
    expect(nodes[1].events.edges.map((e: Json) => e.node.reference)).toEqual(byProfile);
    expect(nodes[1].events.totalCount.value).toBe(byProfile.length);
  });

  it('pages an organisation events with cursors', async () => {
    const [row] = await rows<{ organisation: string }>(sql`
      select organisation_reference as organisation from events group by organisation_reference having count(*) > 12
      order by organisation_reference limit 1`);
    const id = Buffer.from(`Organisation:${row!.organisation}`).toString('base64');
    const page = `query($id: ID!, $after: String) { node(id: $id) { ... on Organisation {
      events(first: 5, after: $after) { pageInfo { hasNextPage endCursor } edges { node { reference } } } } } }`;
    const seen: string[] = [];
    let after: string | null = null;
    for (let pages = 0; pages < 50; pages += 1) {
      const { node } = await data(page, { id, after });
      seen.push(...node.events.edges.map((e: Json) => e.node.reference));
      if (!node.events.pageInfo.hasNextPage) break;
      after = node.events.pageInfo.endCursor;
    }
    expect(seen).toEqual(await restReferences(`organisationReference=${row!.organisation}`));
  });

  it('lists the events an article reports', async () => {
    const [link] = await rows<{ article: string; event: string }>(
      sql`select article_reference as article, event_reference as event from event_articles order by article_reference limit 1`,
    );
    const id = Buffer.from(`Article:${link!.article}`).toString('base64');
    const { node } = await data(
      'query($id: ID!) { node(id: $id) { ... on Article { events { reference eventType } } } }',
      {
        id,
      },
    );
    expect(node.events).toContainEqual({ reference: link!.event, eventType: 'MOVE' });
  });

  it('reads nested event lists in as many statements for ten organisations as for three', async () => {
    // Organisations with deals and funding rounds, so both page sizes need every kind of related record.
    const organisations = await rows<{ reference: string }>(sql`
      select organisation_reference as reference from events group by organisation_reference
      having bool_or(type = 'deal') and bool_or(type = 'funding') order by organisation_reference limit 10`);
    const ids = organisations.map((o) => Buffer.from(`Organisation:${o.reference}`).toString('base64'));
    const three = await countStatements(() => data(nestedQuery, { ids: ids.slice(0, 3) }));
    const ten = await countStatements(() => data(nestedQuery, { ids }));
    expect(ten.result.nodes).toHaveLength(10);
    expect(ten.result.nodes.every((n: Json) => n.events.edges.length > 0)).toBe(true);
    expect(ten.statements).toBe(three.statements);
  });
});
