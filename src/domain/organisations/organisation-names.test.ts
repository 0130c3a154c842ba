import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openScratchStore, type ScratchStore } from '../../../test/support/scratch-store.ts';
import { countStatements, type DatabaseHandle, queryRows } from '../../db/database.ts';
import { countSuggestions, findSuggestions } from '../suggestions/find-suggestions.ts';
import { likeSubstring } from '../text-filter.ts';
import { countOrganisations, findOrganisations, findOrganisationsPage } from './find-organisations.ts';

// A store of its own (a scratch database on PostgreSQL, a temporary directory embedded), since the test writes
// organisations.
let store: ScratchStore;
let handle: DatabaseHandle;

beforeAll(async () => {
  store = await openScratchStore('names');
  handle = store.handle;
});

afterAll(async () => {
  await store?.close();
});

/** Rows where organisation_names differs from the columns it mirrors (missing, extra or different). */
async function differences(): Promise<unknown[]> {
  return queryRows(
    handle.db,
    sql`select o.reference as organisation, n.reference as mirror
      from organisations o full join organisation_names n on n.reference = o.reference
      where o.reference is null or n.reference is null
        or (n.name, n.name_lower, n.status, n.verified, n.confidence, n.is_fund, n.has_activity, n.country)
          is distinct from (o.name, lower(o.name), o.status, o.verified, o.confidence, o.is_fund, o.has_activity,
            (select a.country from organisation_addresses a where a.organisation_reference = o.reference and a.kind = 'company'))`,
  );
}

async function insert(reference: string, name: string): Promise<void> {
  await handle.db.execute(sql`
    insert into organisations (reference, name, status, verified, confidence, is_fund, employees)
    values (${reference}, ${name}, 'active', true, 50, false, 10)`);
}

// Names whose lower case differs from the upper case in length or form: dotted capital I, capital sharp s,
// final sigma, a titlecase digraph, the Kelvin and Ohm signs, a Roman numeral, and the LIKE metacharacters.
const names = [
  'İSTANBUL Ticaret',
  'GROẞE Straße GmbH',
  'ΟΔΥΣΣΕΥΣ Shipping',
  'ǅemal Holdings',
  '5 K Labs',
  '10 Ω Audio',
  'Ⅻ Partners',
  '100% Natural_Foods \\ Co',
  'Plain Name Ltd',
  'Smith-Sanders & Co.',
  "O'Brien (Holdings), A/S",
  'Alpha Sanders\tCo',
];
const needles = [
  'i',
  'İs',
  'istanbul',
  'ss',
  'ß',
  'ẞe',
  'σσ',
  'ς',
  'ǆ',
  'ǅem',
  'k ',
  'ω',
  'ⅻ',
  '%',
  '_',
  '\\',
  '0% n',
  'plain',
  // Blanks and punctuation, which the trigram index sees as digits (name_key).
  'e s',
  '-sa',
  'a sa',
  's & c',
  "o'b",
  '(h',
  '), a',
  'a/s',
  'o.',
  's\tc',
  'l_f',
  '% n',
  '\\ c',
  'e g',
  'n t',
];

