import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/database.ts';
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

interface Link {
  href: string;
  method: string;
}
interface Meta {
  total: number;
  rows_per_page: number;
  page: number;
  total_pages: number;
  links: Record<string, Link>;
}
interface CurrentRole {
  title: string;
  organisation: string | null;
  start_date: string | null;
}
interface ProfileRow {
  reference: string;
  name: string;
  first_name: string;
  last_name: string;
  linkedin_url: string | null;
  confidence_score: number | null;
  current_role: CurrentRole | null;
}
interface ProfileRecord {
  reference: string;
  names: { fullName: string; firstName: string; lastName: string };
  current_role: CurrentRole | null;
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
interface WireAnnotation {
  reference: string;
  type: string;
  summary: string;
  text: string | null;
  start: number;
  end: number;
  speaker: { kind: string; name: string; profile_reference: string | null };
  subject: { name: string; profile_reference: string | null };
  history_count?: number;
}
interface ProfileArticleItem {
  article: { reference: string; title: string; url: string | null; published_at: string };
  events: { reference: string; type: string; summary: string | null }[];
  about: WireAnnotation[];
  by: WireAnnotation[];
}

async function list<Row>(path: string) {
  const { status, body } = await app.getJson<{ success: Row[]; meta: Meta; status: { messages: string[] } }>(
    path,
  );
  expect(status, `${path}: ${JSON.stringify(body.status)}`).toBe(200);
  return body;
}

/** Every row of a list, following `next-page` links from `path`. */
async function walk<Row>(path: string): Promise<{ rows: Row[]; pages: number; total: number }> {
  const all: Row[] = [];
  let next: string | undefined = path;
  let pages = 0;
  let total = 0;
  while (next) {
    const body: { success: Row[]; meta: Meta } = await list<Row>(next);
    all.push(...body.success);
    total = body.meta.total;
    pages += 1;
    next = body.meta.links['next-page']?.href;
    if (pages > 500) throw new Error(`more than 500 pages from ${path}`);
  }
  return { rows: all, pages, total };
}

describe('GET /v1/profiles', () => {
  it('sorts by surname, then first name, then reference', async () => {
    const body = await list<ProfileRow>('/v1/profiles?limit=100');
    const expected = await rows<{ reference: string }>(
      sql`select reference from profiles order by last_name, first_name, reference limit 100`,
    );
    expect(body.success.map((row) => row.reference)).toEqual(expected.map((row) => row.reference));
    expect(body.meta).toMatchObject({ total: 6000, rows_per_page: 100, page: 1, total_pages: 60 });
    const first = body.success[0]!;
    const [stored] = await rows<{ full_name: string; first_name: string; last_name: string }>(
      sql`select full_name, first_name, last_name from profiles where reference = ${first.reference}`,
    );
    expect([first.name, first.first_name, first.last_name]).toEqual([
      stored!.full_name,
      stored!.first_name,
      stored!.last_name,
    ]);
    expect(Object.keys(first).sort()).toEqual(
      [
        'confidence_score',
        'current_role',
        'first_name',
        'last_name',
        'linkedin_url',
        'name',
        'reference',
      ].sort(),
    );
  });

  it('visits every profile exactly once when following next-page links', async () => {
    const { rows: seen, pages, total } = await walk<ProfileRow>('/v1/profiles?limit=100');
    expect(total).toBe(6000);
    expect(pages).toBe(60);
    expect(seen).toHaveLength(6000);
    expect(new Set(seen.map((row) => row.reference)).size).toBe(6000);
  });

  it('caps limit at 100', async () => {
    const body = await list<ProfileRow>('/v1/profiles?limit=1000');
    expect(body.success).toHaveLength(100);
    expect(body.meta.rows_per_page).toBe(100);
  });

  it('searches a case-insensitive substring of the full name', async () => {
    const [{ count }] = (await rows<{ count: number }>(
      sql`select count(*)::int as count from profiles where lower(full_name) like '%son%'`,
    )) as [{ count: number }];
    expect(count).toBeGreaterThan(20);
    const { rows: found, total } = await walk<ProfileRow>('/v1/profiles?search=SoN&limit=100');
    expect(total).toBe(count);
    expect(found).toHaveLength(count);
    for (const row of found) expect(row.name.toLowerCase()).toContain('son');
  });

  it('takes % and _ in search literally', async () => {
    for (const search of ['%', '_', 'a%n', 's_n', '\\']) {
      const body = await list<ProfileRow>(`/v1/profiles?search=${encodeURIComponent(search)}`);
      expect(body.success, search).toEqual([]);
      expect(body.meta.total, search).toBe(0);
    }
  });

  it('filters by organisation: everyone with a current or past role there, nobody else', async () => {
    const [organisation] = await rows<{ reference: string }>(sql`
      select organisation_reference as reference from experiences where organisation_reference is not null
      group by organisation_reference
      having bool_or(end_date is null) and bool_or(end_date is not null)
      order by count(distinct profile_reference) desc, organisation_reference limit 1`);
    const staff = await rows<{ reference: string; current: boolean }>(sql`
      select profile_reference as reference, bool_or(end_date is null) as current from experiences
      where organisation_reference = ${organisation!.reference} group by profile_reference`);
    expect(staff.some((person) => person.current)).toBe(true);
    expect(staff.some((person) => !person.current)).toBe(true);
    const { rows: found, total } = await walk<ProfileRow>(
      `/v1/profiles?organisationReference=${organisation!.reference}&limit=7`,
    );
    expect(total).toBe(staff.length);
    expect(found.map((row) => row.reference).sort()).toEqual(staff.map((person) => person.reference).sort());
  });

  it('returns nobody for an organisation with no staff, and 422 for a malformed reference', async () => {
    const body = await list<ProfileRow>(
      '/v1/profiles?organisationReference=00000000-0000-4000-8000-000000000000',
    );
    expect(body.success).toEqual([]);
    const bad = await app.getJson<{ status: { messages: string[] } }>(
      '/v1/profiles?organisationReference=acme',
    );
    expect(bad.status).toBe(422);
    expect(bad.body.status.messages.join(' ')).toContain('organisationReference');
  });

  const profileTypeSets: Record<string, SQL> = {
    business_owner: sql`select distinct profile_reference as reference from profile_stakes where is_active`,
    investment_advisor: sql`select reference from profiles where is_registered_adviser`,
    broker: sql`select reference from profiles where is_registered_adviser`,
    funding_participant: sql`select distinct p.profile_reference as reference from event_participants p
      join events e on e.reference = p.event_reference where e.type = 'funding'`,
    public_offering_participant: sql`select distinct p.profile_reference as reference from event_participants p
      join events e on e.reference = p.event_reference where e.type = 'public_offering'`,
  };

  for (const [profileType, query] of Object.entries(profileTypeSets)) {
    it(`filters profileType=${profileType} to exactly its people`, async () => {
      const expected = new Set((await rows<{ reference: string }>(query)).map((row) => row.reference));
      expect(expected.size).toBeGreaterThan(0);
      expect(expected.size).toBeLessThan(6000);
      const body = await list<ProfileRow>(`/v1/profiles?profileType=${profileType}&limit=100`);
      expect(body.meta.total).toBe(expected.size);
      expect(body.success).toHaveLength(Math.min(100, expected.size));
      for (const row of body.success) expect(expected.has(row.reference), row.reference).toBe(true);
    });
  }

  it('gives investment_advisor and broker the same people', async () => {
    const advisers = await walk<ProfileRow>('/v1/profiles?profileType=investment_advisor&limit=100');
    const brokers = await walk<ProfileRow>('/v1/profiles?profileType=broker&limit=100');
    expect(advisers.rows.length).toBeGreaterThan(0);
    expect(brokers.rows.map((row) => row.reference)).toEqual(advisers.rows.map((row) => row.reference));
  });

  it('combines filters', async () => {
    const [{ count }] = (await rows<{ count: number }>(sql`
      select count(*)::int as count from profiles p where p.is_registered_adviser and p.full_name ilike '%an%'`)) as [
      { count: number },
    ];
    const body = await list<ProfileRow>('/v1/profiles?profileType=broker&search=an&limit=5');
    expect(body.meta.total).toBe(count);
    for (const row of body.success) expect(row.name.toLowerCase()).toContain('an');
  });

  it('rejects an unknown profileType with 422', async () => {
    const { status, body } = await app.getJson<{ status: { messages: string[] } }>(
      '/v1/profiles?profileType=banker',
    );
    expect(status).toBe(422);
    expect(body.status.messages.join(' ')).toContain('profileType');
  });
});

describe('current_role', () => {
  async function currentRoles(condition: SQL) {
    const [person] = await rows<{ reference: string }>(sql`
      select profile_reference as reference from experiences group by profile_reference having ${condition}
      order by profile_reference limit 1`);
    expect(person, 'a matching person in the dataset').toBeDefined();
    const roles = await rows<{
      title: string;
      start_date: string | null;
      end_date: string | null;
      name: string | null;
    }>(sql`
      select e.occupation_title as title, e.start_date::text as start_date, e.end_date::text as end_date, o.name
      from experiences e left join organisations o on o.reference = e.organisation_reference
      where e.profile_reference = ${person!.reference}`);
    const profile = await app.getJson<{ success: ProfileRecord }>(`/v1/profiles/${person!.reference}`);
    expect(profile.status).toBe(200);
    const listed = await list<ProfileRow>(
      `/v1/profiles?search=${encodeURIComponent(profile.body.success.names.fullName)}&limit=100`,
    );
    const row = listed.success.find((candidate) => candidate.reference === person!.reference);
    expect(row).toBeDefined();
    expect(row!.current_role).toEqual(profile.body.success.current_role);
    return { roles, current: profile.body.success.current_role };
  }

  it('is the most recently started of several current roles', async () => {
    const { roles, current } = await currentRoles(
      sql`count(*) filter (where end_date is null and start_date is not null and organisation_reference is not null) >= 2
        and count(*) filter (where end_date is null and start_date is null and organisation_reference is not null) = 0`,
    );
    const open = roles.filter((role) => role.end_date === null && role.name !== null);
    const latest = open.reduce((best, role) => (role.start_date! > best.start_date! ? role : best));
    expect(current).toEqual({
      title: latest.title,
      organisation: latest.name,
      start_date: latest.start_date,
    });
  });

  it('prefers a dated current role over an undated one', async () => {
    const { roles, current } = await currentRoles(
      sql`count(*) filter (where end_date is null and start_date is not null and organisation_reference is not null) >= 1
        and count(*) filter (where end_date is null and start_date is null and organisation_reference is not null) >= 1`,
    );
    const dated = roles.filter(
      (role) => role.end_date === null && role.start_date !== null && role.name !== null,
    );
    const latest = dated.reduce((best, role) => (role.start_date! > best.start_date! ? role : best));
    expect(current).toEqual({
      title: latest.title,
      organisation: latest.name,
      start_date: latest.start_date,
    });
  });

  it('is the open role held at an organisation when another open role has none', async () => {
    const { roles, current } = await currentRoles(
      sql`count(*) filter (where end_date is null and organisation_reference is null) >= 1
        and count(*) filter (where end_date is null and organisation_reference is not null) = 1`,
    );
    const [placed] = roles.filter((role) => role.end_date === null && role.name !== null);
    expect(current).toEqual({
      title: placed!.title,
      organisation: placed!.name,
      start_date: placed!.start_date,
    });
  });

  it('is null when every role has ended, even one that started later than any other', async () => {
    const { roles, current } = await currentRoles(sql`count(*) filter (where end_date is null) = 0`);
    expect(roles.length).toBeGreaterThan(0);
    expect(current).toBeNull();
  });
});

describe('GET /v1/profiles/{profileReference}', () => {
  it('returns the names, history (current first, then newest start), emails and a LinkedIn link', async () => {
    const [person] = await rows<{ reference: string }>(sql`
      select p.reference from profiles p where p.linkedin_url is not null
        and (select count(*) from experiences e where e.profile_reference = p.reference) >= 4
        and exists (select 1 from experiences e where e.profile_reference = p.reference and e.end_date is null)
        and exists (select 1 from profile_emails m where m.profile_reference = p.reference)
      order by p.reference limit 1`);
    const [stored] = await rows<{
      full_name: string;
      first_name: string;
      last_name: string;
      linkedin_url: string;
      confidence_score: number | null;
    }>(
      sql`select full_name, first_name, last_name, linkedin_url, confidence_score from profiles where reference = ${person!.reference}`,
    );
    const { status, body } = await app.getJson<{ success: ProfileRecord; meta: null }>(
      `/v1/profiles/${person!.reference}`,
    );
    expect(status).toBe(200);
    expect(body.meta).toBeNull();
    const profile = body.success;
    expect(profile.reference).toBe(person!.reference);
    expect(profile.names).toEqual({
      fullName: stored!.full_name,
      firstName: stored!.first_name,
      lastName: stored!.last_name,
    });
    expect(profile.confidenceScore).toBeCloseTo(Number(stored!.confidence_score), 5);
    expect(profile.links).toEqual({ Linkedin: { href: stored!.linkedin_url } });

    const history = await rows<{ reference: string }>(
      sql`select reference from experiences where profile_reference = ${person!.reference}`,
    );
    expect(profile.experiences.map((e) => e.reference).sort()).toEqual(
      history.map((e) => e.reference).sort(),
    );
    const ends = profile.experiences.map((e) => e.endDate === null);
    expect(ends.indexOf(false) === -1 || ends.lastIndexOf(true) < ends.indexOf(false)).toBe(true);
    for (const group of [true, false]) {
      const starts = profile.experiences
        .filter((e) => (e.endDate === null) === group)
        .map((e) => e.startDate);
      const dated = starts.filter((s): s is string => s !== null);
      expect(dated).toEqual([...dated].sort().reverse());
      expect(starts.slice(dated.length).every((s) => s === null)).toBe(true);
    }
    expect(profile.current_role?.title).toBe(profile.experiences[0]!.occupation_title);

    const emails = await rows<{ value: string; is_valid: boolean }>(
      sql`select value, is_valid from profile_emails where profile_reference = ${person!.reference}`,
    );
    expect(profile.emails.map((m) => m.value).sort()).toEqual(emails.map((m) => m.value).sort());
    const scores = profile.emails.map((m) => m.confidence_score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(Object.keys(profile.emails[0]!).sort()).toEqual([
      'confidence_score',
      'domain',
      'is_valid',
      'value',
    ]);
  });

  it('gives an empty array for links without a LinkedIn address', async () => {
    const [person] = await rows<{ reference: string }>(
      sql`select reference from profiles where linkedin_url is null order by reference limit 1`,
    );
    const { body } = await app.getJson<{ success: ProfileRecord }>(`/v1/profiles/${person!.reference}`);
    expect(body.success.links).toEqual([]);
  });

  it('shows an experience with no organisation or occupation as null ones, with the recorded title', async () => {
    const [experience] = await rows<{
      reference: string;
      profile_reference: string;
      occupation_title: string;
    }>(sql`
      select reference, profile_reference, occupation_title from experiences
      where organisation_reference is null and occupation_reference is null order by reference limit 1`);
    const { body } = await app.getJson<{ success: ProfileRecord }>(
      `/v1/profiles/${experience!.profile_reference}`,
    );
    const entry = body.success.experiences.find((e) => e.reference === experience!.reference);
    expect(entry).toMatchObject({
      organisation: null,
      occupation: null,
      occupation_title: experience!.occupation_title,
    });
  });

  it('is 404 for an unknown reference and 422 for a malformed one', async () => {
    const missing = await app.getJson<{ status: { code: number; messages: string[] } }>(
      '/v1/profiles/00000000-0000-4000-8000-000000000000',
    );
    expect(missing.status).toBe(404);
    expect(missing.body.status.messages[0]).toContain('00000000-0000-4000-8000-000000000000');
    const malformed = await app.getJson<{ status: { code: number } }>('/v1/profiles/not-a-uuid');
    expect(malformed.status).toBe(422);
    expect(malformed.body.status.code).toBe(422);
  });
});

interface StoredStatement {
  reference: string;
  article_reference: string;
  published_at: string;
  organisation_reference: string | null;
  type: string;
  speaker_key: string;
  start: number;
  role: 'about' | 'by';
}

/** A person's statements, one row per side, newest article first: the data the folding rule reads. */
function statementsOf(person: string) {
  return rows<StoredStatement>(sql`
    select a.reference, a.article_reference, to_char(r.published_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US') as published_at,
      a.organisation_reference, a.type::text as type,
      coalesce(a.speaker_profile_reference::text, a.speaker_kind::text || ':' || a.speaker_name) as speaker_key,
      a.start, s.role
    from annotations a join articles r on r.reference = a.article_reference
    cross join lateral (values ('about'), ('by')) as s(role)
    where (s.role = 'about' and a.subject_profile_reference = ${person})
       or (s.role = 'by' and a.speaker_profile_reference = ${person})
    order by r.published_at desc, r.reference desc, a.start, a.reference`);
}

/** The folding rule written out independently: per side, organisation, type and speaker, the newest survives. */
function fold(statements: StoredStatement[]): Map<string, number> {
  const series = new Map<string, StoredStatement[]>();
  for (const statement of statements) {
    const key =
      statement.organisation_reference === null
        ? `${statement.role}|single|${statement.reference}`
        : `${statement.role}|${statement.organisation_reference}|${statement.type}|${statement.speaker_key}`;
    series.set(key, [...(series.get(key) ?? []), statement]);
  }
  const kept = new Map<string, number>();
  for (const members of series.values())
    kept.set(`${members[0]!.role}:${members[0]!.reference}`, members.length);
  return kept;
}

function statementsIn(items: ProfileArticleItem[]): Map<string, number | undefined> {
  const found = new Map<string, number | undefined>();
  for (const item of items) {
    for (const role of ['about', 'by'] as const) {
      for (const annotation of item[role])
        found.set(`${role}:${annotation.reference}`, annotation.history_count);
    }
  }
  return found;
}

describe('GET /v1/profiles/{profileReference}/articles', () => {
  let series: { person: string; members: string[]; newest: string };

  beforeAll(async () => {
    const [found] = await rows<{ person: string; members: string[] }>(sql`
      select a.subject_profile_reference as person,
        array_agg(a.reference::text order by r.published_at desc, r.reference desc, a.start) as members
      from annotations a join articles r on r.reference = a.article_reference
      where a.subject_profile_reference is not null and a.organisation_reference is not null
      group by a.subject_profile_reference, a.organisation_reference, a.type,
        coalesce(a.speaker_profile_reference::text, a.speaker_kind::text || ':' || a.speaker_name)
      having count(distinct a.article_reference) >= 3
      order by count(*) desc, a.subject_profile_reference limit 1`);
    expect(found, 'a yearly series in the dataset').toBeDefined();
    series = { person: found!.person, members: found!.members, newest: found!.members[0]! };
  });

  it('lists the articles newest first with the statements on each side', async () => {
    const { rows: items, total } = await walk<ProfileArticleItem>(
      `/v1/profiles/${series.person}/articles?collapse=none&limit=2`,
    );
    expect(items.length).toBe(total);
    const times = items.map((item) => item.article.published_at);
    expect(times).toEqual([...times].sort().reverse());
    const articles = await rows<{ reference: string }>(sql`
      select distinct article_reference as reference from annotations
      where subject_profile_reference = ${series.person} or speaker_profile_reference = ${series.person}`);
    expect(items.map((item) => item.article.reference).sort()).toEqual(
      articles.map((a) => a.reference).sort(),
    );
    for (const item of items) {
      expect(item.about.length + item.by.length).toBeGreaterThan(0);
      for (const annotation of item.about) expect(annotation.subject.profile_reference).toBe(series.person);
      for (const annotation of item.by) expect(annotation.speaker.profile_reference).toBe(series.person);
      const starts = item.about.map((annotation) => annotation.start);
      expect(starts).toEqual([...starts].sort((a, b) => a - b));
    }
  });

  it('folds a yearly series into its newest statement with history_count (collapse=latest, the default)', async () => {
    const folded = statementsIn(
      (await walk<ProfileArticleItem>(`/v1/profiles/${series.person}/articles`)).rows,
    );
    expect(folded.get(`about:${series.newest}`)).toBe(series.members.length);
    for (const older of series.members.slice(1)) expect(folded.has(`about:${older}`), older).toBe(false);
    for (const count of folded.values()) expect(count).toBeGreaterThanOrEqual(1);

    const all = statementsIn(
      (await walk<ProfileArticleItem>(`/v1/profiles/${series.person}/articles?collapse=none`)).rows,
    );
    for (const member of series.members) expect(all.has(`about:${member}`), member).toBe(true);
    for (const count of all.values()) expect(count).toBeUndefined();
  });

  it('folds exactly as the rule says for people with many statements, and drops emptied articles', async () => {
    const busy = await rows<{ person: string }>(sql`
      select person from (
        select subject_profile_reference as person from annotations where subject_profile_reference is not null
        union all
        select speaker_profile_reference from annotations where speaker_profile_reference is not null
      ) s group by person order by count(*) desc, person limit 4`);
    const people = [...busy.map((row) => row.person), series.person];
    for (const person of people) {
      const statements = await statementsOf(person);
      const expected = fold(statements);
      const { rows: items, total } = await walk<ProfileArticleItem>(
        `/v1/profiles/${person}/articles?limit=100`,
      );
      expect(Object.fromEntries(statementsIn(items)), person).toEqual(Object.fromEntries(expected));
      const keptArticles = new Set(
        statements.filter((s) => expected.has(`${s.role}:${s.reference}`)).map((s) => s.article_reference),
      );
      expect(total, person).toBe(keptArticles.size);
      const none = await list<ProfileArticleItem>(`/v1/profiles/${person}/articles?collapse=none&limit=1`);
      expect(none.meta.total).toBe(new Set(statements.map((s) => s.article_reference)).size);
    }
  });

  it('filters by type: only statements of that type, only articles that have one', async () => {
    const statements = await statementsOf(series.person);
    const type = statements.find((s) => s.reference === series.newest)!.type;
    const { rows: items, total } = await walk<ProfileArticleItem>(
      `/v1/profiles/${series.person}/articles?collapse=none&type=${type}`,
    );
    const expected = statements.filter((s) => s.type === type);
    expect(total).toBe(new Set(expected.map((s) => s.article_reference)).size);
    expect([...statementsIn(items).keys()].sort()).toEqual(
      expected.map((s) => `${s.role}:${s.reference}`).sort(),
    );
    for (const item of items) {
      expect(item.about.length + item.by.length).toBeGreaterThan(0);
      for (const annotation of [...item.about, ...item.by]) expect(annotation.type).toBe(type);
    }
  });

  it('filters by role: only that side, only articles where the person is on it', async () => {
    const [speaker] = await rows<{ person: string }>(sql`
      select speaker_profile_reference as person from annotations where speaker_profile_reference is not null
        and speaker_profile_reference in (select subject_profile_reference from annotations)
      group by speaker_profile_reference order by count(*) desc, speaker_profile_reference limit 1`);
    const statements = await statementsOf(speaker!.person);
    for (const role of ['about', 'by'] as const) {
      const other = role === 'about' ? 'by' : 'about';
      const { rows: items, total } = await walk<ProfileArticleItem>(
        `/v1/profiles/${speaker!.person}/articles?collapse=none&role=${role}`,
      );
      const expected = statements.filter((s) => s.role === role);
      expect(expected.length).toBeGreaterThan(0);
      expect(total).toBe(new Set(expected.map((s) => s.article_reference)).size);
      for (const item of items) {
        expect(item[other]).toEqual([]);
        expect(item[role].length).toBeGreaterThan(0);
      }
    }
  });

  it('shows the events an article reports', async () => {
    const [linked] = await rows<{ person: string; article: string }>(sql`
      select a.subject_profile_reference as person, a.article_reference as article from annotations a
      join event_articles ea on ea.article_reference = a.article_reference
      where a.subject_profile_reference is not null order by a.reference limit 1`);
    const events = await rows<{ reference: string; type: string; summary: string | null }>(sql`
      select e.reference, e.type::text as type, e.summary from event_articles ea join events e on e.reference = ea.event_reference
      where ea.article_reference = ${linked!.article}`);
    const { rows: items } = await walk<ProfileArticleItem>(
      `/v1/profiles/${linked!.person}/articles?collapse=none`,
    );
    const item = items.find((candidate) => candidate.article.reference === linked!.article);
    expect(item).toBeDefined();
    expect(item!.events.map((e) => e.reference).sort()).toEqual(events.map((e) => e.reference).sort());
    expect(item!.events.find((e) => e.reference === events[0]!.reference)).toEqual(events[0]);
  });

  it('withholds statement texts of metadata_only articles but keeps summaries and offsets', async () => {
    const [withheld] = await rows<{ person: string; reference: string; summary: string; start: number }>(sql`
      select a.subject_profile_reference as person, a.reference, a.summary, a.start from annotations a
      join articles r on r.reference = a.article_reference
      where r.licence = 'metadata_only' and a.subject_profile_reference is not null order by a.reference limit 1`);
    const { rows: items } = await walk<ProfileArticleItem>(
      `/v1/profiles/${withheld!.person}/articles?collapse=none`,
    );
    const annotation = items.flatMap((item) => item.about).find((a) => a.reference === withheld!.reference);
    expect(annotation).toMatchObject({ text: null, summary: withheld!.summary, start: withheld!.start });
  });

  it('gives 422 for a type, role or collapse outside its set, naming each', async () => {
    for (const [query, name] of [
      ['type=opinion', 'type'],
      ['role=subject', 'role'],
      ['collapse=all', 'collapse'],
      ['collapse=', 'collapse'],
    ] as const) {
      const { status, body } = await app.getJson<{ status: { code: number; messages: string[] } }>(
        `/v1/profiles/${series.person}/articles?${query}`,
      );
      expect(status, query).toBe(422);
      expect(body.status.messages.join(' '), query).toContain(`\`${name}\``);
    }
  });

  it('is 404 for an unknown person and empty for a person without articles', async () => {
    const missing = await app.getJson('/v1/profiles/00000000-0000-4000-8000-000000000000/articles');
    expect(missing.status).toBe(404);
    const [quiet] = await rows<{ reference: string }>(sql`
      select reference from profiles p where not exists (select 1 from annotations a
        where a.subject_profile_reference = p.reference or a.speaker_profile_reference = p.reference)
      order by reference limit 1`);
    const body = await list<ProfileArticleItem>(`/v1/profiles/${quiet!.reference}/articles`);
    expect(body.success).toEqual([]);
    expect(body.meta.total).toBe(0);
  });
});
