import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openScratchStore, type ScratchStore } from '../../test/support/scratch-store.ts';
import { type DatabaseHandle, queryRows } from '../db/database.ts';
import { reconcileOrganisationActivity } from './activity.ts';
import { findOrganisations } from './organisations/find-organisations.ts';

// A store of its own (a scratch database on PostgreSQL, a temporary directory embedded), since the test
// writes events and AUM records.
let store: ScratchStore;
let handle: DatabaseHandle;

beforeAll(async () => {
  store = await openScratchStore('activity');
  handle = store.handle;
});

afterAll(async () => {
  await store?.close();
});

const quiet = randomUUID();
const busy = randomUUID();
const buyer = randomUUID();

async function listed(filter: Parameters<typeof findOrganisations>[1] = {}): Promise<string[]> {
  const rows = await findOrganisations(handle.db, filter, { limit: 10 });
  return rows.map((row) => row.reference).sort();
}

async function flags(): Promise<Record<string, boolean>> {
  const rows = await queryRows<{ reference: string; has_activity: boolean }>(
    handle.db,
    sql`select o.reference, o.has_activity and n.has_activity as has_activity
          from organisations o join organisation_names n using (reference)`,
  );
  return Object.fromEntries(rows.map((row) => [row.reference, row.has_activity]));
}

async function index(): Promise<string[]> {
  const rows = await queryRows<{ organisation_reference: string; activity_type: string; at: string }>(
    handle.db,
    sql`select organisation_reference, activity_type, to_char(last_activity_at at time zone 'UTC', 'YYYY-MM-DD') as at
          from organisation_activity order by 1, 2`,
  );
  const label = (reference: string) =>
    reference === busy ? 'busy' : reference === buyer ? 'buyer' : reference === quiet ? 'quiet' : reference;
  return rows.map((row) => `${label(row.organisation_reference)} ${row.activity_type} ${row.at}`).sort();
}

async function addEvent(
  organisation: string,
  publishDate: string,
  extra: { type?: string; acquirer?: string } = {},
): Promise<string> {
  const reference = randomUUID();
  await handle.db.execute(sql`
    insert into events (reference, type, summary, publish_date, organisation_reference, acquirer_reference)
    values (${reference}, ${extra.type ?? 'funding'}, 'An event', ${publishDate}::timestamptz, ${organisation},
      ${extra.acquirer ?? null})`);
  return reference;
}

describe('the activity index', () => {
  it('follows every write to events and AUM records as its statement commits', async () => {
    for (const [reference, name] of [
      [quiet, 'Quiet Ltd'],
      [busy, 'Busy plc'],
      [buyer, 'Buyer AG'],
    ] as const) {
      await handle.db.execute(sql`
        insert into organisations (reference, name, status, verified, confidence, is_fund, employees)
        values (${reference}, ${name}, 'active', true, 90, false, 10)`);
    }
    expect(await listed()).toEqual([]);

    // A new event lists its organisation at once, in the default list and by type.
    const first = await addEvent(busy, '2025-01-10T00:00:00Z');
    expect(await listed()).toEqual([busy]);
    expect(await listed({ activityTypes: ['funding'] })).toEqual([busy]);
    expect(await flags()).toEqual({ [busy]: true, [quiet]: false, [buyer]: false });

    // Later events move the date forward, earlier ones leave it; a deal also names its acquirer.
    const later = await addEvent(busy, '2025-03-01T00:00:00Z');
    await addEvent(busy, '2024-12-01T00:00:00Z');
    const deal = await addEvent(busy, '2025-02-01T00:00:00Z', { type: 'deal', acquirer: buyer });
    expect(await index()).toEqual([
      'busy deal 2025-02-01',
      'busy funding 2025-03-01',
      'buyer deal 2025-02-01',
    ]);
    expect(await listed()).toEqual([busy, buyer].sort());

    // Deleting the latest event recomputes the date from the events left; deleting the deal empties the buyer.
    await handle.db.execute(sql`delete from events where reference = ${later}`);
    await handle.db.execute(sql`delete from events where reference = ${deal}`);
    expect(await index()).toEqual(['busy funding 2025-01-10']);
    expect(await flags()).toEqual({ [busy]: true, [quiet]: false, [buyer]: false });

    // An update that moves an event to another organisation moves the activity with it; other updates change nothing.
    await handle.db.execute(
      sql`update events set summary = 'Reworded' where organisation_reference = ${busy}`,
    );
    expect(await index()).toEqual(['busy funding 2025-01-10']);
    await handle.db.execute(
      sql`update events set organisation_reference = ${quiet} where organisation_reference = ${busy}`,
    );
    expect(await index()).toEqual(['quiet funding 2025-01-10']);
    expect(await listed()).toEqual([quiet]);

    // AUM records count as activity of their own type.
    const summary = randomUUID();
    await handle.db.execute(sql`
      insert into client_summaries (reference, organisation_reference, currency_code, summary_type, publish_date, entries)
      values (${summary}, ${buyer}, 'USD', 'fund', '2025-04-01T00:00:00Z', '[]'::jsonb)`);
    expect(await listed({ activityTypes: ['client_summary'] })).toEqual([buyer]);
    await handle.db.execute(sql`delete from client_summaries where reference = ${summary}`);
    expect(await listed()).toEqual([quiet]);

    // Deleting the last event empties the list again.
    await handle.db.execute(sql`delete from events where reference = ${first}`);
    await handle.db.execute(sql`delete from events`);
    expect(await listed()).toEqual([]);
    expect(await index()).toEqual([]);
    expect(await flags()).toEqual({ [busy]: false, [quiet]: false, [buyer]: false });
  });

  it('is repaired slice by slice after writes made with the triggers off', async () => {
    await handle.db.transaction(async (tx) => {
      await tx.execute(sql`alter table events disable trigger user`);
      await tx.execute(sql`
        insert into events (reference, type, summary, publish_date, organisation_reference)
        values (${randomUUID()}, 'move', 'Unseen', '2025-05-05T00:00:00Z', ${buyer})`);
      await tx.execute(sql`alter table events enable trigger user`);
    });
    expect(await listed()).toEqual([]);
    // Slices of one organisation, in reference order, until the end.
    let cursor: string | null = null;
    let slices = 0;
    do {
      cursor = await reconcileOrganisationActivity(handle.db, cursor, 1);
      slices += 1;
    } while (cursor !== null && slices < 10);
    expect(slices).toBe(4);
    expect(await index()).toEqual(['buyer move 2025-05-05']);
    expect(await listed()).toEqual([buyer]);
    expect(await flags()).toEqual({ [busy]: false, [quiet]: false, [buyer]: true });
  });
});