describe('organisation_names', () => {
  const references = names.map(() => randomUUID());

  it('mirrors organisations through inserts, updates, deletes and the activity triggers', async () => {
    for (const [index, name] of names.entries()) await insert(references[index]!, name);
    expect(await differences()).toEqual([]);

    await handle.db.execute(sql`update organisations set confidence = 3, status = 'dormant', is_fund = true
      where reference = ${references[0]!}`);
    await handle.db.execute(sql`update organisations set name = name || ' Renamed', verified = false
      where reference = ${references[1]!}`);
    await handle.db.execute(sql`update organisations set description = 'Only the description'`);
    expect(await differences()).toEqual([]);

    await handle.db.execute(sql`
      insert into events (reference, type, summary, publish_date, organisation_reference)
      values (${randomUUID()}, 'funding', 'A round', now(), ${references[2]!})`);
    const [flag] = await queryRows<{ has_activity: boolean }>(
      handle.db,
      sql`select has_activity from organisation_names where reference = ${references[2]!}`,
    );
    expect(flag?.has_activity).toBe(true);
    expect(await differences()).toEqual([]);

    const gone = randomUUID();
    await insert(gone, 'Short Lived');
    await handle.db.execute(sql`delete from organisations where reference = ${gone}`);
    expect(await differences()).toEqual([]);
  });

  it('matches a substring exactly as `name ilike` does, for every name and needle', async () => {
    for (const needle of needles) {
      const pattern = likeSubstring(needle);
      const byIlike = await queryRows<{ reference: string }>(
        handle.db,
        sql`select reference from organisations where name ilike ${pattern} order by reference`,
      );
      const byMirror = await queryRows<{ reference: string }>(
        handle.db,
        sql`select reference from organisation_names where name_lower like lower(${pattern}) order by reference`,
      );
      expect(byMirror, needle).toEqual(byIlike);

      // The list, its count and suggestions, which read the mirror, agree with it.
      const filter = { name: needle, showEmpty: true, kind: 'all' } as const;
      const expected = byIlike.map((row) => row.reference).sort();
      const listed = await findOrganisations(handle.db, filter, { limit: 100 });
      expect(listed.map((row) => row.reference).sort(), needle).toEqual(expected);
      const total = await countOrganisations(handle.db, filter, { timeoutMs: 5_000 });
      expect(total.value, needle).toBe(expected.length);
      const page = await findOrganisationsPage(
        handle.db,
        filter,
        { limit: 100, offset: 0 },
        { timeoutMs: 5_000 },
      );
      expect(page.total.value, needle).toBe(expected.length);
      const suggested = await findSuggestions(handle.db, needle, { limit: 100, offset: 0 });
      expect(
        suggested
          .filter((row) => row.fieldType === 'Organisation')
          .map((row) => row.value)
          .sort(),
        needle,
      ).toEqual(expected);
    }
  });
});

describe('organisation_names.name_key', () => {
  it('tells blanks from each common punctuation mark, so a fragment with either finds only its own candidates', async () => {
    const [row] = await queryRows<{ key: string }>(
      handle.db,
      sql`select orgraph_name_key(${"O'Brien (Holdings), A/S-Co. & 5\tX"}) as key`,
    );
    expect(row?.key).toBe('o5brien07holdings730a6s1co204058x');

    const candidates = async (needle: string) =>
      (
        await queryRows<{ name: string }>(
          handle.db,
          sql`select name from organisation_names where name_key like '%' || orgraph_name_key(${needle}) || '%'
            order by name`,
        )
      ).map((candidate) => candidate.name);
    expect(await candidates('-Sa')).toEqual(['Smith-Sanders & Co.']);
    expect(await candidates(' Sa')).toEqual(['Alpha Sanders\tCo']);
  });
});

