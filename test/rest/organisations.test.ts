import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/database.ts';
import { isExecutiveTitle } from '../../src/domain/organisations/executive-title.ts';
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
const count = async (query: SQL) => Number((await rows<{ count: string }>(query))[0]!.count);

interface ListRow {
  reference: string;
  name: string;
  size: string;
  totals: { employees: number };
  status: string;
  verified: boolean;
  confidence: number;
}

interface PageMeta {
  total: number;
  rows_per_page: number;
  page: number;
  total_pages: number;
  links: Record<string, { href: string; method: string }>;
}

async function list(query: string) {
  const { status, body } = await app.getJson<Envelope<ListRow[], PageMeta>>(`/v1/organisations${query}`);
  expect(status, JSON.stringify(body.status)).toBe(200);
  return body;
}

/** Every row of a filtered list, following `next-page` links; checks that no row comes twice. */
async function walk(query: string): Promise<{ rows: ListRow[]; total: number }> {
  let body = await list(query);
  const total = body.meta.total;
  const seen: ListRow[] = [...body.success];
  for (let pages = 1; body.meta.links['next-page']; pages += 1) {
    expect(pages).toBeLessThan(200);
    const { status, body: next } = await app.getJson<Envelope<ListRow[], PageMeta>>(
      body.meta.links['next-page'].href,
    );
    expect(status).toBe(200);
    body = next;
    seen.push(...body.success);
  }
  expect(new Set(seen.map((row) => row.reference)).size).toBe(seen.length);
  return { rows: seen, total };
}

async function rejected(query: string, parameter: string) {
  const { status, body } = await app.getJson(`/v1/organisations${query}`);
  expect(status).toBe(422);
  expect(body.status.code).toBe(422);
  expect(body.success).toBeNull();
  expect(body.status.messages.join(' ')).toContain(parameter);
  return body.status.messages.join(' ');
}

const inList = (references: readonly string[]) =>
  sql`(${sql.join(
    references.map((reference) => sql`${reference}::uuid`),
    sql`, `,
  )})`;

const hasActivity = sql`exists (select 1 from organisation_activity a where a.organisation_reference = o.reference)`;

