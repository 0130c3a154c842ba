import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import postgres from 'postgres';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/database.ts';
import { filterKeyDifferences } from '../support/filter-keys.ts';
import { nameFragmentDifferences } from '../support/name-fragments.ts';
import {
  experience,
  importFiles,
  newReference,
  openImportStore,
  organisation,
  profile,
  scratchDirectory,
  useImportStore,
  writeRecords,
} from './support.ts';

/**
 * An import into an empty store loads it in one transaction, as the seed does: foreign keys and secondary indexes
 * dropped for the load and put back after it. The lines of a large import are read on worker threads.
 */

const imports = useImportStore('initial_load');

/** Every index and constraint of the public schema, by definition. */
async function definitions(): Promise<string[]> {
  const rows = await queryRows<{ definition: string }>(
    imports.handle.db,
    sql`select indexdef as definition from pg_indexes where schemaname = 'public'
        union all
        select conrelid::regclass::text || ' ' || conname || ' ' || pg_get_constraintdef(oid)
          from pg_constraint where connamespace = 'public'::regnamespace
        order by 1`,
  );
  return rows.map((row) => row.definition);
}

async function count(table: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    imports.handle.db,
    sql.raw(`select count(*)::integer as n from ${table}`),
  );
  return Number(row?.n);
}

