import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/database.ts';
import {
  experience,
  importFiles,
  newReference,
  organisation,
  profile,
  useImportStore,
  writeRecords,
} from './support.ts';

const imports = useImportStore('upserts');

const rows = <Row>(query: ReturnType<typeof sql>) => queryRows<Row>(imports.handle.db, query);
const zero = { inserted: 0, updated: 0, unchanged: 0, deleted: 0, rejected: 0 };

/** A small graph across two files, each naming records of the other, children before parents. */
function graph() {
  const org = newReference();
  const acquiree = newReference();
  const person = newReference();
  const summary = newReference();
  const article = newReference();
  const events = [
    {
      type: 'event',
      reference: newReference(),
      event_type: 'client_summary',
      publish_date: '2025-06-30T00:00:00+02:00',
      organisation_reference: org,
      client_summary_reference: summary,
      article_references: [article],
    },
    {
      type: 'event',
      reference: newReference(),
      event_type: 'deal',
      summary: 'A bought B',
      publish_date: '2025-07-01T12:00:00Z',
      organisation_reference: org,
      acquirer_reference: org,
      acquiree_reference: acquiree,
      deal_type: 'Acquisition',
      deal_status: 'Completed',
      data: {
        deal: {
          type: 'Acquisition',
          status: 'Completed',
          value: 1_500_000,
          value_usd: null,
          announcement_date: null,
          completion_date: null,
          terms: null,
        },
      },
      participants: [{ profile_reference: person, role: 'adviser' }],
    },
  ];
  const people = [
    experience(newReference(), person, { organisation_reference: org, end_date: null }),
    profile(person, {
      confidence_score: 0.1234567,
      emails: [
        {
          reference: newReference(),
          value: 'ada@example.org',
          domain: 'example.org',
          confidence_score: 0.9,
          is_valid: true,
        },
      ],
    }),
  ];
  const organisations = [
    {
      type: 'article',
      reference: article,
      title: 'Quarterly assets',
      published_at: '2025-07-02T08:30:00.123Z',
      content: 'Assets grew.',
      licence: 'full_text',
      organisation_references: [acquiree, org],
    },
    organisation(org, {
      name: 'Zyxwv Holdings',
      industries: [
        { code: '40', is_primary: false },
        { code: '4010', is_primary: true },
      ],
      addresses: { company: { city: 'Lyon', country: 'FR' } },
      scores: { growth_momentum: 70 },
      aliases: [{ reference: newReference(), name: 'Zyx', start_date: '2001-01-01' }],
      client_summaries: [
        {
          reference: summary,
          currency_code: 'EUR',
          summary_type: 'client',
          publish_date: '2025-06-30T00:00:00+02:00',
          entries: [
            {
              client_type: 'individuals',
              client_type_label: 'Individuals',
              number_of_clients: 12,
              fewer_than_5: false,
              regulatory_assets_under_management: 2_000_000,
            },
          ],
        },
      ],
    }),
    organisation(acquiree, { name: 'Qwerty Widgets' }),
  ];
  return { org, acquiree, person, summary, article, events, people, organisations };
}

