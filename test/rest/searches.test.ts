import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/database.ts';
import { type Envelope, openTestApp, type TestApp } from '../support/test-app.ts';

interface SavedSearchWire {
  queryId: string;
  ignored_field_types: string[];
}

interface EventRow {
  reference: string;
  type: string;
  organisation_reference: string | null;
  acquirer_reference: string | null;
  acquiree_reference: string | null;
  occupation_reference: string | null;
  move_type: string | null;
  deal_status: string | null;
  deal_type: string | null;
}

type Chip = Record<string, unknown>;

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

async function save(body: unknown, init: { contentType?: string | null; raw?: string; token?: string } = {}) {
  const headers: Record<string, string> = {};
  if (init.contentType !== null) headers['Content-Type'] = init.contentType ?? 'application/json';
  const response = await app.request('/v1/search/events', {
    method: 'POST',
    headers,
    body: init.raw ?? JSON.stringify(body),
    ...(init.token ? { token: init.token } : {}),
  });
  return { status: response.status, body: (await response.json()) as Envelope<SavedSearchWire | null, null> };
}

async function saved(query: Chip[]): Promise<SavedSearchWire> {
  const { status, body } = await save({ query });
  expect(status).toBe(201);
  return body.success!;
}

/** A label unique to this run, so saves made by earlier runs on the same database never collide. */
const run = randomUUID();
const condition = (
  fieldType: string,
  value: string,
  operator = 'EQUAL',
  label = `${fieldType} ${run}`,
): Chip => ({
  fieldType,
  label,
  value,
  operator,
});
const join = (value: string, label = value): Chip => ({ fieldType: 'Operator', label, value });

type EventPage = Envelope<{ reference: string }[], { links: Record<string, { href: string } | undefined> }>;

async function allEventsMatching(queryId: string, extra = ''): Promise<string[]> {
  const references: string[] = [];
  let next: string | undefined = `/v1/events?queryId=${queryId}&limit=200${extra}`;
  for (let pages = 0; next; pages += 1) {
    if (pages > 60) throw new Error('too many pages');
    const { status, body }: { status: number; body: EventPage } = await app.getJson<EventPage>(next);
    expect(status).toBe(200);
    references.push(...body.success.map((event) => event.reference));
    next = body.meta.links['next-page']?.href;
  }
  return references;
}

async function everyEvent(): Promise<EventRow[]> {
  return rows<EventRow>(sql`select reference, type, organisation_reference, acquirer_reference, acquiree_reference,
      occupation_reference, move_type, deal_status, deal_type
    from events order by publish_date desc, reference desc`);
}