describe('an import into an empty store', () => {
  const organisations = Array.from({ length: 600 }, () => newReference());
  const people = Array.from({ length: 600 }, () => newReference());
  const deals = Array.from({ length: 3 }, () => newReference());
  // Long lines among many: each is read whole on a worker, beside the others.
  const longDescription = 'x'.repeat(900 * 1024);

  it('loads every record at once and puts back every index and foreign key', async () => {
    const before = await definitions();
    const lines = [
      ...organisations.map((reference, i) =>
        organisation(reference, {
          ...(i % 200 === 0 ? { description: longDescription } : {}),
          // Some with a company country and industries, for the filter keys built at the end of the load.
          ...(i % 3 === 0
            ? {
                addresses: { company: { country: i % 2 === 0 ? 'US' : 'GB' } },
                industries: [{ code: i % 4 === 0 ? '45103010' : '4010', is_primary: true }],
              }
            : {}),
        }),
      ),
      ...people.map((reference) => profile(reference)),
      ...people.map((reference, i) =>
        experience(newReference(), reference, { organisation_reference: organisations[i] }),
      ),
      { type: 'experience', reference: newReference(), deleted: true },
      ...deals.map((reference, i) => ({
        type: 'event',
        reference,
        event_type: 'deal',
        summary: `Deal ${i}`,
        publish_date: '2025-07-01T12:00:00Z',
        organisation_reference: organisations[i],
        acquirer_reference: organisations[i],
        acquiree_reference: organisations[i + 1],
        deal_type: 'Acquisition',
        deal_status: 'Completed',
        participants: [{ profile_reference: people[i], role: 'adviser' }],
      })),
    ];
    const path = await writeRecords(join(imports.directory, 'all.ndjson'), lines);
    const { summary, rejects } = await importFiles(imports.handle, [path]);

    expect(rejects).toEqual([]);
    expect(summary).toMatchObject({ committed: true, initial_load: true, rejected: 0, written: 1_803 });
    expect(summary.types.organisation).toEqual({
      inserted: 600,
      updated: 0,
      unchanged: 0,
      deleted: 0,
      rejected: 0,
    });
    expect(summary.types.experience).toMatchObject({ inserted: 600, unchanged: 1 });
    expect(await definitions()).toEqual(before);
    expect(await count('organisations')).toBe(600);
    expect(await count('experiences')).toBe(600);
    // What triggers derive from the records, and the digests a re-import reads.
    expect(await count('organisation_names')).toBe(600);
    expect(await filterKeyDifferences(imports.handle.db)).toEqual([]);
    // Every node of each organisation's code, and '' (any industry) once each.
    expect(await count('organisation_filter_keys')).toBe(50 * 4 + 150 * 2 + 200);
    expect(await nameFragmentDifferences(imports.handle.db)).toEqual([]);
    expect(await count('organisation_name_fragments')).toBeGreaterThan(600);
    expect(await count('record_digests')).toBe(1_803);
    expect(await count('event_participants')).toBe(3);
    // The change log holds each new event once, as added, although its participants were stored after it.
    const changes = await queryRows<{ reference: string; added: boolean }>(
      imports.handle.db,
      sql`select event_reference::text as reference, old_image is null as added from event_changes
           where event_reference in (${sql.join(
             deals.map((reference) => sql`${reference}::uuid`),
             sql`, `,
           )}) order by seq`,
    );
    expect(changes).toEqual(deals.map((reference) => ({ reference, added: true })));
    const [long] = await queryRows<{ length: number }>(
      imports.handle.db,
      sql`select length(description)::integer as length from organisations where reference = ${organisations[0]}`,
    );
    expect(long?.length).toBe(longDescription.length);
    // The planner's statistics of every table written are gathered after the load (on two connections at once
    // on a server), so the lists' estimates see the new rows; only analyze fills pg_stats.
    const analysed = await queryRows<{ table: string }>(
      imports.handle.db,
      sql`select distinct tablename as table from pg_stats
           where schemaname = 'public' and tablename in ('organisations', 'organisation_names', 'profiles', 'experiences')
           order by 1`,
    );
    expect(analysed.map((row) => row.table)).toEqual([
      'experiences',
      'organisation_names',
      'organisations',
      'profiles',
    ]);

    // The foreign keys are back: an alias of no organisation is refused.
    const refused = await imports.handle.db
      .execute(
        sql`insert into organisation_aliases (reference, organisation_reference, name) values (${newReference()}, ${newReference()}, 'Nobody')`,
      )
      .then(
        () => null,
        (error: Error) => String(error.cause),
      );
    expect(refused).toMatch(/foreign key/);

    const again = await importFiles(imports.handle, [path]);
    expect(again.summary).toMatchObject({ initial_load: false, written: 0, rejected: 0 });
    expect(again.summary.types.organisation?.unchanged).toBe(600);

    // The load kept its digests without the triggers that forget them; those are back: a write from elsewhere
    // forgets its record's digest.
    await imports.handle.db.execute(
      sql`update organisations set name = 'Renamed elsewhere' where reference = ${organisations[5]}`,
    );
    const [kept] = await queryRows<{ n: number }>(
      imports.handle.db,
      sql`select count(*)::integer as n from record_digests where reference = ${organisations[5]}`,
    );
    expect(kept?.n).toBe(0);
  });

  it('goes batch by batch once the store holds a record', async () => {
    const reference = newReference();
    const path = await writeRecords(join(imports.directory, 'one.ndjson'), [organisation(reference)]);
    const { summary } = await importFiles(imports.handle, [path]);
    expect(summary).toMatchObject({ initial_load: false, written: 1 });
    expect(await count('organisations')).toBe(601);
  });

  it("logs a batch's new event once, as added, and a later change of its participants once, as updated", async () => {
    const reference = newReference();
    const deal = (role: string) => ({
      type: 'event',
      reference,
      event_type: 'deal',
      summary: 'A deal in a batch',
      publish_date: '2025-08-01T12:00:00Z',
      organisation_reference: organisations[10],
      acquirer_reference: organisations[10],
      acquiree_reference: organisations[11],
      deal_type: 'Acquisition',
      deal_status: 'Completed',
      participants: [{ profile_reference: people[10], role }],
    });
    const changes = async () =>
      queryRows<{ added: boolean }>(
        imports.handle.db,
        sql`select old_image is null as added from event_changes where event_reference = ${reference} order by seq`,
      );
    const first = await importFiles(imports.handle, [
      await writeRecords(join(imports.directory, 'deal.ndjson'), [deal('adviser')]),
    ]);
    expect(first.summary).toMatchObject({ initial_load: false, written: 1 });
    expect(await changes()).toEqual([{ added: true }]);
    const second = await importFiles(imports.handle, [
      await writeRecords(join(imports.directory, 'deal-investor.ndjson'), [deal('investor')]),
    ]);
    expect(second.summary.types.event).toMatchObject({ updated: 1 });
    expect(await changes()).toEqual([{ added: true }, { added: false }]);
  });
});

describe('an import into an empty store that stores nothing', () => {
  it('counts what a dry run, or --all-or-nothing meeting a rejection, would insert', async () => {
    const store = await openImportStore('initial_nothing');
    const files = await scratchDirectory('initial_nothing');
    try {
      const companies = Array.from({ length: 4 }, () => newReference());
      const person = newReference();
      const lines = [
        ...companies.map((reference) => organisation(reference)),
        profile(person),
        experience(newReference(), person, { organisation_reference: companies[1] }),
        experience(newReference(), person, { organisation_reference: newReference() }),
        { type: 'profile', reference: newReference(), deleted: true },
      ];
      const path = await writeRecords(join(files.path, 'all.ndjson'), lines);
      for (const options of [{ dryRun: true }, { allOrNothing: true }]) {
        const { summary, rejects } = await importFiles(store.handle, [path], options);
        expect(summary, JSON.stringify(options)).toMatchObject({
          committed: false,
          initial_load: false,
          written: 0,
          rejected: 1,
        });
        expect(summary.types.organisation).toEqual({
          inserted: 4,
          updated: 0,
          unchanged: 0,
          deleted: 0,
          rejected: 0,
        });
        // The deletion of a record the store does not hold changes nothing.
        expect(summary.types.profile).toMatchObject({ inserted: 1, unchanged: 1, deleted: 0 });
        expect(summary.types.experience).toMatchObject({ inserted: 1, rejected: 1 });
        expect(rejects.map((rejection) => rejection.line)).toEqual([7]);
        expect(rejects[0]?.record).toEqual(lines[6]);
      }
      const [row] = await queryRows<{ n: number }>(
        store.handle.db,
        sql`select (select count(*) from organisations) + (select count(*) from profiles) as n`,
      );
      expect(Number(row?.n)).toBe(0);
    } finally {
      await store.close();
      await files.remove();
    }
  });
});

