import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openScratchStore, type ScratchStore } from '../../../test/support/scratch-store.ts';
import { type DatabaseHandle, queryRows } from '../../db/database.ts';
import { countOrganisations, type OrganisationFilter } from './find-organisations.ts';

// A store of its own, since the test writes organisations and events.
let store: ScratchStore;
let handle: DatabaseHandle;

beforeAll(async () => {
  store = await openScratchStore('counts');
  handle = store.handle;
});

afterAll(async () => {
  await store?.close();
});

const filters: OrganisationFilter[] = [
  {},
  { showEmpty: true },
  { kind: 'funds' },
  { kind: 'all', showEmpty: true },
  { status: 'dormant', showEmpty: true },
  { verified: false },
  { minConfidence: 50 },
  { minConfidence: 0, kind: 'all' },
  { showEmpty: true, status: 'active', verified: true, minConfidence: 20, kind: 'funds' },
];

/** What each filter counts from the maintained counts, beside a plain count of the same rows. */
async function bothCounts(): Promise<{ tally: number[]; counted: number[] }> {
  const tally: number[] = [];
  for (const filter of filters) {
    const total = await countOrganisations(handle.db, filter, { timeoutMs: 10_000 });
    expect(total.isEstimate).toBe(false);
    tally.push(total.value);
  }
  const counted: number[] = [];
  for (const filter of filters) {
    const conditions = [
      filter.showEmpty ? sql`true` : sql`has_activity`,
      filter.kind === 'funds' ? sql`is_fund` : filter.kind === 'all' ? sql`true` : sql`not is_fund`,
      filter.status ? sql`status = ${filter.status}` : sql`true`,
      filter.verified === undefined ? sql`true` : sql`verified = ${filter.verified}`,
      sql`confidence >= ${filter.minConfidence ?? (filter.showEmpty ? 0 : 5)}`,
    ];
    const [row] = await queryRows<{ n: number | string }>(
      handle.db,
      sql`select count(*) as n from organisations where ${sql.join(conditions, sql` and `)}`,
    );
    counted.push(Number(row?.n));
  }
  return { tally, counted };
}

async function insertOrganisations(rows: [string, string, boolean, number, boolean][]): Promise<void> {
  for (const [reference, status, isFund, confidence, verified] of rows) {
    await handle.db.execute(sql`
      insert into organisations (reference, name, status, verified, confidence, is_fund, employees)
      values (${reference}, ${`Org ${reference.slice(0, 8)}`}, ${status}, ${verified}, ${confidence}, ${isFund}, 1)`);
  }
}

describe('the maintained organisation counts', () => {
  it('answer broad filters exactly through inserts, updates, new activity, deletes and truncation', async () => {
    const references = Array.from({ length: 8 }, () => randomUUID());
    await insertOrganisations([
      [references[0]!, 'active', false, 90, true],
      [references[1]!, 'active', true, 60, false],
      [references[2]!, 'dormant', false, 3, true],
      [references[3]!, 'dormant', true, 25, true],
      [references[4]!, 'merged', false, 50, false],
      [references[5]!, 'active', false, 0, false],
    ]);
    // Several rows in one statement, as an import writes them.
    await handle.db.execute(sql`
      insert into organisations (reference, name, status, verified, confidence, is_fund, employees)
      values (${references[6]!}, 'Six', 'active', true, 70, true, 1), (${references[7]!}, 'Seven', 'unknown', false, 5, false, 1)`);
    let both = await bothCounts();
    expect(both.tally).toEqual(both.counted);
    expect(both.tally[3]).toBe(8);
    expect(both.tally[0]).toBe(0);

    // Events give organisations activity (their flag moves them into the default list's count).
    for (const reference of [references[0]!, references[1]!, references[6]!]) {
      await handle.db.execute(sql`
        insert into events (reference, type, summary, publish_date, organisation_reference)
        values (${randomUUID()}, 'funding', 'A round', now(), ${reference})`);
    }
    both = await bothCounts();
    expect(both.tally).toEqual(both.counted);
    expect(both.tally[0]).toBe(1);
    expect(both.tally[2]).toBe(2);

    await handle.db.execute(
      sql`update organisations set confidence = 4, status = 'dissolved' where reference = ${references[0]!}`,
    );
    await handle.db.execute(sql`update organisations set verified = not verified`);
    await handle.db.execute(sql`update organisations set description = 'unchanged groups'`);
    both = await bothCounts();
    expect(both.tally).toEqual(both.counted);

    await handle.db.execute(
      sql`delete from organisations where reference in (${references[1]!}, ${references[2]!})`,
    );
    both = await bothCounts();
    expect(both.tally).toEqual(both.counted);
    expect(both.tally[3]).toBe(6);

    await handle.db.execute(sql`truncate organisations cascade`);
    both = await bothCounts();
    expect(both.tally).toEqual(both.counted);
    expect(both.tally[3]).toBe(0);
  });
});