describe('POST /v1/search/events', () => {
  it('saves chips: 201 in the body and on the wire, a queryId, no ignored types, meta null', async () => {
    const { status, body } = await save({ query: [condition('EventType', 'deal')] });
    expect(status).toBe(201);
    expect(body.status).toEqual({ code: 201, messages: [] });
    expect(body.meta).toBeNull();
    expect(body.success).toEqual({
      queryId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      ignored_field_types: [],
    });
    const [stored] = await rows<{ query: Chip[]; ignored_field_types: string[] }>(
      sql`select query, ignored_field_types from saved_searches where query_id = ${body.success!.queryId}`,
    );
    expect(stored?.query).toEqual([condition('EventType', 'deal')]);
  });

  it('returns the same queryId for identical chips, also when case of operators and joins differs', async () => {
    const first = await saved([condition('EventType', 'deal'), join('OR'), condition('EventType', 'move')]);
    const again = await saved([condition('EventType', 'deal'), join('OR'), condition('EventType', 'move')]);
    const cased = await saved([
      condition('EventType', 'deal', 'equal'),
      join('or', 'OR'),
      condition('EventType', 'move', 'Equal'),
    ]);
    const relabelled = await saved([
      condition('EventType', 'deal', 'EQUAL', 'Deals'),
      join('OR'),
      condition('EventType', 'move'),
    ]);
    expect(again.queryId).toBe(first.queryId);
    expect(cased.queryId).toBe(first.queryId);
    expect(relabelled.queryId).not.toBe(first.queryId);
  });

  it('gives one queryId and one row to ten identical saves made at once', async () => {
    const chips = [condition('DealStatus', 'Completed', 'EQUAL', `concurrent ${randomUUID()}`)];
    const results = await Promise.all(Array.from({ length: 10 }, () => save({ query: chips })));
    const queryIds = new Set(results.map((result) => result.body.success?.queryId));
    expect(results.map((result) => result.status)).toEqual(Array(10).fill(201));
    expect(queryIds.size).toBe(1);
    const { count } = await one<{ count: number }>(
      sql`select count(*)::int as count from saved_searches where query @> ${JSON.stringify([{ label: chips[0]!.label }])}::jsonb`,
    );
    expect(count).toBe(1);
  });

  it('accepts unsupported field types and lists each once in ignored_field_types', async () => {
    const search = await saved([
      condition('Person', 'Jane'),
      join('AND'),
      condition('MoveType', 'Appointment'),
      join('OR'),
      condition('Industry', '4010'),
      join('AND'),
      condition('Person', 'John'),
    ]);
    expect(search.ignored_field_types).toEqual(['Person', 'Industry']);
  });

  const organisation = '0b5f6a0e-9a3b-4c59-8d43-1d0c3c1f2a77';
  const malformed: [string, unknown][] = [
    ['an empty query', []],
    ['a join first', [join('AND'), condition('EventType', 'deal')]],
    ['a join last', [condition('EventType', 'deal'), join('OR')]],
    ['two condition chips in a row', [condition('EventType', 'deal'), condition('EventType', 'move')]],
    [
      'two joins in a row',
      [condition('EventType', 'deal'), join('AND'), join('OR'), condition('EventType', 'move')],
    ],
    ['a missing operator', [{ fieldType: 'EventType', label: 'Deal', value: 'deal' }]],
    ['a missing label', [{ fieldType: 'EventType', value: 'deal', operator: 'EQUAL' }]],
    ['a non-string value', [{ fieldType: 'EventType', label: 'Deal', value: 3, operator: 'EQUAL' }]],
    ['an empty value', [condition('EventType', '')]],
    ['an Organisation value that is not a UUID', [condition('Organisation', 'Acme')]],
    ['an Occupation value that is not a UUID', [condition('Occupation', 'Analyst')]],
    ['an unknown operator', [condition('Organisation', organisation, 'NOT_EQUAL')]],
    [
      'a join value other than AND/OR',
      [condition('EventType', 'deal'), join('NOT'), condition('EventType', 'move')],
    ],
    ['a chip that is not an object', [42]],
    [
      'more than 100 chips',
      Array.from({ length: 101 }, (_, i) => (i % 2 ? join('OR') : condition('EventType', 'deal'))),
    ],
  ];

  it.each(malformed)('refuses %s with 400 and the exact message', async (_case, query) => {
    const { status, body } = await save({ query });
    expect(status).toBe(400);
    expect(body.status).toEqual({ code: 400, messages: ['Invalid chip data detected.'] });
    expect(body.success).toBeNull();
  });

  it('refuses a body that is not JSON, not an object or has no query array with 400 and a clear message', async () => {
    const broken = await save(null, { raw: '{"query": [' });
    expect(broken.status).toBe(400);
    expect(broken.body.status.messages[0]).toContain('not valid JSON');
    for (const body of [[], { chips: [] }, { query: 'EventType=deal' }, { query: {} }]) {
      const { status, body: envelope } = await save(body);
      expect(status).toBe(400);
      expect(envelope.status.messages.join(' ')).toMatch(/query|expected object/);
    }
  });

  it('refuses any content type but application/json with 415 in the envelope', async () => {
    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', null]) {
      const { status, body } = await save({ query: [condition('EventType', 'deal')] }, { contentType });
      expect(status).toBe(415);
      expect(body.status.code).toBe(415);
      expect(body.status.messages[0]).toContain('Content-Type: application/json');
    }
    const charset = await save(
      { query: [condition('EventType', 'deal')] },
      { contentType: 'application/json; charset=utf-8' },
    );
    expect(charset.status).toBe(201);
  });

  it('refuses a body over 64 KiB with 413 in the envelope', async () => {
    const label = 'x'.repeat(70 * 1024);
    const { status, body } = await save({ query: [condition('EventType', 'deal', 'EQUAL', label)] });
    expect(status).toBe(413);
    expect(body.status.code).toBe(413);
    expect(body.status.messages[0]).toContain('64 KiB');
  });

  it('refuses a plan that does not cover searches', async () => {
    const { status } = await save({ query: [condition('EventType', 'deal')] }, { token: app.tokens.starter });
    expect(status).toBe(403);
  });
});

