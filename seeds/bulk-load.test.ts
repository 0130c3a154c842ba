import { describe, expect, it } from 'vitest';
import { organisationAliasesTable } from '../src/db/schema/organisations.ts';
import { encodeCopyValue, RowBatch } from './bulk-load.ts';

describe('encodeCopyValue', () => {
  it('writes null as \\N and booleans as t/f', () => {
    expect(encodeCopyValue(null)).toBe('\\N');
    expect(encodeCopyValue(undefined)).toBe('\\N');
    expect(encodeCopyValue(true)).toBe('t');
    expect(encodeCopyValue(false)).toBe('f');
  });

  it('escapes the separators and the escape character', () => {
    expect(encodeCopyValue('a\tb\nc\rd\\e')).toBe('a\\tb\\nc\\rd\\\\e');
    expect(encodeCopyValue('plain 100% data_works 📈')).toBe('plain 100% data_works 📈');
  });

  it('writes dates as ISO timestamps and objects as JSON', () => {
    expect(encodeCopyValue(new Date(Date.UTC(2025, 0, 2, 3, 4, 5)))).toBe('2025-01-02T03:04:05.000Z');
    expect(encodeCopyValue({ round: 'Seed', note: 'a\\b' })).toBe('{"round":"Seed","note":"a\\\\\\\\b"}');
    expect(encodeCopyValue(12.5)).toBe('12.5');
    expect(() => encodeCopyValue(Number.NaN)).toThrow();
  });
});

describe('RowBatch', () => {
  it('encodes rows in the column order of the table with snake_case names', () => {
    const batch = new RowBatch();
    batch.add(organisationAliasesTable, {
      reference: '00000000-0000-4000-8000-000000000000',
      organisationReference: '00000000-0000-4000-8000-000000000001',
      name: 'Old\tName',
      startDate: null,
      endDate: '2020-01-01',
    });
    const [chunk] = [...batch.chunks()];
    expect(chunk?.name).toBe('organisation_aliases');
    expect(chunk?.columns).toEqual(['reference', 'organisation_reference', 'name', 'start_date', 'end_date']);
    expect(chunk?.text).toBe(
      '00000000-0000-4000-8000-000000000000\t00000000-0000-4000-8000-000000000001\tOld\\tName\t\\N\t2020-01-01\n',
    );
    expect(chunk?.rows).toBe(1);
  });
});
