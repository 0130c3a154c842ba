import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countStatements, queryRows } from '../../src/db/database.ts';
import { resolveOrganisations, resolveProfiles } from '../../src/domain/resolve/index.ts';
import { openTestApp, type TestApp } from '../support/test-app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await openTestApp();
});
afterAll(() => app.close());

const rows = <Row>(query: ReturnType<typeof sql>) => queryRows<Row>(app.services.db, query);

/** Organisations whose name no other organisation shares (by key), with a domain and a company country. */
async function distinctOrganisations(limit: number) {
  return rows<{ reference: string; name: string; domain: string; country: string }>(sql`
    select o.reference::text, o.name, d.domain, ad.country from organisations o
      join lateral (select domain from organisation_domains where organisation_reference = o.reference
        order by is_valid desc, confidence_score desc, domain limit 1) d on true
      join organisation_addresses ad on ad.organisation_reference = o.reference and ad.kind = 'company'
      join organisation_names n on n.reference = o.reference
      where ad.country is not null and not exists (
        select from organisation_names x where x.reference <> o.reference and x.match_key = n.match_key)
      and not exists (select from organisation_aliases a where orgraph_organisation_key(a.name) = n.match_key
          and a.organisation_reference <> o.reference)
      order by o.reference limit ${limit}`);
}

describe('resolveOrganisations', () => {
  it('matches a name written another way, a website and a wrong-cased domain to the record, and explains how', async () => {
    const [record] = await distinctOrganisations(1);
    const [byName, byWebsite, byBoth] = await resolveOrganisations(app.services.db, [
      { name: record!.name.toUpperCase().replace(/,/g, '') },
      { website: `https://www.${record!.domain}/contact` },
      { name: record!.name, domain: record!.domain.toUpperCase(), country: record!.country },
    ]);
    expect(byName!.candidates[0]).toMatchObject({ reference: record!.reference });
    expect(byName!.candidates[0]!.matchedOn).toEqual([
      {
        field: 'name',
        input: record!.name.toUpperCase().replace(/,/g, ''),
        value: record!.name,
        how: 'normalised',
      },
    ]);
    expect(byWebsite!.candidates[0]!.matchedOn[0]).toMatchObject({ field: 'website', how: 'normalised' });
    expect(byWebsite!.candidates[0]!.reference).toBe(record!.reference);
    expect(byBoth).toMatchObject({ status: 'matched', reason: null });
    expect(byBoth!.candidates[0]!.matchedOn.map((m) => [m.field, m.how])).toEqual([
      ['name', 'exact'],
      ['domain', 'normalised'],
      ['country', 'exact'],
    ]);
    expect(byBoth!.candidates[0]!.score).toBeGreaterThan(byName!.candidates[0]!.score);
  });

  it('finds a name with a typo among the names close to it', async () => {
    const [record] = await distinctOrganisations(1);
    const typo = record!.name.replace(/([a-z])([a-z])/, '$2$1');
    const [row] = await resolveOrganisations(app.services.db, [{ name: typo, country: record!.country }]);
    expect(row!.candidates[0]).toMatchObject({ reference: record!.reference });
    expect(row!.candidates[0]!.matchedOn[0]).toMatchObject({ how: 'fuzzy', value: record!.name });
  });

  it('finds a name written with its words in another order by the exact lookup', async () => {
    const records = await distinctOrganisations(200);
    const record = records.find((r) => r.name.replace(/,/g, '').split(' ').length === 2);
    expect(record).toBeDefined();
    const [first, second] = record!.name.replace(/,/g, '').split(' ');
    const [row] = await resolveOrganisations(app.services.db, [{ name: `${second} ${first}` }]);
    expect(row!.candidates[0]).toMatchObject({ reference: record!.reference });
    expect(row!.candidates[0]!.matchedOn[0]).toMatchObject({ how: 'normalised', value: record!.name });
  });

  it('finds a former name and says so', async () => {
    const [former] = await rows<{ reference: string; name: string }>(sql`
      select a.organisation_reference::text as reference, a.name from organisation_aliases a
        where a.end_date < current_date and not exists (select from organisation_names n
          where n.match_key = orgraph_organisation_key(a.name))
        and (select count(*) from organisation_aliases b
          where orgraph_organisation_key(b.name) = orgraph_organisation_key(a.name)) = 1
        order by a.reference limit 1`);
    const [row] = await resolveOrganisations(app.services.db, [{ name: former!.name }]);
    expect(row!.candidates[0]).toMatchObject({ reference: former!.reference });
    expect(row!.candidates[0]!.matchedOn[0]).toMatchObject({ how: 'former_name', value: former!.name });
  });

  it('answers none with a reason for an empty input and for a name no record is like', async () => {
    const answer = await resolveOrganisations(app.services.db, [
      {},
      { name: '  ' },
      { name: 'Qxzvvy Wplmk' },
    ]);
    expect(answer.map((row) => row.status)).toEqual(['none', 'none', 'none']);
    expect(answer[0]!.reason).toMatch(/no name, domain, website or ticker/);
    expect(answer[2]!.reason).toMatch(/no organisation/);
    expect(answer.every((row) => row.candidates.length === 0)).toBe(true);
  });

  it('shares the score between records the input cannot tell apart', async () => {
    const [twin] = await rows<{ name: string }>(sql`
      select min(name) as name from organisations group by name having count(*) = 2 order by 1 limit 1`);
    if (!twin) return;
    const [row] = await resolveOrganisations(app.services.db, [{ name: twin.name }]);
    expect(row!.status).toBe('ambiguous');
    expect(row!.candidates).toHaveLength(2);
    expect(row!.candidates[0]!.score).toBe(row!.candidates[1]!.score);
  });

  it('resolves many inputs in a fixed number of statements', async () => {
    const records = await distinctOrganisations(50);
    const { result, statements } = await countStatements(() =>
      resolveOrganisations(
        app.services.db,
        records.map((record) => ({ name: record.name })),
      ),
    );
    // The lookup with its JIT setting, then the records.
    expect(statements).toBe(3);
    expect(result.map((row) => row.candidates[0]?.reference)).toEqual(
      records.map((record) => record.reference),
    );
  });

  it('refuses options out of range', async () => {
    await expect(resolveOrganisations(app.services.db, [{ name: 'x' }], { minScore: 2 })).rejects.toThrow(
      /min_score/,
    );
    await expect(
      resolveOrganisations(app.services.db, [{ name: 'x' }], { maxCandidates: 0 }),
    ).rejects.toThrow(/max_candidates/);
  });
});