describe.runIf(Boolean(process.env.DATABASE_URL))(
  'an import into an empty store it cannot lock (PostgreSQL)',
  () => {
    it('stores every record all the same, read again from its files, and reports each rejection once', async () => {
      const store = await openImportStore('initial_locked');
      const files = await scratchDirectory('initial_locked');
      // Another session reading the organisations holds them through the import: the initial load, which locks
      // every table for itself, gives up after its lock timeout, and the records, staged as rows for it, are read
      // again as documents and stored batch by batch.
      const reader = postgres(String(store.env.DATABASE_URL), { max: 1, onnotice: () => {} });
      try {
        const companies = Array.from({ length: 3 }, () => newReference());
        const person = newReference();
        const missing = newReference();
        const lines = [
          ...companies.map((reference) => organisation(reference)),
          profile(person),
          experience(newReference(), person, { organisation_reference: companies[0] }),
          experience(newReference(), person, { organisation_reference: missing }),
        ];
        const path = await writeRecords(join(files.path, 'all.ndjson'), lines);
        let release = () => {};
        const held = new Promise<void>((resolve) => {
          release = resolve;
        });
        let holding = () => {};
        const holds = new Promise<void>((resolve) => {
          holding = resolve;
        });
        const reading = reader.begin(async (tx) => {
          await tx`select count(*) from organisations`;
          holding();
          await held;
        });
        await holds;
        const phases: string[] = [];
        const imported = await importFiles(store.handle, [path], {
          onProgress: ({ phase }) => {
            if (phases.at(-1) !== phase) phases.push(phase);
          },
        }).finally(release);
        await reading;
        // Resolved twice: staged as rows for the initial load, then read again as documents for the batches.
        expect(phases).toEqual(['resolving', 'writing', 'resolving', 'writing', 'refreshing']);
        expect(imported.summary).toMatchObject({
          initial_load: false,
          committed: true,
          written: 5,
          rejected: 1,
        });
        expect(imported.summary.types.experience).toMatchObject({ inserted: 1, rejected: 1 });
        // Once: the rejects of the import that gave way are not kept. (The record is its canonical form, nulls added.)
        expect(imported.rejects).toMatchObject([
          {
            source: path,
            line: 6,
            record: lines[5],
            reasons: [
              `organisation_reference links to no organisation in the import or the store: ${missing}`,
            ],
          },
        ]);
        const [row] = await queryRows<{ n: number }>(
          store.handle.db,
          sql`select (select count(*) from organisations) + (select count(*) from experiences) as n`,
        );
        expect(Number(row?.n)).toBe(4);
      } finally {
        await reader.end({ timeout: 1 });
        await store.close();
        await files.remove();
      }
    }, 60_000);
  },
);

describe('reading on worker threads', () => {
  it('gives the outcomes and rejects of reading on the import thread', async () => {
    const good = Array.from({ length: 700 }, () => newReference());
    const lines: (object | string)[] = good.map((reference) => organisation(reference));
    lines.splice(100, 0, '{"type": "organisation", "reference": ', {
      type: 'company',
      reference: newReference(),
    });
    lines.splice(
      650,
      0,
      organisation(newReference(), { confidence: 101 }),
      organisation(good[3]!, { name: 'Other' }),
    );
    const path = await writeRecords(join(imports.directory, 'mixed.ndjson'), lines);
    const dryRun = async (readWorkers: number) => {
      const { summary, rejects } = await importFiles(imports.handle, [path], { dryRun: true, readWorkers });
      return { summary: { ...summary, seconds: 0 }, rejects };
    };
    const threads = await dryRun(1);
    const inline = await dryRun(0);
    expect(threads).toEqual(inline);
    expect(threads.rejects.map((rejection) => rejection.line).sort((a, b) => a - b)).toEqual([
      4, 101, 102, 651, 652,
    ]);
    expect(threads.summary.types.organisation).toMatchObject({ inserted: 699, rejected: 3 });
  });
});
