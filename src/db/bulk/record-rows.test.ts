import { describe, expect, it } from 'vitest';
import { appendRecordRows, rowColumns } from './record-rows.ts';

/** A record's rows by table, each row split into its fields. */
function rowsOf(type: Parameters<typeof appendRecordRows>[1], record: Record<string, unknown>, id = 7) {
  const rows: Record<string, string[][]> = {};
  appendRecordRows(
    (table, row) => {
      expect(row.endsWith('\n')).toBe(true);
      rows[table] = [...(rows[table] ?? []), row.slice(0, -1).split('\t')];
    },
    type,
    record,
    id,
  );
  return rows;
}

describe("a record's rows", () => {
  it("give each table's columns in order, after the staged record's id, as `->>` reads the document", () => {
    const rows = rowsOf('organisation', {
      reference: 'aaaaaaaa-0000-4000-8000-000000000001',
      name: 'Tab\tand \\ backslash',
      description: null,
      status: 'active',
      verified: true,
      confidence: 90,
      is_fund: false,
      totals: { employees: 12 },
      relationships: { customers: null },
      aliases: [
        { reference: 'aaaaaaaa-0000-4000-8000-000000000002', name: 'Alias', start_date: '2020-01-01' },
      ],
      // jsonb_each gives the shorter keys first: company before mailing; a value that is no object is no row.
      addresses: { mailing: { city: 'Paris', country: 'FR' }, company: { city: 'Lyon' }, other: null },
      // Shorter first, whatever the alphabet says (the rows get the key; the schema checks the dimensions).
      scores: { growth_momentum: 80, reach: 5 },
      industries: [],
      client_summaries: [
        {
          reference: 'aaaaaaaa-0000-4000-8000-000000000003',
          currency_code: 'USD',
          summary_type: 'aum',
          publish_date: '2024-01-02T03:04:05.000Z',
          entries: [{ label: 'Equity', value: 1.5 }],
        },
      ],
    });
    expect(rows.organisations).toEqual([
      [
        '7',
        'aaaaaaaa-0000-4000-8000-000000000001',
        'Tab\\tand \\\\ backslash',
        '\\N',
        'active',
        'true',
        '90',
        'false',
        '12',
        '\\N',
        '\\N',
        '\\N',
        '\\N',
      ],
    ]);
    expect(rows.organisations?.[0]).toHaveLength(1 + (rowColumns.get('organisations')?.length ?? 0));
    expect(rows.organisation_aliases).toEqual([
      [
        '7',
        'aaaaaaaa-0000-4000-8000-000000000002',
        'aaaaaaaa-0000-4000-8000-000000000001',
        'Alias',
        '2020-01-01',
        '\\N',
      ],
    ]);
    expect(rows.organisation_addresses?.map((row) => row.slice(2, 5))).toEqual([
      ['company', 'Lyon', '\\N'],
      ['mailing', 'Paris', '\\N'],
    ]);
    expect(rows.organisation_scores?.map((row) => row.slice(2))).toEqual([
      ['reach', '5'],
      ['growth_momentum', '80'],
    ]);
    // A JSON column keeps its value as JSON text.
    expect(rows.client_summaries?.[0]?.at(-1)).toBe('[{"label":"Equity","value":1.5}]');
    expect(rows.organisation_industries).toBeUndefined();
  });

  it('keep a JSON null of a JSON column as JSON, and a missing one as no value', () => {
    const event = (data?: unknown) =>
      rowsOf('event', {
        reference: 'bbbbbbbb-0000-4000-8000-000000000001',
        event_type: 'deal',
        article_references: ['bbbbbbbb-0000-4000-8000-000000000002'],
        ...(data === undefined ? {} : { data }),
      });
    expect(event(null).events?.[0]?.at(-1)).toBe('null');
    expect(event().events?.[0]?.at(-1)).toBe('\\N');
    // A list of references gives a row per reference, the reference itself.
    expect(event().event_articles).toEqual([
      ['7', 'bbbbbbbb-0000-4000-8000-000000000001', 'bbbbbbbb-0000-4000-8000-000000000002'],
    ]);
  });
});
