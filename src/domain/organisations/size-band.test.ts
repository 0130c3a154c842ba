import { describe, expect, it } from 'vitest';
import { sizeBand, sizeBands } from './size-band.ts';

describe('sizeBand', () => {
  it('reads an unknown or zero headcount as -', () => {
    expect(sizeBand(0)).toBe('-');
    expect(sizeBand(null)).toBe('-');
    expect(sizeBand(undefined)).toBe('-');
    expect(sizeBand(-3)).toBe('-');
    expect(sizeBand(Number.NaN)).toBe('-');
  });

  it('puts each band boundary in the band it closes', () => {
    expect([1, 10, 11, 50, 51, 200, 201, 500, 501, 1000, 1001, 5000, 5001, 10000].map(sizeBand)).toEqual([
      '1-10',
      '1-10',
      '11-50',
      '11-50',
      '51-200',
      '51-200',
      '201-500',
      '201-500',
      '501-1000',
      '501-1000',
      '1001-5000',
      '1001-5000',
      '5001-10000',
      '5001-10000',
    ]);
  });

  it('leaves the top band open', () => {
    expect(sizeBand(10001)).toBe('10001+');
    expect(sizeBand(160000)).toBe('10001+');
  });

  it('only ever yields a listed band', () => {
    for (const employees of [0, 1, 7, 42, 199, 777, 4321, 9999, 12345, 1e7]) {
      expect(sizeBands).toContain(sizeBand(employees));
    }
  });
});
