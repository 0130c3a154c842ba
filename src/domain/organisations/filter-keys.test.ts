import { randomUUID } from 'node:crypto';
import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshCountOptions } from '../../../test/support/count-limits.ts';
import { filterKeyDifferences } from '../../../test/support/filter-keys.ts';
import { openScratchStore, type ScratchStore } from '../../../test/support/scratch-store.ts';
import { type DatabaseHandle, queryRows } from '../../db/database.ts';
import {
  countOrganisations,
  findOrganisations,
  findOrganisationsPage,
  type OrganisationFilter,
} from './find-organisations.ts';

// A store of its own, since the test writes organisations, their industries and addresses, and events.
let store: ScratchStore;
let handle: DatabaseHandle;

beforeAll(async () => {
  store = await openScratchStore('filter_keys');
  handle = store.handle;
});

afterAll(async () => {
  await store?.close();
});

const filters: OrganisationFilter[] = [
  { country: 'US', industry: '45' },
  { country: 'US', industry: '4510' },
  { country: 'US', industry: '45102010' },
  { country: 'GB', industry: '45', showEmpty: true },
  { country: 'US', industry: '20', showEmpty: true, kind: 'all' },
  { country: 'US', industry: '45', status: 'active', minConfidence: 40 },
  { country: 'usa', industry: '45', verified: true, kind: 'funds', showEmpty: true },
  { country: 'US', industry: '45', name: 'ac', showEmpty: true },
  { country: 'US', industry: '45', score: { dimension: 'growth_momentum', min: 50 }, showEmpty: true },
  { country: 'US', industry: '45', activityTypes: ['funding'] },
  { country: 'US' },
  { country: 'GB', showEmpty: true, kind: 'all' },
  { country: 'US', status: 'active', minConfidence: 40, showEmpty: true },
  { country: 'US', score: { dimension: 'growth_momentum', min: 50 } },
];

/** The same filter in plain SQL on the tables themselves, in list order. */
function plainConditions(filter: OrganisationFilter): SQL {
  const country = filter.country === 'usa' ? 'US' : filter.country;
  const conditions = [
    sql`exists (select 1 from organisation_addresses a where a.organisation_reference = o.reference and a.kind = 'company' and a.country = ${country})`,
    filter.industry
      ? sql`exists (select 1 from organisation_industries i where i.organisation_reference = o.reference and i.industry_code like ${`${filter.industry}%`})`
      : sql`true`,
    filter.showEmpty || filter.activityTypes ? sql`true` : sql`o.has_activity`,
    filter.kind === 'funds' ? sql`o.is_fund` : filter.kind === 'all' ? sql`true` : sql`not o.is_fund`,
    filter.status ? sql`o.status = ${filter.status}` : sql`true`,
    filter.verified === undefined ? sql`true` : sql`o.verified = ${filter.verified}`,
    sql`o.confidence >= ${filter.minConfidence ?? (filter.showEmpty ? 0 : 5)}`,
    filter.name ? sql`o.name ilike ${`%${filter.name}%`}` : sql`true`,
    filter.score
      ? sql`exists (select 1 from organisation_scores s where s.organisation_reference = o.reference and s.dimension = ${filter.score.dimension} and s.score >= ${filter.score.min})`
      : sql`true`,
    filter.activityTypes
      ? sql`exists (select 1 from organisation_activity a where a.organisation_reference = o.reference and a.activity_type = 'funding')`
      : sql`true`,
  ];
  return sql.join(conditions, sql` and `);
}

/** Every filter's count, first page of 3, and the page after its first row, through the list and in plain SQL. */
async function bothAnswers(): Promise<{ listed: unknown[]; plain: unknown[] }> {
  const listed: unknown[] = [];
  const plain: unknown[] = [];
  for (const filter of filters) {
    const page = await findOrganisationsPage(handle.db, filter, { limit: 3, offset: 1 }, freshCountOptions());
    const count = await countOrganisations(handle.db, filter, freshCountOptions());
    const first = page.rows[0];
    const after = first
      ? await findOrganisations(handle.db, filter, {
          limit: 2,
          after: { name: first.name, reference: first.reference },
        })
      : [];
    listed.push({
      total: page.total,
      count,
      page: page.rows.map((row) => row.reference),
      after: after.map((row) => row.reference),
    });
    const rows = await queryRows<{ reference: string }>(
      handle.db,
      sql`select o.reference from organisations o where ${plainConditions(filter)} order by o.name, o.reference`,
    );
    const references = rows.map((row) => row.reference);
    plain.push({
      total: { value: references.length, isEstimate: false },
      count: { value: references.length, isEstimate: false },
      page: references.slice(1, 4),
      after: references.slice(2, 4),
    });
  }
  return { listed, plain };
}