describe('resolveProfiles', () => {
  it('matches by LinkedIn URL variant, by e-mail in any case and by name in another order', async () => {
    const [person] = await rows<{
      reference: string;
      fullName: string;
      linkedinUrl: string;
      email: string;
    }>(sql`
      select p.reference::text, p.full_name as "fullName", p.linkedin_url as "linkedinUrl", m.value as email
        from profiles p join profile_emails m on m.profile_reference = p.reference
        where p.linkedin_url like '%linkedin.com/in/%' and position(' ' in p.full_name) > 0
          and (select count(*) from profiles x where orgraph_person_key(x.full_name) = orgraph_person_key(p.full_name)) = 1
        order by p.reference limit 1`);
    const handle = person!.linkedinUrl.split('/in/')[1]!;
    const [first, ...rest] = person!.fullName.split(' ');
    const answer = await resolveProfiles(app.services.db, [
      { linkedinUrl: `http://uk.linkedin.com/in/${handle.toUpperCase()}/` },
      { email: person!.email.toUpperCase() },
      { name: `${rest.join(' ')} ${first}` },
    ]);
    expect(answer.map((row) => row.candidates[0]?.reference)).toEqual([
      person!.reference,
      person!.reference,
      person!.reference,
    ]);
    expect(answer[0]!.candidates[0]!.matchedOn[0]).toMatchObject({ field: 'linkedinUrl', how: 'normalised' });
    expect(answer[0]!.status).toBe('matched');
    expect(answer[1]!.status).toBe('matched');
    expect(answer[2]!.candidates[0]!.matchedOn[0]).toMatchObject({ field: 'name', how: 'normalised' });
  });

  it('finds a person by a close name: a typo in the first name, and a typo in a name written last name first', async () => {
    // People whose name no one else has, written first name then last name, both of five letters or more.
    const [person, other] = await rows<{
      reference: string;
      fullName: string;
      firstName: string;
      lastName: string;
    }>(sql`
      select p.reference::text, p.full_name as "fullName", p.first_name as "firstName", p.last_name as "lastName"
        from profiles p
        where p.full_name = p.first_name || ' ' || p.last_name
          and p.first_name ~ '^[A-Z][a-z]{4,}$' and p.last_name ~ '^[A-Z][a-z]{4,}$'
          and (select count(*) from profiles x where orgraph_person_key(x.full_name) = orgraph_person_key(p.full_name)) = 1
        order by p.reference limit 2`);
    // Two letters swapped near the start of a word: the name is no longer next to its record in first-name order.
    const swapped = (word: string) => `${word[0]}${word[2]}${word[1]}${word.slice(3)}`;
    const firstNameTypo = `${swapped(person!.firstName)} ${person!.lastName}`;
    const lastFirstTypo = `${other!.lastName}, ${swapped(other!.firstName)}`;
    const answer = await resolveProfiles(app.services.db, [{ name: firstNameTypo }, { name: lastFirstTypo }]);
    expect(answer.map((row) => row.candidates[0]?.reference)).toEqual([person!.reference, other!.reference]);
    expect(answer.map((row) => row.candidates[0]!.matchedOn[0])).toEqual([
      { field: 'name', input: firstNameTypo, value: person!.fullName, how: 'fuzzy' },
      { field: 'name', input: lastFirstTypo, value: other!.fullName, how: 'fuzzy' },
    ]);
  });
});