describe('GET /v1/organisations: defaults', () => {
  it('searches active organisations that are not funds with confidence at least 5, counted exactly', async () => {
    const { rows: all, total } = await walk('?limit=100');
    const expected = await count(
      sql`select count(*) from organisations o where not o.is_fund and o.confidence >= 5 and ${hasActivity}`,
    );
    expect(total).toBe(expected);
    expect(all).toHaveLength(expected);
    expect(all.every((row) => row.confidence >= 5)).toBe(true);
    const funds = await count(
      sql`select count(*) from organisations where is_fund and reference in ${inList(all.map((r) => r.reference))}`,
    );
    expect(funds).toBe(0);
  });

  it('answers rows in the list-row shape, the size band derived from the headcount', async () => {
    const body = await list('?limit=100&show_empty=true');
    expect(body.status).toEqual({ code: 200, messages: [] });
    expect(body.correlation_id).toEqual(expect.any(String));
    for (const row of body.success) {
      expect(Object.keys(row).sort()).toEqual([
        'confidence',
        'name',
        'reference',
        'size',
        'status',
        'totals',
        'verified',
      ]);
      const employees = row.totals.employees;
      if (employees === 0) expect(row.size).toBe('-');
      else if (row.size.endsWith('+'))
        expect(employees).toBeGreaterThanOrEqual(Number(row.size.slice(0, -1)));
      else {
        const [low, high] = row.size.split('-').map(Number);
        expect(employees).toBeGreaterThanOrEqual(low!);
        expect(employees).toBeLessThanOrEqual(high!);
      }
    }
    const stored = await rows<{
      reference: string;
      employees: number;
      status: string;
      verified: boolean;
      confidence: number;
    }>(
      sql`select reference, employees, status, verified, confidence from organisations where reference in ${inList(body.success.map((r) => r.reference))}`,
    );
    const byReference = new Map(stored.map((row) => [row.reference, row]));
    for (const row of body.success) {
      const record = byReference.get(row.reference)!;
      expect(row.totals.employees).toBe(record.employees);
      expect(row.status).toBe(record.status);
      expect(row.verified).toBe(record.verified);
      expect(row.confidence).toBe(record.confidence);
    }
  });

  it('sorts by name, then reference', async () => {
    const expected = await rows<{ reference: string }>(
      sql`select reference from organisations where not is_fund order by name, reference limit 300`,
    );
    const seen: string[] = [];
    for (const page of [1, 2, 3]) {
      seen.push(
        ...(await list(`?show_empty=true&limit=100&page=${page}`)).success.map((row) => row.reference),
      );
    }
    expect(seen).toEqual(expected.map((row) => row.reference));
  });

  it('caps limit at 100 and reports it as rows_per_page', async () => {
    const body = await list('?limit=500');
    expect(body.meta.rows_per_page).toBe(100);
    expect(body.success).toHaveLength(100);
    expect(body.meta.links['current-page']!.href).toContain('limit=100');
  });

  it('answers an empty page past the end', async () => {
    const body = await list('?status=merged&page=900');
    expect(body.success).toEqual([]);
    expect(body.meta.page).toBe(900);
  });

  it('lowers the default min_confidence to 0 with show_empty=true, and min_confidence=0 keeps low rows', async () => {
    const [low] = await rows<{ reference: string; name: string }>(
      sql`select reference, name from organisations o where not is_fund and confidence < 5 and ${hasActivity} order by name limit 1`,
    );
    expect(low).toBeDefined();
    const name = encodeURIComponent(low!.name);
    const references = async (query: string) => (await list(query)).success.map((row) => row.reference);
    expect(await references(`?name=${name}`)).not.toContain(low!.reference);
    expect(await references(`?name=${name}&min_confidence=0`)).toContain(low!.reference);
    expect(await references(`?name=${name}&show_empty=true`)).toContain(low!.reference);
    expect(await references(`?name=${name}&show_empty=true&min_confidence=5`)).not.toContain(low!.reference);
  });

  it('searches organisations without activity only with show_empty=true', async () => {
    const [quiet] = await rows<{ reference: string; name: string }>(
      sql`select reference, name from organisations o where not is_fund and confidence >= 5 and not ${hasActivity} order by name limit 1`,
    );
    const name = encodeURIComponent(quiet!.name);
    expect((await list(`?name=${name}`)).success.map((row) => row.reference)).not.toContain(quiet!.reference);
    expect((await list(`?name=${name}&show_empty=true`)).success.map((row) => row.reference)).toContain(
      quiet!.reference,
    );
    const everyone = await list('?show_empty=true&limit=1');
    expect(everyone.meta.total).toBe(await count(sql`select count(*) from organisations where not is_fund`));
  });
});