async function addOrganisation(
  name: string,
  options: { country?: string; industries: string[]; status?: string; confidence?: number; isFund?: boolean },
): Promise<string> {
  const reference = randomUUID();
  await handle.db.execute(sql`
    insert into organisations (reference, name, status, verified, confidence, is_fund, employees)
    values (${reference}, ${name}, ${options.status ?? 'active'}, ${name.length % 2 === 0}, ${options.confidence ?? 50},
      ${options.isFund ?? false}, 1)`);
  if (options.country) {
    await handle.db.execute(sql`
      insert into organisation_addresses (organisation_reference, kind, country)
      values (${reference}, 'company', ${options.country})`);
  }
  for (const [index, code] of options.industries.entries()) {
    await handle.db.execute(sql`
      insert into organisation_industries (organisation_reference, industry_code, is_primary)
      values (${reference}, ${code}, ${index === 0})`);
  }
  await handle.db.execute(sql`
    insert into organisation_scores (organisation_reference, dimension, score)
    values (${reference}, 'growth_momentum', ${(name.length * 7) % 100})`);
  return reference;
}

async function expectAgreement(): Promise<void> {
  expect(await filterKeyDifferences(handle.db)).toEqual([]);
  const both = await bothAnswers();
  expect(both.listed).toEqual(both.plain);
}

describe('the filter keys', () => {
  it('answer country filters, with an industry or not, exactly through every change to what they mirror', async () => {
    const software = await addOrganisation('Acme Software', { country: 'US', industries: ['45103010'] });
    const hardware = await addOrganisation('Beacon Hardware', {
      country: 'US',
      industries: ['45202030', '45102010'],
    });
    await addOrganisation('Cobalt Chemicals', { country: 'US', industries: ['15101010'] });
    const london = await addOrganisation('Dace Ltd', { country: 'GB', industries: ['45102010'] });
    const fund = await addOrganisation('Eagle Fund', {
      country: 'US',
      industries: ['45102030'],
      isFund: true,
      confidence: 90,
    });
    await addOrganisation('Falcon Systems', { industries: ['45103010'] });
    const grid = await addOrganisation('Grid Machines', {
      country: 'US',
      industries: ['20106010'],
      status: 'dormant',
    });
    for (const name of ['Hawk Apps', 'Ibis Cloud', 'Jay Data', 'Kite Labs', 'Lark Networks']) {
      await addOrganisation(name, { country: 'US', industries: ['45103010'], confidence: name.length * 4 });
    }
    await expectAgreement();
    // Two codes of one organisation under one node count it once.
    const [row] = await queryRows<{ n: number | string }>(
      handle.db,
      sql`select count(*) as n from organisation_filter_keys where reference = ${hardware} and node = '45'`,
    );
    expect(Number(row?.n)).toBe(1);

    // Activity moves organisations into the default list.
    for (const reference of [software, hardware, fund, grid]) {
      await handle.db.execute(sql`
        insert into events (reference, type, summary, publish_date, organisation_reference)
        values (${randomUUID()}, 'funding', 'A round', now(), ${reference})`);
    }
    await expectAgreement();
    const defaultCount = await countOrganisations(handle.db, filters[0]!, freshCountOptions());
    expect(defaultCount).toEqual({ value: 2, isEstimate: false });

    // The organisation's own columns, its country, its industries.
    await handle.db.execute(
      sql`update organisations set name = 'Zeta Software', status = 'dormant', confidence = 45 where reference = ${software}`,
    );
    await handle.db.execute(
      sql`update organisation_addresses set country = 'US' where organisation_reference = ${london}`,
    );
    await handle.db.execute(
      sql`update organisation_industries set industry_code = '20106010' where organisation_reference = ${hardware} and industry_code = '45202030'`,
    );
    await handle.db.execute(sql`delete from organisation_industries where organisation_reference = ${fund}`);
    await handle.db.execute(sql`delete from organisation_addresses where organisation_reference = ${grid}`);
    await expectAgreement();

    await handle.db.execute(sql`delete from organisations where reference in (${hardware}, ${london})`);
    await expectAgreement();

    await handle.db.execute(sql`truncate organisations cascade`);
    await expectAgreement();
    const [left] = await queryRows<{ keys: number | string; counts: number | string }>(
      handle.db,
      sql`select (select count(*) from organisation_filter_keys) as keys,
        (select count(*) from organisation_filter_counts) as counts`,
    );
    expect([Number(left?.keys), Number(left?.counts)]).toEqual([0, 0]);
  });
});
