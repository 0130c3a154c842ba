import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { seedDatabase } from '../../seeds/seed-database.ts';
import { type DatabaseHandle, queryRows } from '../../src/db/database.ts';
import { exportRecords } from '../../src/domain/import/export-records.ts';
import { parseLine } from '../../src/domain/import/parse-line.ts';
import { recordTypes } from '../../src/domain/import/records.ts';
import {
  experience,
  importFiles,
  newReference,
  openImportStore,
  organisation,
  profile,
  useImportStore,
  writeRecords,
} from './support.ts';

// Counts the lines the importer parses: a line the store knows is staged without being parsed.
vi.mock('../../src/domain/import/parse-line.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/domain/import/parse-line.ts')>();
  return { ...actual, parseLine: vi.fn(actual.parseLine) };
});
const parsed = vi.mocked(parseLine);

const imports = useImportStore('lines');
const zero = { inserted: 0, updated: 0, unchanged: 0, deleted: 0, rejected: 0 };

const rows = <Row>(handle: DatabaseHandle, query: ReturnType<typeof sql>) => queryRows<Row>(handle.db, query);

/** The line digests the store keeps for these references. */
async function lineDigests(handle: DatabaseHandle, references: readonly string[]) {
  const found = await rows<{ reference: string; line_digest: string | null }>(
    handle,
    sql`select reference::text as reference, line_digest::text as line_digest from record_digests
         where reference in (${sql.join([...references], sql`, `)})`,
  );
  return new Map(found.map((row) => [row.reference, row.line_digest]));
}

/** A dry run of `files` twice: as the store's line digests find them, then with every line parsed. */
async function bothWays(handle: DatabaseHandle, files: readonly string[]) {
  parsed.mockClear();
  const known = await importFiles(handle, files, { dryRun: true });
  const parsedKnown = parsed.mock.calls.length;
  await handle.db.execute(sql`update record_digests set line_digest = null`);
  parsed.mockClear();
  const full = await importFiles(handle, files, { dryRun: true });
  const parsedFull = parsed.mock.calls.length;
  const { seconds: _a, ...knownSummary } = known.summary;
  const { seconds: _b, ...fullSummary } = full.summary;
  return {
    known: { ...known, summary: knownSummary, parsedKnown },
    full: { ...full, summary: fullSummary, parsedFull },
  };
}

function smallGraph() {
  const org = newReference();
  const other = newReference();
  const person = newReference();
  const records = [
    organisation(org, { industries: [{ code: '4010', is_primary: true }] }),
    organisation(other),
    profile(person),
    experience(newReference(), person, { organisation_reference: org }),
    {
      type: 'article',
      reference: newReference(),
      title: 'Two companies',
      published_at: '2025-07-02T08:30:00.123Z',
      content: 'Both grew.',
      licence: 'full_text',
      organisation_references: [other, org],
    },
    {
      type: 'event',
      reference: newReference(),
      event_type: 'deal',
      summary: 'A bought B',
      publish_date: '2025-07-01T12:00:00Z',
      organisation_reference: other,
      acquirer_reference: other,
      acquiree_reference: org,
      deal_type: 'Acquisition',
      deal_status: 'Completed',
      participants: [{ profile_reference: person, role: 'adviser' }],
    },
  ];
  return { org, other, person, records };
}

beforeEach(() => {
  parsed.mockClear();
});