describe('GET /v1/organisations: filters', () => {
  it('name: a case-insensitive substring where % and _ are literal', async () => {
    const percent = await walk('?name=%25&show_empty=true&type=all&limit=100');
    expect(percent.rows.length).toBeGreaterThan(0);
    expect(percent.rows.every((row) => row.name.includes('%'))).toBe(true);
    expect(percent.total).toBe(
      await count(sql`select count(*) from organisations where strpos(name, '%') > 0`),
    );

    const underscore = await walk('?name=_&show_empty=true&type=all&limit=100');
    expect(underscore.rows.length).toBeGreaterThan(0);
    expect(underscore.rows.every((row) => row.name.includes('_'))).toBe(true);
    expect(underscore.total).toBe(
      await count(sql`select count(*) from organisations where strpos(name, '_') > 0`),
    );

    const backslash = await list('?name=%5C&show_empty=true&type=all');
    expect(backslash.success.every((row) => row.name.includes('\\'))).toBe(true);

    const shouted = await walk(`?name=${encodeURIComponent('ORGANIC FOODS')}&show_empty=true&type=all`);
    expect(shouted.rows.length).toBeGreaterThan(0);
    expect(shouted.rows.every((row) => row.name.toLowerCase().includes('organic foods'))).toBe(true);
  });

  it('industry: the node and everything below it, nothing outside', async () => {
    const sector = await walk('?industry=45&show_empty=true&type=all&limit=100');
    const classified = await rows<{ organisation_reference: string; industry_code: string }>(
      sql`select organisation_reference, industry_code from organisation_industries where organisation_reference in ${inList(sector.rows.map((r) => r.reference))}`,
    );
    const codes = new Map<string, string[]>();
    for (const row of classified)
      codes.set(row.organisation_reference, [
        ...(codes.get(row.organisation_reference) ?? []),
        row.industry_code,
      ]);
    for (const row of sector.rows)
      expect(codes.get(row.reference)!.some((code) => code.startsWith('45'))).toBe(true);
    expect(
      classified.some((row) => row.industry_code.length === 8 && row.industry_code.startsWith('45')),
    ).toBe(true);
    expect(sector.total).toBe(
      await count(
        sql`select count(*) from organisations o where exists (select 1 from organisation_industries i where i.organisation_reference = o.reference and i.industry_code like '45%')`,
      ),
    );

    const group = await list('?industry=4510&show_empty=true&type=all');
    expect(group.meta.total).toBeLessThan(sector.total);
    expect(group.meta.total).toBe(
      await count(
        sql`select count(*) from organisations o where exists (select 1 from organisation_industries i where i.organisation_reference = o.reference and i.industry_code like '4510%')`,
      ),
    );
  });

  it('country: an alpha-2 code, alpha-3 code or name, any case, on the company address', async () => {
    const expected = await count(
      sql`select count(*) from organisations o where not is_fund and confidence >= 5 and ${hasActivity}
          and exists (select 1 from organisation_addresses ad where ad.organisation_reference = o.reference and ad.kind = 'company' and ad.country = 'GB')`,
    );
    expect(expected).toBeGreaterThan(0);
    for (const country of ['GB', 'gb', 'GBR', 'United%20Kingdom', 'united%20kingdom', 'UK']) {
      expect((await list(`?country=${country}`)).meta.total).toBe(expected);
    }
    const { rows: british } = await walk('?country=GB&limit=100');
    const countries = await rows<{ country: string }>(
      sql`select country from organisation_addresses where kind = 'company' and organisation_reference in ${inList(british.map((r) => r.reference))}`,
    );
    expect(countries).toHaveLength(british.length);
    expect(new Set(countries.map((row) => row.country))).toEqual(new Set(['GB']));
  });

  it('country with industry and status (a narrow filter): the rows and order of the same filter on organisations', async () => {
    const expected = await rows<{ reference: string }>(
      sql`select reference from organisations o where not is_fund and confidence >= 10 and status = 'active' and ${hasActivity}
          and exists (select 1 from organisation_addresses ad where ad.organisation_reference = o.reference and ad.kind = 'company' and ad.country = 'US')
          and exists (select 1 from organisation_industries i where i.organisation_reference = o.reference and i.industry_code like '45%')
          order by name, reference`,
    );
    expect(expected.length).toBeGreaterThan(0);
    const { rows: listed, total } = await walk(
      '?country=US&industry=45&status=active&min_confidence=10&limit=7',
    );
    expect(total).toBe(expected.length);
    expect(listed.map((row) => row.reference)).toEqual(expected.map((row) => row.reference));
  });

  it('type: funds excluded by default, only funds with fund, both with all', async () => {
    const base = '?show_empty=true';
    const [companies, funds, everything] = await Promise.all([
      list(base),
      list(`${base}&type=fund`),
      list(`${base}&type=all`),
    ]);
    expect(companies.meta.total).toBe(await count(sql`select count(*) from organisations where not is_fund`));
    expect(funds.meta.total).toBe(await count(sql`select count(*) from organisations where is_fund`));
    expect(everything.meta.total).toBe(companies.meta.total + funds.meta.total);
    const { rows: fundRows } = await walk(`${base}&type=fund&limit=100`);
    expect(
      await count(
        sql`select count(*) from organisations where not is_fund and reference in ${inList(fundRows.map((r) => r.reference))}`,
      ),
    ).toBe(0);
  });

  it('status: only that status; all is no filter', async () => {
    const [unfiltered, all, dormant] = await Promise.all([
      list(''),
      list('?status=all'),
      walk('?status=dormant&limit=100'),
    ]);
    expect(all.meta.total).toBe(unfiltered.meta.total);
    expect(dormant.rows.length).toBeGreaterThan(0);
    expect(dormant.rows.every((row) => row.status === 'dormant')).toBe(true);
    expect(dormant.total).toBeLessThan(unfiltered.meta.total);
    expect(dormant.total).toBe(
      await count(
        sql`select count(*) from organisations o where status = 'dormant' and not is_fund and confidence >= 5 and ${hasActivity}`,
      ),
    );
  });

  it('verified: true and false partition the list', async () => {
    const [unfiltered, yes, no] = await Promise.all([
      list(''),
      walk('?verified=true&limit=100'),
      list('?verified=false'),
    ]);
    expect(yes.rows.every((row) => row.verified)).toBe(true);
    expect(yes.total + no.meta.total).toBe(unfiltered.meta.total);
    expect(no.success.every((row) => !row.verified)).toBe(true);
  });

  it('has_raum: with or without assets-under-management records', async () => {
    const [unfiltered, withAum, withoutAum] = await Promise.all([
      list('?type=all'),
      walk('?type=all&has_raum=true&limit=100'),
      list('?type=all&has_raum=false'),
    ]);
    expect(withAum.rows.length).toBeGreaterThan(0);
    expect(withAum.total + withoutAum.meta.total).toBe(unfiltered.meta.total);
    const holders = await count(
      sql`select count(distinct organisation_reference) from client_summaries where organisation_reference in ${inList(withAum.rows.map((r) => r.reference))}`,
    );
    expect(holders).toBe(withAum.rows.length);
    const strays = await count(
      sql`select count(*) from client_summaries where organisation_reference in ${inList(withoutAum.success.map((r) => r.reference))}`,
    );
    expect(strays).toBe(0);
  });

  it('activity_type: organisations with activity of any listed type', async () => {
    const funding = await walk('?activity_type=funding&type=all&limit=100');
    expect(funding.rows.length).toBeGreaterThan(0);
    expect(
      await count(
        sql`select count(distinct organisation_reference) from organisation_activity where activity_type = 'funding' and organisation_reference in ${inList(funding.rows.map((r) => r.reference))}`,
      ),
    ).toBe(funding.rows.length);
    const offerings = await list('?activity_type=public_offering&type=all');
    const either = await list('?activity_type=funding,public_offering&type=all');
    expect(either.meta.total).toBeGreaterThanOrEqual(Math.max(funding.total, offerings.meta.total));
    expect(either.meta.total).toBeLessThanOrEqual(funding.total + offerings.meta.total);
    expect(either.meta.total).toBe(
      await count(
        sql`select count(*) from organisations o where confidence >= 5 and exists (select 1 from organisation_activity a where a.organisation_reference = o.reference and a.activity_type in ('funding', 'public_offering'))`,
      ),
    );
  });

  it('activity_period: activity within the period, of the listed types when given', async () => {
    const month = await walk('?activity_period=month&type=all&limit=100');
    const year = await list('?activity_period=year&type=all');
    expect(month.rows.length).toBeGreaterThan(0);
    expect(month.total).toBeLessThan(year.meta.total);
    expect(
      await count(
        sql`select count(distinct organisation_reference) from organisation_activity where last_activity_at >= now() - interval '30 days' and organisation_reference in ${inList(month.rows.map((r) => r.reference))}`,
      ),
    ).toBe(month.rows.length);

    const recentFunding = await walk('?activity_type=funding&activity_period=quarter&type=all&limit=100');
    expect(recentFunding.total).toBe(
      await count(
        sql`select count(*) from organisations o where confidence >= 5 and exists (select 1 from organisation_activity a where a.organisation_reference = o.reference and a.activity_type = 'funding' and a.last_activity_at >= now() - interval '91 days')`,
      ),
    );
  });

  it('score_min with score_dimension: a score at least that high on that dimension', async () => {
    const strong = await walk('?score_min=80&score_dimension=financial_strength&type=all&limit=100');
    expect(strong.rows.length).toBeGreaterThan(0);
    const scores = await rows<{ score: number }>(
      sql`select score from organisation_scores where dimension = 'financial_strength' and organisation_reference in ${inList(strong.rows.map((r) => r.reference))}`,
    );
    expect(scores).toHaveLength(strong.rows.length);
    expect(scores.every((row) => row.score >= 80)).toBe(true);
    expect(strong.total).toBe(
      await count(
        sql`select count(*) from organisations o where confidence >= 5 and ${hasActivity} and exists (select 1 from organisation_scores s where s.organisation_reference = o.reference and s.dimension = 'financial_strength' and s.score >= 80)`,
      ),
    );
    const weaker = await list('?score_min=40&score_dimension=financial_strength&type=all');
    expect(weaker.meta.total).toBeGreaterThan(strong.total);
  });

  it('score_dimension alone: scored on that dimension; score_min alone: that high on any dimension', async () => {
    const scored = await list('?score_dimension=ipo_readiness&type=all&limit=100');
    expect(scored.status.code).toBe(200);
    expect(scored.meta.total).toBeGreaterThan(0);
    expect(scored.meta.total).toBe(
      await count(
        sql`select count(*) from organisations o where confidence >= 5 and ${hasActivity} and exists (select 1 from organisation_scores s where s.organisation_reference = o.reference and s.dimension = 'ipo_readiness')`,
      ),
    );
    const high = await list('?score_min=90&type=all&limit=100');
    expect(high.status.code).toBe(200);
    expect(high.meta.total).toBeGreaterThan(0);
    expect(high.meta.total).toBe(
      await count(
        sql`select count(*) from organisations o where confidence >= 5 and ${hasActivity} and exists (select 1 from organisation_scores s where s.organisation_reference = o.reference and s.score >= 90)`,
      ),
    );
    const both = await list('?score_min=90&score_dimension=ipo_readiness&type=all&limit=100');
    expect(both.meta.total).toBeLessThanOrEqual(high.meta.total);
  });

  it('combines filters and walks every row of a filtered list exactly once', async () => {
    const { rows: combined, total } = await walk('?status=active&verified=true&type=all&limit=7');
    expect(combined).toHaveLength(total);
    expect(combined.every((row) => row.status === 'active' && row.verified)).toBe(true);
    expect(total).toBe(
      await count(
        sql`select count(*) from organisations o where status = 'active' and verified and confidence >= 5 and ${hasActivity}`,
      ),
    );
  });
});

