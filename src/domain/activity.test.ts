import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openScratchStore, type ScratchStore } from '../../test/support/scratch-store.ts';
import { type DatabaseHandle, queryRows } from '../db/database.ts';
import { refreshOrganisationActivity } from './activity.ts';
import { findOrganisations } from './organisations/find-organisations.ts';

// A store of its own (a scratch database on PostgreSQL, a temporary directory embedded), since the test
// writes events and refreshes the activity index.
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

async function listed(): Promise<string[]> {
  const rows = await findOrganisations(handle.db, {}, { limit: 10 });
  return rows.map((row) => row.reference);
}

async function flags(): Promise<Record<string, boolean>> {
  const rows = await queryRows<{ reference: string; has_activity: boolean }>(
    handle.db,
    sql`select reference, has_activity from organisations order by name`,
  );
  return Object.fromEntries(rows.map((row) => [row.reference, row.has_activity]));
}

describe('the activity refresh', () => {
  it('brings the default list and each organisation’s flag in line with the events', async () => {
    for (const [reference, name] of [
      [quiet, 'Quiet Ltd'],
      [busy, 'Busy plc'],
    ] as const) {
      await handle.db.execute(sql`
        insert into organisations (reference, name, status, verified, confidence, is_fund, employees)
        values (${reference}, ${name}, 'active', true, 90, false, 10)`);
    }
    const event = randomUUID();
    await handle.db.execute(sql`
      insert into events (reference, type, summary, publish_date, organisation_reference)
      values (${event}, 'funding', 'A round', now(), ${busy})`);

    // Until the refresh, the new event is not in the index and lists nothing.
    expect(await listed()).toEqual([]);
    await refreshOrganisationActivity(handle.db);
    expect(await listed()).toEqual([busy]);
    expect(await flags()).toEqual({ [busy]: true, [quiet]: false });

    // An organisation whose last event goes leaves the list at the next refresh.
    await handle.db.execute(sql`delete from events where reference = ${event}`);
    await refreshOrganisationActivity(handle.db);
    expect(await listed()).toEqual([]);
    expect(await flags()).toEqual({ [busy]: false, [quiet]: false });
  });
});
