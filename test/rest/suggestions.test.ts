import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/database.ts';
import { type Envelope, openTestApp, type TestApp } from '../support/test-app.ts';

interface SuggestionWire {
  fieldType: string;
  label: string;
  value: string;
  operator: string;
}

type SuggestionList = Envelope<
  SuggestionWire[],
  { total: number; rows_per_page: number; links: Record<string, { href: string } | undefined> }
>;

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

async function suggest(query: string, paging = '') {
  return app.getJson<SuggestionList>(`/v1/search/suggestions?query=${encodeURIComponent(query)}${paging}`);
}

async function everySuggestion(query: string): Promise<SuggestionWire[]> {
  const all: SuggestionWire[] = [];
  let next: string | undefined = `/v1/search/suggestions?query=${encodeURIComponent(query)}&limit=100`;
  for (let pages = 0; next; pages += 1) {
    if (pages > 50) throw new Error('too many pages');
    const { status, body }: { status: number; body: SuggestionList } =
      await app.getJson<SuggestionList>(next);
    expect(status).toBe(200);
    all.push(...body.success);
    next = body.meta.links['next-page']?.href;
  }
  return all;
}

const rank = (label: string, query: string) => {
  const [l, q] = [label.toLowerCase(), query.toLowerCase()];
  return l === q ? 0 : l.startsWith(q) ? 1 : 2;
};

describe('GET /v1/search/suggestions', () => {
  it('puts the exact match first, then prefixes, then other substrings, each by label', async () => {
    const all = await everySuggestion('vice president');
    expect(all[0]).toMatchObject({ fieldType: 'Occupation', label: 'Vice President' });
    const ranks = all.map((suggestion) => rank(suggestion.label, 'vice president'));
    expect(ranks.filter((r) => r === 1).length).toBeGreaterThan(0);
    expect(ranks.filter((r) => r === 2).length).toBeGreaterThan(0);
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    for (let i = 1; i < all.length; i += 1) {
      if (ranks[i] !== ranks[i - 1]) continue;
      expect(all[i - 1]!.label.toLowerCase() <= all[i]!.label.toLowerCase()).toBe(true);
    }
    for (const suggestion of all) expect(suggestion.label.toLowerCase()).toContain('vice president');
  });

  it('suggests every field type with its value: references for organisations and occupations, exact values otherwise', async () => {
    const all = await everySuggestion('a');
    const types = new Set(all.map((suggestion) => suggestion.fieldType));
    expect([...types].sort()).toEqual([
      'DealStatus',
      'DealType',
      'EventType',
      'MoveType',
      'Occupation',
      'Organisation',
    ]);
    for (const suggestion of all) expect(suggestion.operator).toBe('Equal');

    const organisations = new Map(
      (await rows<{ reference: string; name: string }>(sql`select reference, name from organisations`)).map(
        (row) => [row.reference, row.name],
      ),
    );
    const occupations = new Map(
      (await rows<{ reference: string; name: string }>(sql`select reference, name from occupations`)).map(
        (row) => [row.reference, row.name],
      ),
    );
    for (const suggestion of all) {
      if (suggestion.fieldType === 'Organisation')
        expect(organisations.get(suggestion.value)).toBe(suggestion.label);
      else if (suggestion.fieldType === 'Occupation')
        expect(occupations.get(suggestion.value)).toBe(suggestion.label);
      else expect(suggestion.value).toBe(suggestion.label);
    }
    const expectedOrganisations = [...organisations.values()].filter((name) =>
      name.toLowerCase().includes('a'),
    );
    expect(all.filter((s) => s.fieldType === 'Organisation')).toHaveLength(expectedOrganisations.length);
    expect(
      all
        .filter((s) => s.fieldType === 'EventType')
        .map((s) => s.value)
        .sort(),
    ).toEqual(['client_summary', 'deal']);
  });

  it('offers the deal statuses, deal types and move types present in the data', async () => {
    const { statuses } = await one<{ statuses: string[] }>(
      sql`select array_agg(distinct deal_status order by deal_status) as statuses from events where deal_status ilike '%e%'`,
    );
    const all = await everySuggestion('e');
    expect(
      all
        .filter((s) => s.fieldType === 'DealStatus')
        .map((s) => s.value)
        .sort(),
    ).toEqual(statuses);
    const moveTypes = await suggest('retire');
    expect(moveTypes.body.success).toEqual([
      { fieldType: 'MoveType', label: 'Retirement', value: 'Retirement', operator: 'Equal' },
    ]);
  });

  it('never suggests people', async () => {
    const [person] = await rows<{ full_name: string }>(sql`
      select p.full_name from profiles p
      where not exists (select 1 from organisations o where o.name ilike '%' || p.full_name || '%')
        and not exists (select 1 from occupations o where o.name ilike '%' || p.full_name || '%')
      order by p.reference limit 1`);
    const { status, body } = await suggest(person!.full_name);
    expect(status).toBe(200);
    expect(body.success).toEqual([]);
    expect(body.meta.total).toBe(0);
  });

  it('matches case-insensitively and treats LIKE wildcards literally', async () => {
    const upper = await everySuggestion('CAPITAL');
    const lower = await everySuggestion('capital');
    expect(upper.length).toBeGreaterThan(0);
    expect(upper).toEqual(lower);
    const percent = await everySuggestion('%');
    const { count } = await one<{ count: number }>(
      sql`select count(*)::int as count from organisations where strpos(name, '%') > 0`,
    );
    expect(percent).toHaveLength(count);
    for (const suggestion of percent) expect(suggestion.label).toContain('%');
  });

  it('pages with a total counted over every field type, capping limit at 100', async () => {
    const all = await everySuggestion('an');
    const first = await suggest('an', '&limit=7');
    const second = await suggest('an', '&limit=7&page=2');
    expect(first.body.meta.total).toBe(all.length);
    expect([...first.body.success, ...second.body.success]).toEqual(all.slice(0, 14));
    const capped = await suggest('an', '&limit=1000');
    expect(capped.body.meta.rows_per_page).toBe(100);
    expect(capped.body.success).toEqual(all.slice(0, 100));
  });

  it('trims the query', async () => {
    const padded = await suggest('  retire  ');
    expect(padded.body.success.map((s) => s.label)).toEqual(['Retirement']);
  });

  it.each([
    ['', 'without query'],
    ['?query=', 'with an empty query'],
    ['?query=%20%20', 'with a blank query'],
    [`?query=${'x'.repeat(201)}`, 'with a query over 200 characters'],
  ])('answers 422 %s', async (search) => {
    const { status, body } = await app.getJson<SuggestionList>(`/v1/search/suggestions${search}`);
    expect(status).toBe(422);
    expect(body.status.messages[0]).toContain('query');
  });

  it('is open to a plan that covers suggestions only', async () => {
    const { status, body } = await app.getJson<SuggestionList>(
      '/v1/search/suggestions?query=retire',
      app.tokens.starter,
    );
    expect(status).toBe(200);
    expect(body.success).toHaveLength(1);
  });
});
