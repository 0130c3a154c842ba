import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshCountOptions } from '../../../test/support/count-limits.ts';
import { nameFragmentDifferences } from '../../../test/support/name-fragments.ts';
import { openScratchStore, type ScratchStore } from '../../../test/support/scratch-store.ts';
import { captureStatements, type DatabaseHandle, queryRows } from '../../db/database.ts';
import { walkLimit, walksNameOrder } from '../../db/organisation-list-plan.ts';
import {
  countOrganisations,
  findOrganisations,
  findOrganisationsPage,
  type OrganisationFilter,
} from './find-organisations.ts';

// A store of its own, since the test writes and deletes organisations.
let store: ScratchStore;
let handle: DatabaseHandle;

beforeAll(async () => {
  store = await openScratchStore('name_fragments');
  handle = store.handle;
});

afterAll(async () => {
  await store?.close();
});

const needles = [
  'acm',
  'ACME',
  'co.',
  '& c',
  '100%',
  'e_f',
  'a\\b',
  'ing',
  'ings',
  'åla',
  '주식회',
  'zzz',
  'in',
  'abcd',
  'bcd ',
  'acme holdings',
];
const kinds: OrganisationFilter['kind'][] = [undefined, 'funds', 'all'];
const windows = [
  { limit: 2, offset: 0 },
  { limit: 2, offset: 3 },
  { limit: 20, offset: 0 },
];

/** Each needle's name search (every kind and window) through the list and in plain SQL. */
async function bothAnswers(): Promise<{ listed: unknown[]; plain: unknown[] }> {
  const listed: unknown[] = [];
  const plain: unknown[] = [];
  for (const name of needles) {
    for (const kind of kinds) {
      const filter: OrganisationFilter = { name, kind, showEmpty: true };
      const rows = await queryRows<{ reference: string; name: string }>(
        handle.db,
        sql`select reference, name from organisations where strpos(lower(name), lower(${name})) > 0
          and ${kind === 'funds' ? sql`is_fund` : kind === 'all' ? sql`true` : sql`not is_fund`}
          order by name, reference`,
      );
      const references = rows.map((row) => row.reference);
      const total = { value: references.length, isEstimate: false };
      for (const window of windows) {
        const page = await findOrganisationsPage(handle.db, filter, window, freshCountOptions());
        listed.push({ name, kind, window, total: page.total, page: page.rows.map((row) => row.reference) });
        plain.push({
          name,
          kind,
          window,
          total,
          page: references.slice(window.offset, window.offset + window.limit),
        });
      }
      listed.push({ name, kind, count: await countOrganisations(handle.db, filter, freshCountOptions()) });
      plain.push({ name, kind, count: total });
      // The graph's windows: after the first match, and from the start.
      const first = rows[0];
      for (const after of first
        ? [undefined, { name: first.name, reference: first.reference }]
        : [undefined]) {
        const window = await findOrganisations(handle.db, filter, { limit: 2, after });
        listed.push({ name, kind, after: after?.reference, window: window.map((row) => row.reference) });
        const from = after ? 1 : 0;
        plain.push({ name, kind, after: after?.reference, window: references.slice(from, from + 2) });
      }
    }
  }
  return { listed, plain };
}

async function addOrganisation(name: string, isFund = false): Promise<string> {
  const reference = randomUUID();
  await handle.db.execute(sql`
    insert into organisations (reference, name, status, verified, confidence, is_fund, employees)
    values (${reference}, ${name}, 'active', false, 50, ${isFund}, 1)`);
  return reference;
}

async function expectAgreement(): Promise<void> {
  expect(await nameFragmentDifferences(handle.db)).toEqual([]);
  const both = await bothAnswers();
  expect(both.listed).toEqual(both.plain);
}

/**
 * Which ways the first page of a name search read: the trigram whose names it walked (the walk's first parameter),
 * and whether it sorted the matches.
 */
async function readsOf(name: string): Promise<{ walked: unknown; sorted: boolean }> {
  const { sent } = await captureStatements(() =>
    findOrganisationsPage(handle.db, { name, showEmpty: true }, { limit: 5, offset: 0 }, freshCountOptions()),
  );
  return {
    walked: sent.find((statement) => statement.query.includes('"organisation_name_trigrams"'))?.params[0],
    sorted: sent.some((statement) => statement.query.includes('"organisation_names"')),
  };
}

