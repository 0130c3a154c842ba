import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type SQL, sql } from 'drizzle-orm';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDatabaseEmpty, type SeedReport, seedDatabase } from '../seeds/seed-database.ts';
import { loadPlans } from '../src/auth/plans.ts';
import { loadConfig } from '../src/config.ts';
import { type DatabaseHandle, openDatabase, queryRows } from '../src/db/database.ts';
import { migrateDatabase } from '../src/db/migrate.ts';
import { filterKeyDifferences } from './support/filter-keys.ts';
import { nameFragmentDifferences } from './support/name-fragments.ts';

/**
 * Seeds a database of its own (a scratch database on the DATABASE_URL server, or PGlite in a temporary
 * directory) at scale 0.1 and checks with SQL that every rule of the spec has rows that match and rows
 * that do not.
 */

const scale = 0.1;
const now = new Date('2025-06-15T12:00:00Z');
const anchor = '2025-06-15T00:00:00Z';

let handle: DatabaseHandle;
let report: SeedReport;
let cleanup: () => Promise<void>;

async function openScratchDatabase(): Promise<{ handle: DatabaseHandle; cleanup: () => Promise<void> }> {
  const serverUrl = process.env.DATABASE_URL;
  if (serverUrl) {
    const name = `orgraph_seed_test_${randomBytes(4).toString('hex')}`;
    const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${name}`);
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    const opened = await openDatabase(loadConfig({ ...process.env, DATABASE_URL: url.toString() }));
    return {
      handle: opened,
      cleanup: async () => {
        await opened.close();
        await admin.unsafe(`drop database if exists ${name} with (force)`);
        await admin.end();
      },
    };
  }
  const dataDir = await mkdtemp(join(tmpdir(), 'orgraph-seed-test-'));
  const opened = await openDatabase(loadConfig({ ...process.env, DATABASE_URL: '', DATA_DIR: dataDir }));
  return {
    handle: opened,
    cleanup: async () => {
      await opened.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

async function rows<T = Record<string, unknown>>(query: SQL): Promise<T[]> {
  return queryRows<T>(handle.db, query);
}

/** The single number a query returns. */
async function count(query: SQL): Promise<number> {
  const [row] = await rows<{ n: number | string }>(query);
  return Number(row?.n ?? Number.NaN);
}

async function values(query: SQL): Promise<string[]> {
  return (await rows<{ v: string }>(query)).map((row) => String(row.v)).sort();
}

beforeAll(async () => {
  ({ handle, cleanup } = await openScratchDatabase());
  await migrateDatabase(handle, loadPlans().keys());
  expect(await isDatabaseEmpty(handle)).toBe(true);
  report = await seedDatabase(handle, { scale, now });
}, 180_000);

afterAll(async () => {
  await cleanup?.();
});

describe('seedDatabase', () => {
  it('reports the rows it loaded, matching the tables', async () => {
    expect(await isDatabaseEmpty(handle)).toBe(false);
    for (const [table, loaded] of Object.entries(report.rows)) {
      expect(await count(sql`select count(*) as n from ${sql.identifier(table)}`), table).toBe(loaded);
    }
    expect(report.rows.organisations).toBe(200);
    expect(report.rows.profiles).toBe(600);
    expect(report.seconds).toBeGreaterThan(0);
  });

  it('fills organisation_names with every organisation and its company country, through the triggers', async () => {
    expect(
      await count(sql`select count(*) as n from organisations o full join organisation_names n using (reference)
        where o.reference is null or n.reference is null
          or (n.name, n.name_lower, n.status, n.verified, n.confidence, n.is_fund, n.has_activity, n.country)
            is distinct from (o.name, lower(o.name), o.status, o.verified, o.confidence, o.is_fund, o.has_activity,
              (select a.country from organisation_addresses a where a.organisation_reference = o.reference and a.kind = 'company'))`),
    ).toBe(0);
    expect(await count(sql`select count(*) as n from organisation_names`)).toBe(report.rows.organisations);
  });

  it('fills the activity index and the organisation counts exactly as their triggers keep them', async () => {
    expect(
      await count(sql`select count(*) as n from (
        select has_activity, is_fund, status, verified, confidence, count(*) as organisations from organisations group by 1, 2, 3, 4, 5
        except select has_activity, is_fund, status, verified, confidence, organisations from organisation_counts) x`),
    ).toBe(0);
    expect(await count(sql`select sum(organisations) as n from organisation_counts`)).toBe(200);
    expect(
      await count(sql`select count(*) as n from organisations o
        where o.has_activity <> exists (select 1 from organisation_activity a where a.organisation_reference = o.reference)`),
    ).toBe(0);
  });

  it('fills the filter keys and their counts as their triggers keep them', async () => {
    expect(await filterKeyDifferences(handle.db)).toEqual([]);
    expect(
      await count(sql`select count(distinct reference) as n from organisation_filter_keys`),
    ).toBeGreaterThan(100);
  });

  it('fills the name fragments as their triggers keep them', async () => {
    expect(await nameFragmentDifferences(handle.db)).toEqual([]);
    expect(await count(sql`select count(*) as n from organisation_name_fragments`)).toBeGreaterThan(1_000);
  });

  it('refuses to seed over existing data without reset', async () => {
    await expect(seedDatabase(handle, { scale, now })).rejects.toThrow(
      'the database already holds data; pass --reset to replace it',
    );
  });

  it('replaces the data with the same rows on reset, keeping plans and industries', async () => {
    const fingerprint = sql`select md5(string_agg(reference::text || name || confidence, ',' order by reference)) as v
      from organisations`;
    const eventsFingerprint = sql`select md5(string_agg(reference::text || coalesce(summary, '') || publish_date::text
      || details::text, ',' order by reference)) as v from events`;
    const before = [await values(fingerprint), await values(eventsFingerprint)];
    const plans = await count(sql`select count(*) as n from plans`);
    const again = await seedDatabase(handle, { scale, now: new Date('2025-06-15T23:00:00Z'), reset: true });
    expect(again.rows).toEqual(report.rows);
    expect([await values(fingerprint), await values(eventsFingerprint)]).toEqual(before);
    expect(await count(sql`select count(*) as n from plans`)).toBe(plans);
    expect(await count(sql`select count(*) as n from industries`)).toBeGreaterThan(150);
  });

  it('leaves the data, indexes and constraints as they were when a reseed fails halfway', async () => {
    const fingerprint = sql`select md5(string_agg(reference::text, ',' order by reference)) as v from profiles`;
    const schema = sql`select md5(string_agg(d, ',' order by d)) as v from (
      select pg_get_indexdef(indexrelid) as d from pg_index where indrelid = 'experiences'::regclass
      union all select conname from pg_constraint where conrelid = 'experiences'::regclass) x`;
    const before = [await values(fingerprint), await values(schema)];
    const failing = seedDatabase(handle, {
      scale: 0.05,
      now,
      reset: true,
      onProgress: ({ table, done }) => {
        if (table === 'profiles' && done > 0) throw new Error('interrupted');
      },
    });
    await expect(failing).rejects.toThrow('interrupted');
    expect([await values(fingerprint), await values(schema)]).toEqual(before);
    expect(await count(sql`select count(*) as n from organisations`)).toBe(200);
  });

  it('creates no tokens or saved searches', async () => {
    expect(await count(sql`select count(*) as n from api_tokens`)).toBe(0);
    expect(await count(sql`select count(*) as n from saved_searches`)).toBe(0);
  });
});

describe('organisations', () => {
  it('have every status, funds and non-funds, verified or not', async () => {
    expect(await values(sql`select distinct status::text as v from organisations`)).toEqual([
      'active',
      'dissolved',
      'dormant',
      'merged',
      'unknown',
    ]);
    expect(await values(sql`select distinct is_fund::text as v from organisations`)).toEqual([
      'false',
      'true',
    ]);
    expect(await values(sql`select distinct verified::text as v from organisations`)).toEqual([
      'false',
      'true',
    ]);
  });

  it('spread confidence over 0–100 with some below 5, and headcounts from unknown to very large', async () => {
    expect(await count(sql`select count(*) as n from organisations where confidence < 5`)).toBeGreaterThan(0);
    expect(await count(sql`select count(*) as n from organisations where confidence >= 90`)).toBeGreaterThan(
      0,
    );
    expect(await count(sql`select count(*) as n from organisations where employees = 0`)).toBeGreaterThan(0);
    expect(await count(sql`select max(employees) as n from organisations`)).toBeGreaterThan(50_000);
  });

  it('leave about a fifth without any recorded activity', async () => {
    const total = await count(sql`select count(*) as n from organisations`);
    const inactive = await count(sql`select count(*) as n from organisations o where not exists (
      select 1 from organisation_activity a where a.organisation_reference = o.reference)`);
    const withoutEvents = await count(sql`select count(*) as n from organisations o
      where not exists (select 1 from events e where o.reference in (e.organisation_reference, e.acquirer_reference, e.acquiree_reference))
        and not exists (select 1 from client_summaries c where c.organisation_reference = o.reference)`);
    expect(inactive).toBe(withoutEvents);
    expect(inactive / total).toBeGreaterThan(0.1);
    expect(inactive / total).toBeLessThan(0.35);
  });

  it('have names in several scripts and names with LIKE wildcards', async () => {
    expect(await count(sql`select count(*) as n from organisations where name like '%\\%%'`)).toBeGreaterThan(
      0,
    );
    expect(await count(sql`select count(*) as n from organisations where name like '%\\_%'`)).toBeGreaterThan(
      0,
    );
    expect(
      await count(
        sql`select count(*) as n from organisations where name ~ '[\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af]'`,
      ),
    ).toBeGreaterThan(0);
    expect(await count(sql`select count(*) as n from organisations where name ~ '[À-ÿ]'`)).toBeGreaterThan(0);
    const distinct = await count(sql`select count(distinct name) as n from organisations`);
    expect(distinct / 200).toBeGreaterThan(0.9);
  });

  it('have aliases with and without end dates, and primary and secondary tickers', async () => {
    expect(
      await count(sql`select count(*) as n from organisation_aliases where end_date is not null`),
    ).toBeGreaterThan(0);
    expect(
      await count(sql`select count(*) as n from organisation_aliases where end_date is null`),
    ).toBeGreaterThan(0);
    expect(
      await values(sql`select distinct is_primary_listing::text as v from organisation_tickers`),
    ).toEqual(['false', 'true']);
    expect(
      await count(
        sql`select count(*) as n from organisation_tickers where exchange_code = '' or currency = ''`,
      ),
    ).toBe(0);
  });

  it('have GICS industries at every level, exactly one primary each', async () => {
    expect(
      await values(sql`select distinct i.level::text as v from organisation_industries oi
        join industries i on i.code = oi.industry_code`),
    ).toEqual(['1', '2', '3', '4']);
    expect(
      await count(sql`select count(*) as n from (select organisation_reference from organisation_industries
        group by 1 having count(*) filter (where is_primary) <> 1) x`),
    ).toBe(0);
  });

  it('have addresses in many countries (ISO alpha-2), domains, phones and scores in all dimensions', async () => {
    expect(
      await count(sql`select count(distinct country) as n from organisation_addresses`),
    ).toBeGreaterThanOrEqual(12);
    expect(
      await count(sql`select count(*) as n from organisation_addresses where country !~ '^[A-Z]{2}$'`),
    ).toBe(0);
    expect(await values(sql`select distinct kind::text as v from organisation_addresses`)).toEqual([
      'company',
      'mailing',
    ]);
    expect(
      await count(sql`select count(distinct organisation_reference) as n from organisation_domains`),
    ).toBe(200);
    expect(await count(sql`select count(*) as n from organisation_phones`)).toBeGreaterThan(100);
    expect(await count(sql`select count(distinct dimension) as n from organisation_scores`)).toBe(7);
    expect(
      await count(sql`select count(distinct organisation_reference) as n from organisation_scores`),
    ).toBeGreaterThan(150);
  });

  it('have AUM records over several years, of both summary types', async () => {
    expect(await values(sql`select distinct summary_type::text as v from client_summaries`)).toEqual([
      'client',
      'fund',
    ]);
    expect(
      await count(
        sql`select min(n) as n from (select count(*) as n from client_summaries group by organisation_reference) x`,
      ),
    ).toBeGreaterThanOrEqual(2);
    const [entry] = await rows<{ entry: Record<string, unknown> }>(
      sql`select entries -> 0 as entry from client_summaries limit 1`,
    );
    const parsed = typeof entry?.entry === 'string' ? JSON.parse(entry.entry) : entry?.entry;
    expect(Object.keys(parsed).sort()).toEqual([
      'client_type',
      'client_type_label',
      'fewer_than_5',
      'number_of_clients',
      'regulatory_assets_under_management',
    ]);
  });
});

describe('profiles', () => {
  it('have names, some LinkedIn URLs and confidence scores, and a few registered advisers', async () => {
    expect(await count(sql`select count(*) as n from profiles where linkedin_url is null`)).toBeGreaterThan(
      0,
    );
    expect(
      await count(sql`select count(*) as n from profiles where linkedin_url is not null`),
    ).toBeGreaterThan(0);
    expect(
      await count(sql`select count(*) as n from profiles where confidence_score is null`),
    ).toBeGreaterThan(0);
    const advisers = await count(sql`select count(*) as n from profiles where is_registered_adviser`);
    expect(advisers).toBeGreaterThan(5);
    expect(advisers).toBeLessThan(90);
    expect(await count(sql`select count(*) as n from profile_emails`)).toBeGreaterThan(300);
  });

  it('have current and past roles: none, one or two current ones', async () => {
    expect(
      await values(sql`select distinct least(n, 2)::text as v from (select p.reference,
        count(e.reference) filter (where e.end_date is null) as n
        from profiles p left join experiences e on e.profile_reference = p.reference group by 1) x`),
    ).toEqual(['0', '1', '2']);
    expect(
      await count(sql`select count(*) as n from experiences where end_date is not null`),
    ).toBeGreaterThan(300);
    expect(
      await count(sql`select count(*) as n from experiences where occupation_reference is null`),
    ).toBeGreaterThan(0);
  });

  it('have executive and non-executive titles', async () => {
    const executive = sql`occupation_title ~ '(Chief|CEO|CFO|CTO|COO|President|Managing Director|Founder|Vice President|VP|Director|Head of|Partner)'`;
    expect(await count(sql`select count(*) as n from experiences where ${executive}`)).toBeGreaterThan(100);
    expect(await count(sql`select count(*) as n from experiences where not ${executive}`)).toBeGreaterThan(
      100,
    );
  });

  it('include business owners, funding and offering participants, each a few percent', async () => {
    const share = async (query: SQL) => (await count(query)) / 600;
    const owners = await share(
      sql`select count(distinct profile_reference) as n from profile_stakes where is_active`,
    );
    const funders = await share(sql`select count(distinct p.profile_reference) as n from event_participants p
      join events e on e.reference = p.event_reference where e.type = 'funding'`);
    const offerers = await share(sql`select count(distinct p.profile_reference) as n from event_participants p
      join events e on e.reference = p.event_reference where e.type = 'public_offering'`);
    for (const value of [owners, funders, offerers]) {
      expect(value).toBeGreaterThan(0.005);
      expect(value).toBeLessThan(0.15);
    }
  });
});

describe('events', () => {
  it('have all five types, published over the three years before the anchor day, some this week', async () => {
    expect(await values(sql`select distinct type::text as v from events`)).toEqual([
      'client_summary',
      'deal',
      'funding',
      'move',
      'public_offering',
    ]);
    expect(
      await count(sql`select count(*) as n from events where publish_date > ${anchor}::timestamptz`),
    ).toBe(0);
    expect(
      await count(sql`select count(*) as n from events
        where type <> 'client_summary' and publish_date < ${anchor}::timestamptz - interval '1100 days'`),
    ).toBe(0);
    expect(
      await count(
        sql`select count(*) as n from events where publish_date > ${anchor}::timestamptz - interval '7 days'`,
      ),
    ).toBeGreaterThan(0);
    expect(await count(sql`select count(*) as n from events where summary is null or summary = ''`)).toBe(0);
  });

  it('record moves with a person, an occupation, an organisation and an effective date', async () => {
    expect(
      await count(sql`select count(*) as n from events where type = 'move'
        and (profile_reference is null or organisation_reference is null or effective_date is null or move_type is null)`),
    ).toBe(0);
    expect(await values(sql`select distinct move_type as v from events where type = 'move'`)).toEqual(
      ['Appointment', 'Departure', 'Lateral Move', 'Promotion', 'Retirement'].filter(Boolean),
    );
    expect(
      await count(
        sql`select count(*) as n from events where type = 'move' and occupation_reference is not null`,
      ),
    ).toBeGreaterThan(0);
    expect(
      await count(sql`select count(*) as n from events where type = 'move' and details ? 'compensations'`),
    ).toBeGreaterThan(0);
  });

  it('link moves to at most two source articles, and some articles to several events', async () => {
    expect(
      await count(sql`select max(n) as n from (select count(*) as n from event_articles ea
        join events e on e.reference = ea.event_reference where e.type = 'move' group by ea.event_reference) x`),
    ).toBeLessThanOrEqual(2);
    expect(
      await count(
        sql`select count(*) as n from (select article_reference from event_articles group by 1 having count(*) > 1) x`,
      ),
    ).toBeGreaterThan(0);
    expect(
      await count(sql`select count(*) as n from events e where type = 'move'
        and not exists (select 1 from event_articles ea where ea.event_reference = e.reference)`),
    ).toBeGreaterThan(0);
  });

  it('record funding rounds with value, currency and investors', async () => {
    expect(
      await count(sql`select count(*) as n from events where type = 'funding'
        and not (details ? 'round' and details ? 'value' and details ? 'currency_code')`),
    ).toBe(0);
    expect(
      await values(sql`select distinct p.role as v from event_participants p join events e on e.reference = p.event_reference
        where e.type = 'funding'`),
    ).toEqual(['investor', 'lead investor']);
  });

  it('record deals between two different organisations, the acquirer being the subject', async () => {
    expect(
      await count(sql`select count(*) as n from events where type = 'deal' and (acquirer_reference is null
        or acquiree_reference is null or acquirer_reference = acquiree_reference
        or organisation_reference <> acquirer_reference
        or deal_type <> details -> 'deal' ->> 'type' or deal_status <> details -> 'deal' ->> 'status')`),
    ).toBe(0);
    expect(await values(sql`select distinct deal_status as v from events where type = 'deal'`)).toEqual([
      'Announced',
      'Completed',
      'Pending',
      'Withdrawn',
    ]);
  });

  it('record public offerings with offering details and participants', async () => {
    expect(
      await count(
        sql`select count(*) as n from events where type = 'public_offering' and not details ? 'offering'`,
      ),
    ).toBe(0);
    expect(
      await count(sql`select count(*) as n from event_participants p join events e on e.reference = p.event_reference
        where e.type = 'public_offering'`),
    ).toBeGreaterThan(0);
  });

  it('point AUM events at a record of the same organisation and date', async () => {
    const total = await count(sql`select count(*) as n from events where type = 'client_summary'`);
    const matching = await count(sql`select count(*) as n from events e join client_summaries c
      on c.reference = e.client_summary_reference and c.organisation_reference = e.organisation_reference
      and c.publish_date = e.publish_date where e.type = 'client_summary'`);
    expect(total).toBeGreaterThan(0);
    expect(matching).toBe(total);
  });
});

describe('articles', () => {
  it('have both licences, optional urls, and annotations of all four types', async () => {
    expect(await values(sql`select distinct licence::text as v from articles`)).toEqual([
      'full_text',
      'metadata_only',
    ]);
    expect(await count(sql`select count(*) as n from articles where url is null`)).toBeGreaterThan(0);
    expect(await values(sql`select distinct type::text as v from annotations`)).toEqual([
      'feedback',
      'recommendation',
      'review',
      'speech',
    ]);
  });

  it('store UTF-16 offsets with astral characters before each passage', async () => {
    const stored = await rows<{ content: string; start: number; end: number; text: string }>(
      sql`select a.content, n.start, n."end", n.text from annotations n join articles a on a.reference = n.article_reference`,
    );
    expect(stored.length).toBeGreaterThan(100);
    for (const annotation of stored) {
      expect(annotation.content.slice(annotation.start, annotation.end)).toBe(annotation.text);
      expect([...annotation.content.slice(0, annotation.start)].length).toBeLessThan(annotation.start);
    }
  });

  it('have person and body speakers, linked profiles on most, and an organisation on every statement', async () => {
    expect(await count(sql`select count(*) as n from annotations where organisation_reference is null`)).toBe(
      0,
    );
    expect(
      await count(
        sql`select count(*) as n from annotations where speaker_kind = 'body' and speaker_profile_reference is not null`,
      ),
    ).toBe(0);
    const persons = await count(sql`select count(*) as n from annotations where speaker_kind = 'person'`);
    const linked = await count(
      sql`select count(*) as n from annotations where speaker_kind = 'person' and speaker_profile_reference is not null`,
    );
    expect(linked / persons).toBeGreaterThan(0.7);
    expect(linked).toBeLessThan(persons);
    expect(
      await count(sql`select count(*) as n from annotations where subject_profile_reference is null`),
    ).toBeGreaterThan(0);
  });

  it('repeat statements yearly from the same organisation, type and speaker about the same subject', async () => {
    expect(
      await count(sql`select count(*) as n from (select n.organisation_reference, n.type, n.speaker_name,
          n.subject_profile_reference
        from annotations n join articles a on a.reference = n.article_reference
        where n.subject_profile_reference is not null
        group by 1, 2, 3, 4 having count(distinct extract(year from a.published_at)) >= 2) x`),
    ).toBeGreaterThanOrEqual(2);
  });

  it('are about and by many profiles, and name their organisations', async () => {
    expect(
      await count(sql`select count(distinct subject_profile_reference) as n from annotations`),
    ).toBeGreaterThan(60);
    expect(
      await count(sql`select count(distinct speaker_profile_reference) as n from annotations`),
    ).toBeGreaterThan(60);
    expect(
      await count(sql`select count(*) as n from articles a where not exists (
        select 1 from article_organisations o where o.article_reference = a.reference)`),
    ).toBe(0);
  });
});

describe('ownership', () => {
  it('uses every relationship, without self-ownership, and some organisations own and are owned', async () => {
    expect(await values(sql`select distinct relationship::text as v from organisation_ownerships`)).toEqual([
      'affiliate',
      'associate',
      'joint_venture_partner',
      'minority_owner',
      'parent',
    ]);
    expect(
      await count(
        sql`select count(*) as n from organisation_ownerships where owner_reference = owned_reference`,
      ),
    ).toBe(0);
    expect(
      await count(sql`select count(*) as n from organisations o
        where exists (select 1 from organisation_ownerships w where w.owner_reference = o.reference)
          and exists (select 1 from organisation_ownerships w where w.owned_reference = o.reference)`),
    ).toBeGreaterThan(0);
    expect(
      await values(sql`select distinct is_controlling_interest::text as v from organisation_ownerships`),
    ).toEqual(['false', 'true']);
  });

  it('records active and ended stakes, control persons and band labels', async () => {
    expect(
      await count(sql`select count(*) as n from profile_stakes where is_active = (end_date is not null)`),
    ).toBe(0);
    expect(await values(sql`select distinct is_active::text as v from profile_stakes`)).toEqual([
      'false',
      'true',
    ]);
    expect(await values(sql`select distinct is_control_person::text as v from profile_stakes`)).toEqual([
      'false',
      'true',
    ]);
    expect(await count(sql`select count(distinct ownership_band) as n from profile_stakes`)).toBe(5);
    expect(
      await count(sql`select count(*) as n from profile_stakes where title_or_status is null`),
    ).toBeGreaterThan(0);
  });
});