describe('lines the store knows', () => {
  it('are staged without being parsed, and a re-import counts them unchanged', async () => {
    const g = smallGraph();
    const path = await writeRecords(join(imports.directory, 'known.ndjson'), g.records);
    const first = await importFiles(imports.handle, [path]);
    expect(first.summary.written).toBe(6);
    expect(parsed).toHaveBeenCalledTimes(6);
    const digests = await lineDigests(
      imports.handle,
      g.records.map((r) => r.reference),
    );
    expect([...digests.values()].filter((d) => d !== null)).toHaveLength(6);

    parsed.mockClear();
    const again = await importFiles(imports.handle, [path]);
    expect(parsed).not.toHaveBeenCalled();
    expect(again.rejects).toEqual([]);
    expect(again.summary.written).toBe(0);
    expect(again.summary.types.organisation).toEqual({ ...zero, unchanged: 2 });
    expect(again.summary.types.event).toEqual({ ...zero, unchanged: 1 });
    expect(again.summary.types.article).toEqual({ ...zero, unchanged: 1 });
    expect(again.summary.types.experience).toEqual({ ...zero, unchanged: 1 });
  });

  it('are looked up chunk by chunk while the parsed lines before are being staged', {
    timeout: 60_000,
  }, async () => {
    const known = Array.from({ length: 300 }, () => organisation(newReference()));
    // Long enough that a COPY of a chunk's records fills the socket and waits for the server to drain it.
    const description = 'A description long enough to fill the connection. '.repeat(40);
    const fresh = Array.from({ length: 5_000 }, () => organisation(newReference(), { description }));
    const first = await importFiles(imports.handle, [
      await writeRecords(join(imports.directory, 'first.ndjson'), known),
    ]);
    expect(first.summary.written).toBe(300);

    // Every chunk's lookup goes to the connection that is copying the records parsed from the chunks before, as
    // in a large import into a store that keeps digests; the known lines come last.
    const path = await writeRecords(join(imports.directory, 'more.ndjson'), [...fresh, ...known]);
    const again = await importFiles(imports.handle, [path], { readWorkers: 1 });
    expect(again.rejects).toEqual([]);
    expect(again.summary.types.organisation).toEqual({ ...zero, inserted: 5_000, unchanged: 300 });
    const [stored] = await rows<{ n: number }>(
      imports.handle,
      sql`select count(*)::integer as n from organisations
           where reference in (${sql.join(
             fresh.map((record) => sql`${record.reference}::uuid`),
             sql`, `,
           )})`,
    );
    expect(stored?.n).toBe(5_000);
  });

  it('give the outcomes and rejects that parsing gives: links to records the import deletes, conflicting duplicates, bad lines', async () => {
    const g = smallGraph();
    const lines = g.records.map((record) => JSON.stringify(record));
    await writeFile(join(imports.directory, 'base.ndjson'), lines.join('\n'));
    await importFiles(imports.handle, [join(imports.directory, 'base.ndjson')]);
    // The same lines but the first, byte for byte, among a deletion of the organisation (the first) they link to,
    // the profile again with other content, a line that is not JSON and one that is not UTF-8.
    const scenario = join(imports.directory, 'scenario.ndjson');
    await writeFile(
      scenario,
      Buffer.concat([
        Buffer.from(
          [
            ...lines.slice(1),
            JSON.stringify({ type: 'organisation', reference: g.org, deleted: true }),
            JSON.stringify(profile(g.person, { first_name: 'Augusta' })),
            '{"type": "organisation",',
          ].join('\n'),
        ),
        Buffer.from('\n{"type":"profile","name":"\xff"}\n', 'latin1'),
      ]),
    );
    const { known, full } = await bothWays(imports.handle, [scenario]);
    // The five known lines are not parsed; the deletion, the changed profile and the line that is not JSON are.
    expect(known.parsedKnown).toBe(3);
    expect(full.parsedFull).toBe(8);
    expect(known.summary).toEqual(full.summary);
    expect(known.rejects).toEqual(full.rejects);
    expect(known.summary.types.organisation).toEqual({ ...zero, deleted: 1, unchanged: 1 });
    expect(known.summary.types.experience).toEqual({ ...zero, rejected: 1 });
    expect(known.summary.types.article).toEqual({ ...zero, rejected: 1 });
    expect(known.summary.types.event).toEqual({ ...zero, rejected: 1 });
    expect(known.summary.types.profile).toEqual({ ...zero, rejected: 2 });
    expect(known.rejects.map((r) => r.line)).toEqual([8, 9, 2, 3, 4, 5, 7]);
    const experienceReject = known.rejects.find((r) => r.line === 3);
    expect(experienceReject?.reasons).toEqual([
      `organisation_reference links to no organisation in the import or the store: ${g.org}`,
    ]);
    expect(experienceReject?.record).toMatchObject(JSON.parse(lines[3]!));
    expect(known.rejects.find((r) => r.line === 2)?.reasons[0]).toMatch(
      /appears more than once in this import with different content/,
    );
  });

  it('link to a client summary as parsing finds: rejected once the import drops it from its organisation', async () => {
    const org = newReference();
    const summary = newReference();
    const withSummary = organisation(org, {
      client_summaries: [
        {
          reference: summary,
          currency_code: 'EUR',
          summary_type: 'client',
          publish_date: '2025-06-30T00:00:00Z',
          entries: [],
        },
      ],
    });
    const event = {
      type: 'event',
      reference: newReference(),
      event_type: 'client_summary',
      publish_date: '2025-06-30T00:00:00Z',
      organisation_reference: org,
      client_summary_reference: summary,
    };
    const lines = [JSON.stringify(withSummary), JSON.stringify(event)];
    const path = join(imports.directory, 'summary.ndjson');
    await writeFile(path, lines.join('\n'));
    const first = await importFiles(imports.handle, [path]);
    expect(first.rejects).toEqual([]);
    expect(first.summary.written).toBe(2);

    // Both lines known: the event finds the summary among the known organisation's keys.
    const same = await bothWays(imports.handle, [path]);
    expect(same.known.parsedKnown).toBe(0);
    expect(same.known.summary).toEqual(same.full.summary);
    expect(same.known.summary.types.event).toEqual({ ...zero, unchanged: 1 });
    await importFiles(imports.handle, [path]);

    // The organisation again without its summary, the event's line unchanged: the event is rejected.
    const dropped = join(imports.directory, 'summary-dropped.ndjson');
    await writeFile(dropped, [JSON.stringify({ ...withSummary, client_summaries: [] }), lines[1]].join('\n'));
    const { known, full } = await bothWays(imports.handle, [dropped]);
    expect(known.parsedKnown).toBe(1);
    expect(known.summary).toEqual(full.summary);
    expect(known.rejects).toEqual(full.rejects);
    expect(known.summary.types.organisation).toEqual({ ...zero, updated: 1 });
    expect(known.summary.types.event).toEqual({ ...zero, rejected: 1 });
    expect(known.rejects[0]?.reasons).toEqual([
      `client_summary_reference links to no client summary in the import or the store: ${summary}`,
    ]);
  });

  it('are forgotten with their record once anything else writes it, and parsed again', async () => {
    const g = smallGraph();
    const path = await writeRecords(join(imports.directory, 'forget.ndjson'), g.records);
    await importFiles(imports.handle, [path]);
    await imports.handle.db.execute(
      sql`update profiles set last_name = 'Byron' where reference = ${g.person}`,
    );
    expect((await lineDigests(imports.handle, [g.person])).has(g.person)).toBe(false);

    parsed.mockClear();
    const again = await importFiles(imports.handle, [path]);
    expect(parsed).toHaveBeenCalledTimes(1);
    expect(again.summary.types.profile).toEqual({ ...zero, updated: 1 });
    expect(again.summary.written).toBe(1);
    const [stored] = await rows<{ last_name: string }>(
      imports.handle,
      sql`select last_name from profiles where reference = ${g.person}`,
    );
    expect(stored?.last_name).toBe('Lovelace');
    expect((await lineDigests(imports.handle, [g.person])).get(g.person)).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('take the type a file name gives into account', async () => {
    const reference = newReference();
    const { type: _, ...untyped } = organisation(reference);
    const typed = await writeRecords(join(imports.directory, 'organisations.ndjson'), [untyped]);
    const stored = await importFiles(imports.handle, [typed]);
    expect(stored.summary.types.organisation).toEqual({ ...zero, inserted: 1 });
    const mixed = await writeRecords(join(imports.directory, 'mixed.ndjson'), [untyped]);
    const refused = await importFiles(imports.handle, [mixed]);
    expect(refused.rejects.map((r) => r.reasons)).toEqual([['missing type (and the file name names none)']]);
  });
});

describe('lines the store knows, across the demo dataset', () => {
  it('link to what parsing finds, for every link of every record type', async () => {
    const store = await openImportStore('linesdemo');
    try {
      await seedDatabase(store.handle, { scale: 0.02, now: new Date('2026-01-01T00:00:00Z') });
      const files = new Map<string, string[]>();
      await exportRecords(store.handle, recordTypes, async (type, page) => {
        files.set(type, [...(files.get(type) ?? []), ...page]);
      });
      const paths: string[] = [];
      for (const [type, lines] of files) {
        const path = join(imports.directory, `demo-${type}.ndjson`);
        await writeFile(path, `${lines.join('\n')}\n`);
        paths.push(path);
      }
      // The seeded store keeps no digests: the first import confirms every record and keeps its lines' digests.
      const confirmed = await importFiles(store.handle, paths);
      expect(confirmed.summary.written).toBe(0);
      expect(confirmed.summary.rejected).toBe(0);
      // Then nothing is parsed; events that name a client summary find it among the known organisations' keys.
      expect((files.get('event') ?? []).some((line) => /"client_summary_reference": ?"/.test(line))).toBe(
        true,
      );
      parsed.mockClear();
      const again = await importFiles(store.handle, paths);
      expect(parsed).not.toHaveBeenCalled();
      expect(again.summary.rejected).toBe(0);
      expect(again.summary.types.event?.unchanged).toBe(files.get('event')?.length);

      // A third of the records that others link to deleted, beside the known lines of every type that links
      // (the articles that stay, as events link to articles): those linking to a deleted record are rejected.
      const third = (type: string, keep: boolean) =>
        (files.get(type) ?? []).filter((_, i) => (i % 3 === 0) !== keep);
      const deletions = (['organisation', 'profile', 'occupation', 'article'] as const).flatMap((type) =>
        third(type, false).map((line) => ({
          type,
          reference: (JSON.parse(line) as { reference: string }).reference,
          deleted: true,
        })),
      );
      const removal = await writeRecords(join(imports.directory, 'demo-deletions.ndjson'), deletions);
      const linking = ['experience', 'organisation_ownership', 'profile_stake', 'event'].map((type) =>
        join(imports.directory, `demo-${type}.ndjson`),
      );
      const kept = join(imports.directory, 'demo-kept-articles.ndjson');
      await writeFile(kept, `${third('article', true).join('\n')}\n`);
      const { known, full } = await bothWays(store.handle, [...linking, kept, removal]);
      expect(known.parsedKnown).toBe(deletions.length);
      expect(known.summary).toEqual(full.summary);
      expect(known.rejects).toEqual(full.rejects);
      for (const type of ['experience', 'organisation_ownership', 'profile_stake', 'article', 'event']) {
        expect(known.summary.types[type]?.rejected, type).toBeGreaterThan(0);
      }
      const reasons = new Set(
        known.rejects.flatMap((r) => r.reasons.map((reason) => reason.split(' links to ')[0])),
      );
      expect([...reasons].sort()).toEqual(
        [
          'annotations[].organisation_reference',
          'annotations[].speaker.profile_reference',
          'annotations[].subject.profile_reference',
          'article_references[]',
          'client_summary_reference',
          'occupation_reference',
          'organisation_reference',
          'organisation_references[]',
          'owned_reference',
          'owner_reference',
          'participants[].profile_reference',
          'profile_reference',
          'acquiree_reference',
          'acquirer_reference',
        ].sort(),
      );
    } finally {
      await store.close();
    }
  });
});