describe('GET /v1/organisations: bad values', () => {
  it.each([
    ['?show_empty=false', 'show_empty'],
    ['?show_empty=1', 'show_empty'],
    ['?industry=99', 'industry'],
    ['?industry=451', 'industry'],
    ['?industry=abc', 'industry'],
    ['?industry=4510101099', 'industry'],
    ['?country=Atlantis', 'country'],
    ['?country=XX', 'country'],
    ['?type=funds', 'type'],
    ['?status=closed', 'status'],
    ['?verified=yes', 'verified'],
    ['?min_confidence=101', 'min_confidence'],
    ['?min_confidence=-1', 'min_confidence'],
    ['?min_confidence=1.5', 'min_confidence'],
    ['?min_confidence=abc', 'min_confidence'],
    ['?min_confidence=', 'min_confidence'],
    ['?has_raum=1', 'has_raum'],
    ['?activity_type=deal', 'activity_type'],
    ['?activity_type=move,', 'activity_type'],
    ['?activity_period=decade', 'activity_period'],
    ['?score_min=0&score_dimension=ipo_readiness', 'score_min'],
    ['?score_min=101&score_dimension=ipo_readiness', 'score_min'],
    ['?score_min=50&score_dimension=beauty', 'score_dimension'],
    ['?page=0', 'page'],
    ['?limit=0', 'limit'],
  ])('%s is a 422 naming %s', async (query, parameter) => {
    await rejected(query, parameter);
  });

  it('names the allowed values', async () => {
    expect(await rejected('?status=closed', 'status')).toContain(
      'active, merged, dormant, dissolved, unknown, all',
    );
    expect(await rejected('?activity_type=deal', 'activity_type')).toContain(
      'move, funding, public_offering, client_summary',
    );
    expect(await rejected('?score_min=50&score_dimension=beauty', 'score_dimension')).toContain(
      'ma_attractiveness',
    );
  });
});

