import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/database.ts';
import { eventTypes } from '../../src/domain/vocabulary/events.ts';
import { openTestApp, type TestApp } from '../support/test-app.ts';
import { assertProperty, writeUnlimitedPlansFile } from './support/fuzz.ts';

/**
 * Substring filters match text literally: `%`, `_` and `\` are characters like any other, never LIKE wildcards or
 * escapes, and values never reach the SQL text. The expected matches are computed here from every candidate name,
 * so a filter that treated `_` as "any character" or `%` as "anything" would return too many.
 */
let app: TestApp;
const names = { organisations: [] as string[], profiles: [] as string[], suggestions: [] as string[] };

beforeAll(async () => {
  app = await openTestApp({ PLANS_FILE: writeUnlimitedPlansFile() });
  const column = async (query: ReturnType<typeof sql>) =>
    (await queryRows<{ label: string }>(app.services.db, query)).map((row) => row.label);
  names.organisations = await column(sql`select name as label from organisations`);
  names.profiles = await column(sql`select full_name as label from profiles`);
  names.suggestions = [
    ...names.organisations,
    ...(await column(sql`select name as label from occupations`)),
    ...(await column(sql`select distinct move_type as label from events where move_type is not null`)),
    ...eventTypes,
    ...(await column(sql`select distinct deal_status as label from events where deal_status is not null`)),
    ...(await column(sql`select distinct deal_type as label from events where deal_type is not null`)),
  ];
});
afterAll(() => app?.close());

function expectedCount(candidates: string[], needle: string): number {
  const lower = needle.toLowerCase();
  return candidates.filter((name) => name.toLowerCase().includes(lower)).length;
}

interface Filter {
  path: (needle: string) => string;
  candidates: () => string[];
  field: string;
}

const filters: Record<string, Filter> = {
  'organisations `name`': {
    path: (needle) =>
      `/v1/organisations?show_empty=true&type=all&limit=100&name=${encodeURIComponent(needle)}`,
    candidates: () => names.organisations,
    field: 'name',
  },
  'profiles `search`': {
    path: (needle) => `/v1/profiles?limit=100&search=${encodeURIComponent(needle)}`,
    candidates: () => names.profiles,
    field: 'name',
  },
  'suggestions `query`': {
    path: (needle) => `/v1/search/suggestions?limit=100&query=${encodeURIComponent(needle)}`,
    candidates: () => names.suggestions,
    field: 'label',
  },
};

async function check(filter: Filter, needle: string): Promise<void> {
  const { status, body } = await app.getJson<{ success: Record<string, string>[]; meta: { total: number } }>(
    filter.path(needle),
  );
  const context = `${filter.path(needle)} → ${status}`;
  expect(status, context).toBe(200);
  const expected = expectedCount(filter.candidates(), needle);
  expect(body.meta.total, context).toBe(expected);
  expect(body.success.length, context).toBe(Math.min(expected, 100));
  for (const row of body.success)
    expect(row[filter.field]!.toLowerCase(), context).toContain(needle.toLowerCase());
}

const metacharacters = [
  '%',
  '_',
  '\\',
  '%%',
  '\\%',
  '\\_',
  'a%',
  '%a',
  '_a',
  'a_b',
  't_s',
  '100%',
  '%_%',
  "'",
  "' or '1'='1",
  '[a]',
  '.*',
];

describe.each(Object.entries(filters))('the %s filter', (_name, filter) => {
  it.each(metacharacters)('matches %j literally', (needle) => check(filter, needle));

  it('matches generated text over letters and metacharacters literally', async () => {
    await assertProperty(
      fc.asyncProperty(
        fc
          .string({
            unit: fc.constantFrom('a', 'e', 'n', 'o', ' ', '%', '_', '\\', "'", '.'),
            minLength: 1,
            maxLength: 3,
          })
          .filter((needle) => needle.trim() === needle && needle.length > 0),
        (needle) => check(filter, needle),
      ),
      60,
    );
  });
});

describe('the sanity of the expectations', () => {
  it('has names to match: `_` finds the event types spelt with one and nothing more', async () => {
    const { body } = await app.getJson<{ success: { label: string }[] }>('/v1/search/suggestions?query=_');
    const expected = names.suggestions.filter((label) => label.includes('_'));
    expect(expected).toEqual(expect.arrayContaining(['public_offering', 'client_summary']));
    expect(body.success.map((row) => row.label).sort()).toEqual(expected.sort());
  });

  it('agrees across transports: the graph counts the same organisations for the same text', async () => {
    for (const needle of ['an', '%', '_', 'a_b']) {
      const { body } = await app.graphql<{ organisations: { totalCount: { value: number } } }>(
        'query ($name: String) { organisations(filter: { name: $name, showEmpty: true, kind: ALL }) { totalCount { value } } }',
        { name: needle },
      );
      expect(body.errors).toBeUndefined();
      expect(body.data?.organisations.totalCount.value).toBe(expectedCount(names.organisations, needle));
    }
  });
});
