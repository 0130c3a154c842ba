import { describe, expect, it } from 'vitest';
import { findIndustry, resolveIndustryCode } from './industries.ts';

describe('resolveIndustryCode', () => {
  it('takes a code of every level that exists', () => {
    expect(resolveIndustryCode('45')).toBe('45');
    expect(resolveIndustryCode(4510)).toBe('4510');
    expect(resolveIndustryCode(' 451020 ')).toBe('451020');
    expect(resolveIndustryCode('45102010')).toBe('45102010');
  });

  it.each(['99', '4599', '451', 'abc', '', '4510201010', '-45', '45.0'])('refuses %j', (input) => {
    expect(() => resolveIndustryCode(input)).toThrow(/industry/);
  });
});

describe('findIndustry', () => {
  it('knows each node with its level and parent', () => {
    expect(findIndustry('45102010')).toEqual({
      code: '45102010',
      name: expect.any(String),
      level: 4,
      parentCode: '451020',
    });
    expect(findIndustry('45')).toMatchObject({ level: 1, parentCode: null });
    expect(findIndustry('46')).toBeNull();
  });
});
