import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unusedCountLimit } from '../../../test/support/count-limits.ts';
import { openScratchStore, type ScratchStore } from '../../../test/support/scratch-store.ts';
import { captureStatements, type DatabaseHandle, queryRows } from '../../db/database.ts';
import { eventTypes } from '../vocabulary/events.ts';
import { countSuggestions, findSuggestions, suggestionFieldTypes } from './find-suggestions.ts';

// A store of its own: the test writes organisations and occupations.
let store: ScratchStore;
let handle: DatabaseHandle;

beforeAll(async () => {
  store = await openScratchStore('suggestions');
  handle = store.handle;
});

afterAll(async () => {
  await store?.close();
});

const windows = [
  { limit: 2, offset: 0 },
  { limit: 3, offset: 4 },
  { limit: 20, offset: 0 },
  { limit: 5, offset: 200 },
];

/** Every window of `query`'s suggestions and their count, and the same from the definition in plain SQL. */
async function bothAnswers(text: string): Promise<{ found: unknown[]; plain: unknown[] }> {
  const query = text.trim();
  const rows = await queryRows<{ field_type: number; label: string; value: string }>(
    handle.db,
    sql`select field_type, label, value from (
        select 0 as field_type, name as label, reference::text as value from organisations
        union all select 1, name, reference::text from occupations
        union all select 3, t, t from unnest(array[${sql.join(
          eventTypes.map((type) => sql`${type}`),
          sql`, `,
        )}]::text[]) as t) as m
      where strpos(lower(label), lower(${query})) > 0
      order by case when lower(label) = lower(${query}) then 0 when starts_with(lower(label), lower(${query})) then 1
          else 2 end, lower(label) collate "C", label collate "C", field_type, value collate "C"`,
  );
  const all = rows.map((row) => ({
    fieldType: suggestionFieldTypes[Number(row.field_type)],
    label: row.label,
    value: row.value,
  }));
  const found: unknown[] = [];
  const plain: unknown[] = [];
  for (const window of windows) {
    const page = await findSuggestions(handle.db, text, window);
    const total = await countSuggestions(handle.db, text, unusedCountLimit());
    found.push({
      window,
      total,
      page: page.map(({ fieldType, label, value }) => ({ fieldType, label, value })),
    });
    plain.push({
      window,
      total: { value: all.length, isEstimate: false },
      page: all.slice(window.offset, window.offset + window.limit),
    });
  }
  return { found, plain };
}

async function addOrganisations(names: string[]): Promise<void> {
  for (const name of names) {
    await handle.db.execute(sql`
      insert into organisations (reference, name, status, verified, confidence, is_fund, employees)
      values (${randomUUID()}, ${name}, 'active', false, 50, ${name.length % 3 === 0}, 1)`);
  }
}

describe('suggestions from the leading organisations', () => {
  it('rank, page and count a common text exactly as every match would', async () => {
    await addOrganisations([
      'Ing',
      'ING',
      'Ingot Metals',
      'ing & Co',
      'Inglis',
      ...['Bring', 'Cling', 'Ding Ltd', 'Fling', 'Kings', 'Ling Co.', 'Ming', 'Ping', 'Ring', 'Sing', 'Wing'],
      ...['Acme', 'Beta', 'Gamma'],
    ]);
    await handle.db.execute(
      sql`insert into occupations (reference, name) values (${randomUUID()}, 'Engineering Lead')`,
    );
    for (const query of ['ing', 'ING', 'ngs', ' ing ', 'ing &', 'in', 'zzz']) {
      const both = await bothAnswers(query);
      expect(both.found).toEqual(both.plain);
    }
  });

  it('refuse a text no filter may hold before reading anything', async () => {
    await expect(findSuggestions(handle.db, 'in\u0000g', { limit: 5, offset: 0 })).rejects.toMatchObject({
      code: 'INVALID_PARAMETER',
    });
  });

  it('walk from the first name containing the text, however far along the names it sorts', async () => {
    // 3,000 names without `qqx`, then 300 that contain it but do not start with it: a walk from the first name of all
    // would pass its limit (2,760 entries for a page of 20) before the first of them.
    await handle.db.execute(sql`
      insert into organisations (reference, name, status, verified, confidence, is_fund, employees)
      select gen_random_uuid(), name, 'active', false, 50, false, 1 from (
        select 'D' || lpad(i::text, 5, '0') as name from generate_series(1, 3000) as i
        union all select 'Zaqqx ' || lpad(i::text, 5, '0') from generate_series(1, 300) as i) as names`);
    await handle.db.execute(sql`analyze organisations`);
    const { sent } = await captureStatements(() =>
      findSuggestions(handle.db, 'qqx', { limit: 20, offset: 0 }),
    );
    // The walk found the page: no statement sorted every match after it.
    expect(sent.filter((statement) => statement.query.includes('count(*) over ()'))).toEqual([]);
    const both = await bothAnswers('qqx');
    expect(both.found).toEqual(both.plain);
  });

  it('read every match when the names containing the text sort past where the walk stops', async () => {
    // `Aing` first, then 4,000 names without `ing` (`b00001`… sort before `bring`), then 300 that contain it but do
    // not start with it: a walk from `aing` stops at its limit (8 × 301 + 1,000 entries, the sort's price) before
    // the next of them.
    await handle.db.execute(sql`
      insert into organisations (reference, name, status, verified, confidence, is_fund, employees)
      select gen_random_uuid(), name, 'active', false, 50, false, 1 from (
        select 'Aing' as name
        union all select 'B' || lpad(i::text, 5, '0') from generate_series(1, 4000) as i
        union all select 'Zing ' || lpad(i::text, 5, '0') from generate_series(1, 300) as i) as names`);
    await handle.db.execute(sql`analyze organisations`);
    const { sent } = await captureStatements(() =>
      findSuggestions(handle.db, 'ing', { limit: 20, offset: 0 }),
    );
    expect(sent.filter((statement) => statement.query.includes('count(*) over ()'))).toHaveLength(1);
    const both = await bothAnswers('ing');
    expect(both.found).toEqual(both.plain);
  });
});
