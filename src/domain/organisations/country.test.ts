import { describe, expect, it } from 'vitest';
import { DomainError } from '../errors.ts';
import { resolveCountry } from './country.ts';

describe('resolveCountry', () => {
  it('takes alpha-2 codes in any case', () => {
    expect(resolveCountry('GB')).toBe('GB');
    expect(resolveCountry('de')).toBe('DE');
    expect(resolveCountry(' jp ')).toBe('JP');
  });

  it('takes alpha-3 codes', () => {
    expect(resolveCountry('GBR')).toBe('GB');
    expect(resolveCountry('usa')).toBe('US');
    expect(resolveCountry('CHE')).toBe('CH');
  });

  it('takes English names, official or common, in any case', () => {
    expect(resolveCountry('Germany')).toBe('DE');
    expect(resolveCountry('united kingdom')).toBe('GB');
    expect(resolveCountry('UK')).toBe('GB');
    expect(resolveCountry('United States of America')).toBe('US');
    expect(resolveCountry('south korea')).toBe('KR');
  });

  it('rejects what is no country as an invalid parameter', () => {
    for (const input of ['XX', 'Atlantis', 'ZZZ', '', '12']) {
      expect(() => resolveCountry(input)).toThrow(DomainError);
      try {
        resolveCountry(input);
      } catch (error) {
        expect((error as DomainError).code).toBe('INVALID_PARAMETER');
        expect((error as DomainError).message).toContain('country');
      }
    }
  });
});