describe('the name fragments', () => {
  it('count and page plain name searches exactly through every change to the names', async () => {
    const acme = await addOrganisation('Acme & Co.');
    await addOrganisation('ACME Holdings');
    const fund = await addOrganisation('Acme Growth Fund', true);
    await addOrganisation('100% Pure_Fun\\Ab');
    await addOrganisation('Åland Banking');
    await addOrganisation('주식회사 한빛');
    await addOrganisation('AB');
    for (const name of [
      'Bring',
      'Cling',
      'Ding Ltd',
      'Fling',
      'Kings',
      'Ling Co.',
      'Ming',
      'Ping',
      'Ring',
      'Sing',
    ]) {
      await addOrganisation(name, name.length % 4 === 0);
    }
    for (const name of ['Abc One', 'Abc Two', 'Abc Three', 'Xbcd One', 'Xbcd Two', 'Xbcd Three', 'Abcd']) {
      await addOrganisation(name);
    }
    await expectAgreement();
    // Both ways of reading a page are taken: a page of `ing` walks the names of its one trigram, every one a match;
    // one of `bcd ` the names of `cd ` (3), rarer than those of `bcd` (4); one of `abcd`, in 1 name, sorts, since
    // each of its trigrams is in 4.
    expect(await readsOf('ing')).toEqual({ walked: 'ing', sorted: false });
    expect(await readsOf('bcd ')).toEqual({ walked: 'cd ', sorted: false });
    expect(await readsOf('abcd')).toEqual({ walked: undefined, sorted: true });
    expect(walksNameOrder({ matches: 11, entries: 11, wanted: 5 }, 'organisationList')).toBe(true);
    expect(walksNameOrder({ matches: 1, entries: 4, wanted: 5 }, 'organisationList')).toBe(false);

    // A rename, a fund flag, a new activity (which moves neither), deletes.
    await handle.db.execute(sql`update organisations set name = 'Acme & Cie' where reference = ${acme}`);
    await handle.db.execute(sql`update organisations set is_fund = false where reference = ${fund}`);
    const [before] = await queryRows<{ total: number | string }>(
      handle.db,
      sql`select sum(organisations) as total from organisation_name_fragments`,
    );
    await handle.db.execute(sql`
      insert into events (reference, type, summary, publish_date, organisation_reference)
      values (${randomUUID()}, 'funding', 'A round', now(), ${acme})`);
    const [after] = await queryRows<{ total: number | string }>(
      handle.db,
      sql`select sum(organisations) as total from organisation_name_fragments`,
    );
    expect(Number(after?.total)).toBe(Number(before?.total));
    await handle.db.execute(sql`delete from organisations where name in ('Ring', 'Sing', 'ACME Holdings')`);
    await expectAgreement();

    await handle.db.execute(sql`truncate organisations cascade`);
    await expectAgreement();
    const [left] = await queryRows<{ n: number | string }>(
      handle.db,
      sql`select count(*) as n from organisation_name_fragments`,
    );
    expect(Number(left?.n)).toBe(0);
  });

  it('refuse a name no filter may hold before reading anything', async () => {
    const filter = { name: 'in\u0000g', showEmpty: true };
    await expect(
      findOrganisationsPage(handle.db, filter, { limit: 2, offset: 0 }, freshCountOptions()),
    ).rejects.toMatchObject({ code: 'INVALID_PARAMETER' });
    await expect(findOrganisations(handle.db, filter, { limit: 2 })).rejects.toMatchObject({
      code: 'INVALID_PARAMETER',
    });
    await expect(countOrganisations(handle.db, filter, freshCountOptions())).rejects.toMatchObject({
      code: 'INVALID_PARAMETER',
    });
  });

  /**
   * `Aping`, then `others` names with `pin` but not `ing`, 500 more with `ing` but not `pin`, then 300 with `ping`;
   * and the first page of `ping`, with whether it sorted. Its rarest trigram is `pin`, whose names hold the matches
   * bunched at both ends.
   */
  async function pageOfBunchedMatches(others: number) {
    await handle.db.execute(sql`truncate organisations cascade`);
    await handle.db.execute(sql`
      insert into organisations (reference, name, status, verified, confidence, is_fund, employees)
      select gen_random_uuid(), name, 'active', false, 50, false, 1 from (
        select 'Aping' as name
        union all select 'B pin ' || lpad(i::text, 5, '0') from generate_series(1, ${others}) as i
        union all select 'Cing ' || lpad(i::text, 5, '0') from generate_series(1, ${others} + 500) as i
        union all select 'Ping ' || lpad(i::text, 5, '0') from generate_series(1, 300) as i) as names`);
    await handle.db.execute(sql`analyze organisations`);
    const { result: page, sent } = await captureStatements(() =>
      findOrganisationsPage(
        handle.db,
        { name: 'ping', showEmpty: true },
        { limit: 3, offset: 0 },
        freshCountOptions(),
      ),
    );
    expect(page.total).toEqual({ value: 301, isEstimate: false });
    expect(page.rows.map((row) => row.name)).toEqual(['Aping', 'Ping 00001', 'Ping 00002']);
    expect(walksNameOrder({ matches: 301, entries: others + 301, wanted: 3 }, 'organisationList')).toBe(true);
    const walk = sent.find((statement) => statement.query.includes('"organisation_name_trigrams"'));
    expect(walk?.params).toContain('pin');
    // The sort reads the matches from the narrow mirror; the walk reads the trigrams' names alone.
    return { sorted: sent.some((statement) => statement.query.includes('"organisation_names"')) };
  }

  it('walk on past where the matches were expected, as far as the sort is priced at', async () => {
    // A walk of `pin`'s names expects to pass 16 entries and passes 1,303; the sort is priced at 5 × 301 entries,
    // more than eight times 16, and a walk may pass a thousand more.
    expect(await pageOfBunchedMatches(1_300)).toEqual({ sorted: false });
    expect(walkLimit({ matches: 301, entries: 1_601, wanted: 3 }, 'organisationList')).toBe(2_505);
    // Where eight times the expected walk is more: 8 × 2,100 entries against 5 × 100.
    expect(walkLimit({ matches: 100, entries: 10_000, wanted: 21 }, 'organisationList')).toBe(17_800);
  });

  it('give way to the sort when the matches bunch past what the sort is priced at', async () => {
    // Here the page lies 3,003 entries along, past the walk's 2,505.
    expect(await pageOfBunchedMatches(3_000)).toEqual({ sorted: true });
  });
});