describe('import upserts by reference', () => {
  it('stores records that name each other across files, in any order, and a second import changes nothing', async () => {
    const g = graph();
    const first = await writeRecords(join(imports.directory, 'first.ndjson'), [...g.events, ...g.people]);
    const second = await writeRecords(join(imports.directory, 'second.ndjson'), g.organisations);
    const once = await importFiles(imports.handle, [first, second]);
    expect(once.rejects).toEqual([]);
    expect(once.summary.types.organisation).toEqual({ ...zero, inserted: 2 });
    expect(once.summary.types.event).toEqual({ ...zero, inserted: 2 });
    expect(once.summary.types.article).toEqual({ ...zero, inserted: 1 });
    expect(once.summary.written).toBe(7);

    const [stored] = await rows<{ name: string; country: string; has_activity: boolean }>(
      sql`select n.name, n.country, n.has_activity from organisation_names n where n.reference = ${g.org}`,
    );
    // The name mirror, its country and the activity index follow without a restart.
    expect(stored).toEqual({ name: 'Zyxwv Holdings', country: 'FR', has_activity: true });
    const [activity] = await rows<{ n: number }>(
      sql`select count(*)::integer as n from organisation_activity where organisation_reference = ${g.org}`,
    );
    expect(activity?.n).toBe(2);
    // The offset of the record's date-time is kept as the instant it names.
    const [event] = await rows<{ exact: boolean }>(
      sql`select publish_date = '2025-06-29T22:00:00Z'::timestamptz as exact from events
           where type = 'client_summary' and organisation_reference = ${g.org}`,
    );
    expect(event?.exact).toBe(true);

    const again = await importFiles(imports.handle, [second, first]);
    expect(again.rejects).toEqual([]);
    expect(again.summary.written).toBe(0);
    for (const type of ['organisation', 'profile', 'experience', 'article', 'event']) {
      expect(again.summary.types[type]?.inserted ?? 0).toBe(0);
      expect(again.summary.types[type]?.updated ?? 0).toBe(0);
    }
    expect(again.summary.types.organisation?.unchanged).toBe(2);
    expect(again.summary.types.event?.unchanged).toBe(2);
  });

  it('updates what changed, keeps what links to the entries it keeps, and deletes with cascade', async () => {
    const g = graph();
    const path = await writeRecords(join(imports.directory, 'graph.ndjson'), [
      ...g.organisations,
      ...g.people,
      ...g.events,
    ]);
    await importFiles(imports.handle, [path]);

    // Renamed, and one industry dropped: the client summary stays, and so does the event that names it.
    const renamed = g.organisations.map((record) =>
      record.reference === g.org
        ? { ...record, name: 'Zyxwv Group', industries: [{ code: '4010', is_primary: true }] }
        : record,
    );
    const update = await writeRecords(join(imports.directory, 'update.ndjson'), renamed);
    const updated = await importFiles(imports.handle, [update]);
    expect(updated.summary.types.organisation).toEqual({ ...zero, updated: 1, unchanged: 1 });
    expect(updated.summary.types.article).toEqual({ ...zero, unchanged: 1 });
    const [mirror] = await rows<{ name: string }>(
      sql`select name from organisation_names where reference = ${g.org}`,
    );
    expect(mirror?.name).toBe('Zyxwv Group');
    const industries = await rows<{ industry_code: string }>(
      sql`select industry_code from organisation_industries where organisation_reference = ${g.org}`,
    );
    expect(industries.map((r) => r.industry_code)).toEqual(['4010']);
    const [events] = await rows<{ n: number }>(
      sql`select count(*)::integer as n from events where client_summary_reference = ${g.summary}`,
    );
    expect(events?.n).toBe(1);

    // Deleting the organisation takes its events, summaries and article links along and unlinks experiences.
    const removal = await writeRecords(join(imports.directory, 'delete.ndjson'), [
      { type: 'organisation', reference: g.org, deleted: true },
      { type: 'profile', reference: newReference(), deleted: true },
    ]);
    const deleted = await importFiles(imports.handle, [removal]);
    expect(deleted.summary.types.organisation).toEqual({ ...zero, deleted: 1 });
    expect(deleted.summary.types.profile).toEqual({ ...zero, unchanged: 1 });
    const [left] = await rows<{
      orgs: number;
      names: number;
      events: number;
      summaries: number;
      links: number;
      unlinked: number;
      activity: number;
    }>(sql`
      select (select count(*)::integer from organisations where reference = ${g.org}) as orgs,
             (select count(*)::integer from organisation_names where reference = ${g.org}) as names,
             (select count(*)::integer from events where organisation_reference = ${g.org} or acquirer_reference = ${g.org}) as events,
             (select count(*)::integer from client_summaries where organisation_reference = ${g.org}) as summaries,
             (select count(*)::integer from article_organisations where article_reference = ${g.article}) as links,
             (select count(*)::integer from experiences where profile_reference = ${g.person} and organisation_reference is null) as unlinked,
             (select count(*)::integer from organisation_activity where organisation_reference = ${g.org}) as activity`);
    expect(left).toEqual({ orgs: 0, names: 0, events: 0, summaries: 0, links: 1, unlinked: 1, activity: 0 });

    // A record naming the deleted organisation is now rejected, whatever the order.
    const late = await writeRecords(join(imports.directory, 'late.ndjson'), [
      experience(newReference(), g.person, { organisation_reference: g.org }),
    ]);
    const rejected = await importFiles(imports.handle, [late]);
    expect(rejected.rejects[0]?.reasons).toEqual([
      `organisation_reference links to no organisation in the import or the store: ${g.org}`,
    ]);
  });

  it('rejects a record whose link names a record rejected in the same import', async () => {
    const org = newReference();
    const person = newReference();
    const path = await writeRecords(join(imports.directory, 'chain.ndjson'), [
      experience(newReference(), person, { organisation_reference: org }),
      organisation(org, { confidence: -1 }),
      profile(person),
    ]);
    const { summary, rejects } = await importFiles(imports.handle, [path]);
    expect(rejects.map((r) => r.line)).toEqual([2, 1]);
    expect(summary.types.experience).toEqual({ ...zero, rejected: 1 });
    expect(summary.types.profile).toEqual({ ...zero, inserted: 1 });
  });

  it('commits nothing with --all-or-nothing when a record is rejected, and nothing on a dry run', async () => {
    const org = newReference();
    const path = await writeRecords(join(imports.directory, 'strict.ndjson'), [
      organisation(org),
      experience(newReference(), newReference()),
    ]);
    const strict = await importFiles(imports.handle, [path], { allOrNothing: true });
    expect(strict.summary.committed).toBe(false);
    expect(strict.summary.types.organisation).toEqual({ ...zero, inserted: 1 });
    expect(strict.summary.types.experience).toEqual({ ...zero, rejected: 1 });
    const dry = await importFiles(imports.handle, [path], { dryRun: true });
    expect(dry.summary.committed).toBe(false);
    const [row] = await rows<{ n: number }>(
      sql`select count(*)::integer as n from organisations where reference = ${org}`,
    );
    expect(row?.n).toBe(0);

    const clean = await writeRecords(join(imports.directory, 'clean.ndjson'), [organisation(org)]);
    const stored = await importFiles(imports.handle, [clean], { allOrNothing: true });
    expect(stored.summary.committed).toBe(true);
    expect(stored.summary.types.organisation).toEqual({ ...zero, inserted: 1 });
  });

  it('keeps a digest per record it stores, and compares the document again once anything else changed the record', async () => {
    const g = graph();
    const path = await writeRecords(join(imports.directory, 'digests.ndjson'), [
      ...g.organisations,
      ...g.people,
      ...g.events,
    ]);
    await importFiles(imports.handle, [path]);
    const references = [g.org, g.acquiree, g.person, g.article, ...g.people.map((r) => r.reference)];
    const digests = async () =>
      (
        await rows<{ type: string; reference: string }>(
          sql`select type, reference from record_digests where reference in (
                ${sql.join([...references, ...g.events.map((e) => e.reference)], sql`, `)}) order by type, reference`,
        )
      ).map((row) => `${row.type} ${row.reference}`);
    const all = [
      `article ${g.article}`,
      ...g.events.map((e) => `event ${e.reference}`),
      `experience ${g.people[0]!.reference}`,
      `organisation ${g.acquiree}`,
      `organisation ${g.org}`,
      `profile ${g.person}`,
    ].sort();
    expect(await digests()).toEqual(all);

    // Written by anything but an import: an alias renamed, a participant removed, the profile's email dropped.
    await imports.handle.db.execute(
      sql`update organisation_aliases set name = 'Changed' where organisation_reference = ${g.org}`,
    );
    await imports.handle.db.execute(
      sql`delete from event_participants where event_reference = ${g.events[1]!.reference}`,
    );
    await imports.handle.db.execute(sql`delete from profile_emails where profile_reference = ${g.person}`);
    expect(await digests()).toEqual(
      all.filter(
        (d) =>
          d !== `organisation ${g.org}` &&
          d !== `event ${g.events[1]!.reference}` &&
          d !== `profile ${g.person}`,
      ),
    );

    // The same file again restores those three records, and only them, and keeps their digests again.
    const again = await importFiles(imports.handle, [path]);
    expect(again.summary.types.organisation).toEqual({ ...zero, updated: 1, unchanged: 1 });
    expect(again.summary.types.event).toEqual({ ...zero, updated: 1, unchanged: 1 });
    expect(again.summary.types.profile).toEqual({ ...zero, updated: 1 });
    expect(again.summary.types.experience).toEqual({ ...zero, unchanged: 1 });
    expect(again.summary.types.article).toEqual({ ...zero, unchanged: 1 });
    expect(await digests()).toEqual(all);
    const [alias] = await rows<{ name: string }>(
      sql`select name from organisation_aliases where organisation_reference = ${g.org}`,
    );
    expect(alias?.name).toBe('Zyx');

    // An import's own deletion reaches records of other types: its events go, the experience loses its
    // organisation, the article its link, and the acquiree its activity flag; each is compared again (and
    // restored once the organisation is back).
    const removal = await writeRecords(join(imports.directory, 'digests-delete.ndjson'), [
      { type: 'organisation', reference: g.org, deleted: true },
    ]);
    await importFiles(imports.handle, [removal]);
    expect(await digests()).toEqual([`profile ${g.person}`]);
    const restored = await importFiles(imports.handle, [path]);
    expect(restored.summary.types.experience).toEqual({ ...zero, updated: 1 });
    expect(restored.summary.types.organisation).toEqual({ ...zero, inserted: 1, unchanged: 1 });
    expect(restored.summary.types.article).toEqual({ ...zero, updated: 1 });
    expect(restored.summary.types.event).toEqual({ ...zero, inserted: 2 });
    expect(await digests()).toEqual(all);

    // A truncate (as `orgraph seed` does) forgets every digest of the type.
    await imports.handle.db.execute(sql`truncate event_articles`);
    expect(await digests()).toEqual(all.filter((d) => !d.startsWith('event')));
  });
});