describe('organisation_names.country', () => {
  const [first, second, third] = [randomUUID(), randomUUID(), randomUUID()];

  async function address(
    reference: string,
    kind: 'company' | 'mailing',
    country: string | null,
  ): Promise<void> {
    await handle.db.execute(sql`
      insert into organisation_addresses (organisation_reference, kind, country) values (${reference}, ${kind}, ${country})`);
  }

  /** The narrow list (country with industry and status) through the domain, and the same filter on organisations. */
  async function listedAndExpected(country: string) {
    const expected = await queryRows<{ reference: string }>(
      handle.db,
      sql`select reference from organisations o where not is_fund and confidence >= 10 and status = 'active'
        and exists (select 1 from organisation_addresses ad
          where ad.organisation_reference = o.reference and ad.kind = 'company' and ad.country = ${country})
        and exists (select 1 from organisation_industries i
          where i.organisation_reference = o.reference and i.industry_code like '1510%')
        order by name, reference`,
    );
    const filter = {
      country,
      industry: '1510',
      status: 'active',
      minConfidence: 10,
      showEmpty: true,
    } as const;
    const page = await findOrganisationsPage(
      handle.db,
      filter,
      { limit: 100, offset: 0 },
      { timeoutMs: 5_000 },
    );
    return {
      listed: { references: page.rows.map((row) => row.reference), total: page.total.value },
      expected: { references: expected.map((row) => row.reference), total: expected.length },
    };
  }

  it('follows company addresses through inserts, updates of country, kind and organisation, and deletes', async () => {
    // An organisation and its address in one statement: whichever statement trigger runs first, the country lands.
    await handle.db.execute(sql`
      with organisation as (
        insert into organisations (reference, name, status, verified, confidence, is_fund, employees)
        values (${first}, 'Country First', 'active', true, 50, false, 10))
      insert into organisation_addresses (organisation_reference, kind, country) values (${first}, 'company', 'DE')`);
    await insert(second, 'Country Second');
    await insert(third, 'Country Third');
    for (const reference of [first, second, third]) {
      await handle.db.execute(sql`
        insert into organisation_industries (organisation_reference, industry_code, is_primary)
        values (${reference}, '15101010', true), (${reference}, '15101020', false)`);
    }
    await address(second, 'company', 'DE');
    await address(second, 'mailing', 'FR');
    await address(third, 'mailing', 'DE');
    expect(await differences()).toEqual([]);
    let lists = await listedAndExpected('DE');
    expect(lists.listed.references).toHaveLength(2);
    expect(lists.listed).toEqual(lists.expected);

    // A company address changes country; a mailing address becomes the company address; one moves organisation.
    await handle.db.execute(sql`update organisation_addresses set country = 'FR'
      where organisation_reference = ${first} and kind = 'company'`);
    await handle.db.execute(sql`update organisation_addresses set kind = 'company'
      where organisation_reference = ${third} and kind = 'mailing'`);
    expect(await differences()).toEqual([]);
    await handle.db.execute(sql`delete from organisation_addresses where organisation_reference = ${second}`);
    await handle.db.execute(sql`update organisation_addresses set organisation_reference = ${second}
      where organisation_reference = ${first}`);
    expect(await differences()).toEqual([]);
    for (const country of ['DE', 'FR']) {
      lists = await listedAndExpected(country);
      expect(lists.listed.references, country).toHaveLength(1);
      expect(lists.listed, country).toEqual(lists.expected);
    }

    // A country set to null, then every address deleted in one statement.
    await handle.db.execute(
      sql`update organisation_addresses set country = null where organisation_reference = ${third}`,
    );
    expect(await differences()).toEqual([]);
    await handle.db.execute(sql`delete from organisation_addresses
      where organisation_reference in (${first}, ${second}, ${third})`);
    expect(await differences()).toEqual([]);
    lists = await listedAndExpected('FR');
    expect(lists.listed).toEqual({ references: [], total: 0 });
    expect(lists.listed).toEqual(lists.expected);

    // Truncating the addresses, which fires no row trigger, clears the countries too.
    await address(first, 'company', 'DE');
    expect(await differences()).toEqual([]);
    await handle.db.execute(sql`truncate organisation_addresses`);
    expect(await differences()).toEqual([]);
  });
});

describe('suggestions', () => {
  it('count beside their page: one statement answers both', async () => {
    const { result, statements } = await countStatements(() =>
      Promise.all([
        findSuggestions(handle.db, 'Partners', { limit: 10, offset: 0 }),
        countSuggestions(handle.db, 'Partners', 200),
      ]),
    );
    const [rows, total] = result;
    expect(statements).toBe(1);
    expect(total).toEqual({ value: rows.length, isEstimate: false });
    expect(rows.length).toBeGreaterThan(0);
  });

  it('count on their own past the last match', async () => {
    const text = 'Audio';
    const all = await findSuggestions(handle.db, text, { limit: 100, offset: 0 });
    const { result, statements } = await countStatements(() =>
      Promise.all([
        findSuggestions(handle.db, `  ${text}`, { limit: 10, offset: 50 }),
        countSuggestions(handle.db, `  ${text}`, 200),
      ]),
    );
    expect(result[0]).toEqual([]);
    expect(result[1]).toEqual({ value: all.length, isEstimate: false });
    // The name fragments' count (a text of three to six characters), the page, then the count's own time limit and
    // statement.
    expect(statements).toBe(4);
  });
});