describe('GET /v1/events?queryId= applies a saved search', () => {
  it('returns exactly the events matching "Organisation X OR EventType deal AND DealStatus completed"', async () => {
    const events = await everyEvent();
    // An organisation with moves and deals on either side, so every branch of the expression matters.
    const { reference: organisationReference } = await one<{ reference: string }>(sql`
      select organisation_reference as reference from events where type = 'move'
        and organisation_reference in (select acquiree_reference from events where type = 'deal')
      group by organisation_reference order by count(*) desc, organisation_reference limit 1`);
    const search = await saved([
      condition('Organisation', organisationReference),
      join('OR'),
      condition('EventType', 'DEAL'),
      join('and'),
      condition('DealStatus', 'completed'),
    ]);
    const matches = (event: EventRow) =>
      [event.organisation_reference, event.acquirer_reference, event.acquiree_reference].includes(
        organisationReference,
      ) ||
      (event.type === 'deal' && event.deal_status?.toLowerCase() === 'completed');
    const expected = events.filter(matches).map((event) => event.reference);
    const byOrganisation = events.filter((event) =>
      [event.organisation_reference, event.acquirer_reference, event.acquiree_reference].includes(
        organisationReference,
      ),
    );
    expect(byOrganisation.some((event) => event.type === 'move')).toBe(true);
    expect(
      byOrganisation.some((event) => event.deal_status !== null && event.deal_status !== 'Completed'),
    ).toBe(true);
    expect(await allEventsMatching(search.queryId)).toEqual(expected);
    // AND binding tighter than OR: read as (Organisation OR deal) AND completed it would drop the moves.
    expect(expected.length).toBeGreaterThan(
      events.filter((event) => matches(event) && event.deal_status?.toLowerCase() === 'completed').length,
    );
  });

  it('matches occupations, move types and deal types, combined with the other filters by AND', async () => {
    const { reference: occupation } = await one<{ reference: string }>(sql`
      select occupation_reference as reference from events where type = 'move' and occupation_reference is not null
      group by occupation_reference order by count(*) desc, occupation_reference limit 1`);
    const search = await saved([
      condition('Occupation', occupation!),
      join('AND'),
      condition('MoveType', 'appointment'),
      join('OR'),
      condition('DealType', 'MERGER'),
    ]);
    const events = await everyEvent();
    const expected = events.filter(
      (event) =>
        (event.occupation_reference === occupation && event.move_type === 'Appointment') ||
        event.deal_type === 'Merger',
    );
    expect(expected.some((event) => event.type === 'move')).toBe(true);
    expect(await allEventsMatching(search.queryId)).toEqual(expected.map((event) => event.reference));
    const deals = await allEventsMatching(search.queryId, '&eventType=deal');
    expect(deals).toEqual(expected.filter((event) => event.type === 'deal').map((event) => event.reference));
  });

  it('ignores chips of unsupported field types (they match everything)', async () => {
    const plain = await saved([condition('MoveType', 'Retirement')]);
    const withIgnored = await saved([
      condition('MoveType', 'Retirement'),
      join('AND'),
      condition('Person', 'Jane'),
    ]);
    expect(withIgnored.ignored_field_types).toEqual(['Person']);
    const expected = await allEventsMatching(plain.queryId);
    expect(expected.length).toBeGreaterThan(0);
    expect(await allEventsMatching(withIgnored.queryId)).toEqual(expected);
  });

  it('matches nothing for an event type that does not exist', async () => {
    const search = await saved([condition('EventType', 'ipo')]);
    const { body } = await app.getJson<Envelope<unknown[], { total: number }>>(
      `/v1/events?queryId=${search.queryId}`,
    );
    expect(body.success).toEqual([]);
    expect(body.meta.total).toBe(0);
  });
});
