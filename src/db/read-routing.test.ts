import { describe, expect, it } from 'vitest';
import { describeDatabase, parseLsn, recordEndAt } from './read-routing.ts';

describe('parseLsn', () => {
  it('orders WAL positions as PostgreSQL does, across the 32-bit boundary', () => {
    expect(parseLsn('0/0')).toBe(0n);
    expect(parseLsn('0/16B3748')).toBe(0x16b3748n);
    expect(parseLsn('1/0')).toBe(0x1_0000_0000n);
    expect(parseLsn('0/FFFFFFFF') < parseLsn('1/0')).toBe(true);
    expect(parseLsn('16/B374D848') > parseLsn('16/B374D847')).toBe(true);
    expect(() => parseLsn('16')).toThrow(/Not a WAL position/);
  });
});

describe('describeDatabase', () => {
  it('names host, port and database without the credentials', () => {
    expect(describeDatabase('postgres://reader:secret@replica.internal:6432/orgraph?sslmode=require')).toBe(
      'replica.internal:6432/orgraph',
    );
    expect(describeDatabase('postgresql://127.0.0.1/app')).toBe('127.0.0.1:5432/app');
  });
});

describe('recordEndAt', () => {
  it('moves an insert position that sits just past a page header back to the page boundary', () => {
    expect(recordEndAt(parseLsn('0/3000018'))).toBe(parseLsn('0/3000000')); // 24 into a page
    expect(recordEndAt(parseLsn('0/3000028'))).toBe(parseLsn('0/3000000')); // 40: a segment's first page
    expect(recordEndAt(parseLsn('0/3000030'))).toBe(parseLsn('0/3000030'));
    expect(recordEndAt(parseLsn('0/3001F00'))).toBe(parseLsn('0/3001F00'));
  });
});