interface OrganisationRecord {
  reference: string;
  name: string;
  description: string | null;
  totals: { employees: number };
  size: string;
  aliases: { name: string; start_date: string | null; end_date: string | null }[];
  tickers: {
    value: string;
    exchange: { name: string; code: string };
    currency: string;
    status: string;
    is_primary_listing: boolean;
  }[];
  domains: { domain: string; confidence_score: number; is_valid: boolean }[];
  phones: { number: string; type: string; is_valid: boolean }[];
  industries: { code: string; name: string; level: number; is_primary: boolean }[];
  addresses: Record<
    'company' | 'mailing',
    {
      city: string | null;
      state: string | null;
      country: string | null;
      zip_postal_code: string | null;
    } | null
  >;
  client_summary: {
    currency_code: string;
    summary_type: string;
    publish_date: string;
    entries: Record<string, unknown>[];
  } | null;
  relationships: { customers: number; suppliers: number; partners: number; service_providers: number };
  status: string;
  verified: boolean;
  confidence: number;
}

describe('GET /v1/organisations/{organisationReference}', () => {
  it('shows every part of a richly recorded organisation as stored', async () => {
    const [rich] = await rows<{ reference: string }>(sql`
      select o.reference from organisations o
      where exists (select 1 from organisation_aliases x where x.organisation_reference = o.reference)
        and exists (select 1 from organisation_tickers x where x.organisation_reference = o.reference)
        and exists (select 1 from organisation_phones x where x.organisation_reference = o.reference)
        and (select count(*) from organisation_addresses x where x.organisation_reference = o.reference) = 2
        and (select count(*) from client_summaries x where x.organisation_reference = o.reference) >= 2
      order by o.reference limit 1`);
    expect(rich).toBeDefined();
    const reference = rich!.reference;
    const { status, body } = await app.getJson<Envelope<OrganisationRecord, null>>(
      `/v1/organisations/${reference}`,
    );
    expect(status).toBe(200);
    expect(body.meta).toBeNull();
    const record = body.success;
    expect(Object.keys(record).sort()).toEqual(
      [
        'reference',
        'name',
        'description',
        'totals',
        'size',
        'aliases',
        'tickers',
        'domains',
        'phones',
        'industries',
        'addresses',
        'client_summary',
        'relationships',
        'status',
        'verified',
        'confidence',
      ].sort(),
    );

    const [stored] = await rows<Record<string, unknown>>(
      sql`select * from organisations where reference = ${reference}`,
    );
    expect(record).toMatchObject({
      reference,
      name: stored!.name,
      description: stored!.description,
      totals: { employees: stored!.employees },
      status: stored!.status,
      verified: stored!.verified,
      confidence: stored!.confidence,
      relationships: {
        customers: stored!.customers,
        suppliers: stored!.suppliers,
        partners: stored!.partners,
        service_providers: stored!.service_providers,
      },
    });

    const aliases = await rows<{ name: string; start_date: string | null; end_date: string | null }>(
      sql`select name, start_date::text, end_date::text from organisation_aliases where organisation_reference = ${reference}`,
    );
    expect(record.aliases).toHaveLength(aliases.length);
    expect(record.aliases).toEqual(expect.arrayContaining(aliases));

    const tickers = await rows<{ value: string; exchange_code: string; is_primary_listing: boolean }>(
      sql`select value, exchange_code, is_primary_listing from organisation_tickers where organisation_reference = ${reference}`,
    );
    expect(record.tickers.map((t) => [t.value, t.exchange.code, t.is_primary_listing]).sort()).toEqual(
      tickers.map((t) => [t.value, t.exchange_code, t.is_primary_listing]).sort(),
    );
    expect(record.tickers[0]!.is_primary_listing).toBe(true);

    const phones = await count(
      sql`select count(*) from organisation_phones where organisation_reference = ${reference}`,
    );
    expect(record.phones).toHaveLength(phones);
    const domains = await rows<{ domain: string }>(
      sql`select domain from organisation_domains where organisation_reference = ${reference}`,
    );
    expect(record.domains.map((d) => d.domain).sort()).toEqual(domains.map((d) => d.domain).sort());

    const industries = await rows<{ code: string; name: string; level: number; is_primary: boolean }>(sql`
      select i.code, i.name, i.level, oi.is_primary from organisation_industries oi join industries i on i.code = oi.industry_code
      where oi.organisation_reference = ${reference}`);
    expect(record.industries).toHaveLength(industries.length);
    expect(record.industries).toEqual(expect.arrayContaining(industries));

    const addresses = await rows<{
      kind: string;
      city: string | null;
      state: string | null;
      country: string | null;
      zip_postal_code: string | null;
    }>(
      sql`select kind, city, state, country, zip_postal_code from organisation_addresses where organisation_reference = ${reference}`,
    );
    for (const { kind, ...address } of addresses)
      expect(record.addresses[kind as 'company' | 'mailing']).toEqual(address);

    const [latest] = await rows<{ publish_date: string; currency_code: string; summary_type: string }>(sql`
      select to_char(publish_date at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as publish_date, currency_code, summary_type
      from client_summaries where organisation_reference = ${reference} order by publish_date desc limit 1`);
    expect(record.client_summary).toMatchObject(latest!);
    expect(record.client_summary!.entries.length).toBeGreaterThan(0);
    expect(Object.keys(record.client_summary!.entries[0]!).sort()).toEqual([
      'client_type',
      'client_type_label',
      'fewer_than_5',
      'number_of_clients',
      'regulatory_assets_under_management',
    ]);
  });

  it('shows addresses with null fields, and a null client_summary, where none is recorded', async () => {
    const [bare] = await rows<{ reference: string }>(sql`
      select o.reference from organisations o
      where not exists (select 1 from organisation_addresses x where x.organisation_reference = o.reference)
        and not exists (select 1 from client_summaries x where x.organisation_reference = o.reference)
      order by o.reference limit 1`);
    const { body } = await app.getJson<Envelope<OrganisationRecord, null>>(
      `/v1/organisations/${bare!.reference}`,
    );
    const unknown = { city: null, state: null, country: null, zip_postal_code: null };
    expect(body.success.addresses).toEqual({ company: unknown, mailing: unknown });
    expect(body.success.client_summary).toBeNull();
  });

  it('answers 404 for an unknown reference and 422 for a malformed one', async () => {
    const unknown = await app.getJson('/v1/organisations/6f1d3a52-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(404);
    expect(unknown.body.status.messages[0]).toContain('6f1d3a52-0000-4000-8000-000000000000');
    const malformed = await app.getJson('/v1/organisations/acme');
    expect(malformed.status).toBe(422);
    expect(malformed.body.status.messages[0]).toContain('organisationReference');
  });
});

interface PersonRow {
  reference: string;
  name: string;
  first_name: string;
  last_name: string;
  linkedin_url: string | null;
  confidence_score: number;
  role: { title: string; organisation: string; start_date: string | null; end_date: string | null };
}

type People = Record<'current_executives' | 'current_professionals' | 'alumni', PersonRow[]>;

describe('GET /v1/organisations/{organisationReference}/people', () => {
  it('partitions every role: current executives, other current staff, alumni by latest leaver', async () => {
    const [busiest] = await rows<{ reference: string; name: string }>(sql`
      select o.reference, o.name from organisations o join experiences e on e.organisation_reference = o.reference
      group by o.reference order by count(*) desc, o.reference limit 1`);
    const { status, body } = await app.getJson<Envelope<People, null>>(
      `/v1/organisations/${busiest!.reference}/people`,
    );
    expect(status).toBe(200);
    expect(body.meta).toBeNull();
    const people = body.success;

    const [current, ended] = await Promise.all([
      count(
        sql`select count(*) from experiences where organisation_reference = ${busiest!.reference} and end_date is null`,
      ),
      count(
        sql`select count(*) from experiences where organisation_reference = ${busiest!.reference} and end_date is not null`,
      ),
    ]);
    expect(people.current_executives.length + people.current_professionals.length).toBe(current);
    expect(people.alumni).toHaveLength(ended);
    expect(people.current_executives.length).toBeGreaterThan(0);
    expect(people.current_professionals.length).toBeGreaterThan(0);
    expect(people.alumni.length).toBeGreaterThan(1);

    for (const row of people.current_executives) {
      expect(isExecutiveTitle(row.role.title)).toBe(true);
      expect(row.role.end_date).toBeNull();
    }
    for (const row of people.current_professionals) {
      expect(isExecutiveTitle(row.role.title)).toBe(false);
      expect(row.role.end_date).toBeNull();
    }
    const leaving = people.alumni.map((row) => row.role.end_date!);
    expect(leaving.every((date) => date !== null)).toBe(true);
    expect(leaving).toEqual([...leaving].sort().reverse());

    for (const row of [...people.current_executives, ...people.current_professionals, ...people.alumni]) {
      expect(Object.keys(row).sort()).toEqual([
        'confidence_score',
        'first_name',
        'last_name',
        'linkedin_url',
        'name',
        'reference',
        'role',
      ]);
      expect(row.role.organisation).toBe(busiest!.name);
      expect(typeof row.confidence_score).toBe('number');
    }
  });

  it('shows each person as stored, with 0 for a confidence that is not recorded', async () => {
    const [role] = await rows<{
      organisation_reference: string;
      reference: string;
      full_name: string;
      first_name: string;
      last_name: string;
      linkedin_url: string | null;
      occupation_title: string;
      start_date: string | null;
    }>(sql`
      select e.organisation_reference, p.reference, p.full_name, p.first_name, p.last_name, p.linkedin_url, e.occupation_title, e.start_date::text
      from experiences e join profiles p on p.reference = e.profile_reference
      where p.confidence_score is null and e.end_date is null and e.organisation_reference is not null
      order by e.reference limit 1`);
    const { body } = await app.getJson<Envelope<People, null>>(
      `/v1/organisations/${role!.organisation_reference}/people`,
    );
    const rowsOfPerson = [...body.success.current_executives, ...body.success.current_professionals].filter(
      (row) => row.reference === role!.reference && row.role.title === role!.occupation_title,
    );
    expect(rowsOfPerson[0]).toMatchObject({
      name: role!.full_name,
      first_name: role!.first_name,
      last_name: role!.last_name,
      linkedin_url: role!.linkedin_url,
      confidence_score: 0,
      role: { title: role!.occupation_title, start_date: role!.start_date, end_date: null },
    });
  });

  it('lists a person once per role when they hold two roles at one organisation', async () => {
    const [twice] = await rows<{
      organisation_reference: string;
      profile_reference: string;
      roles: string;
    }>(sql`
      select organisation_reference, profile_reference, count(*) as roles from experiences
      where organisation_reference is not null group by 1, 2 having count(*) > 1 order by 1, 2 limit 1`);
    expect(twice).toBeDefined();
    const { body } = await app.getJson<Envelope<People, null>>(
      `/v1/organisations/${twice!.organisation_reference}/people`,
    );
    const all = [
      ...body.success.current_executives,
      ...body.success.current_professionals,
      ...body.success.alumni,
    ];
    expect(all.filter((row) => row.reference === twice!.profile_reference)).toHaveLength(
      Number(twice!.roles),
    );
  });

  it('answers 404 for an unknown organisation and 422 for a malformed reference', async () => {
    expect((await app.getJson('/v1/organisations/6f1d3a52-0000-4000-8000-000000000000/people')).status).toBe(
      404,
    );
    expect((await app.getJson('/v1/organisations/123/people')).status).toBe(422);
  });
});
