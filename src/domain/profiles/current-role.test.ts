import { describe, expect, it } from 'vitest';
import { compareExperiences, pickCurrentRole } from './current-role.ts';

const role = (reference: string, startDate: string | null, endDate: string | null) => ({
  reference,
  startDate,
  endDate,
});

describe('pickCurrentRole', () => {
  it('is null when every role has ended, or there is none', () => {
    expect(pickCurrentRole([])).toBeNull();
    expect(
      pickCurrentRole([role('a', '2020-01-01', '2021-01-01'), role('b', null, '2019-05-01')]),
    ).toBeNull();
  });

  it('picks the role with no end date over a later-started past role', () => {
    const current = role('a', '2015-01-01', null);
    expect(pickCurrentRole([role('b', '2022-01-01', '2023-01-01'), current])).toBe(current);
  });

  it('among several current roles picks the most recently started', () => {
    const newest = role('c', '2021-06-01', null);
    expect(pickCurrentRole([role('a', '2019-01-01', null), newest, role('b', '2020-12-31', null)])).toBe(
      newest,
    );
  });

  it('counts an unknown start as the oldest, and breaks ties by the lower reference', () => {
    const dated = role('z', '2001-01-01', null);
    expect(pickCurrentRole([role('a', null, null), dated])).toBe(dated);
    const lower = role('0a', '2020-01-01', null);
    expect(pickCurrentRole([role('0b', '2020-01-01', null), lower])).toBe(lower);
    const undated = role('1', null, null);
    expect(pickCurrentRole([role('2', null, null), undated])).toBe(undated);
  });
});

describe('compareExperiences', () => {
  it('orders current roles first, then by start date newest first, unknown starts last', () => {
    const history = [
      role('past-old', '2005-01-01', '2008-01-01'),
      role('past-undated', null, '2010-01-01'),
      role('current-old', '2012-01-01', null),
      role('past-new', '2018-01-01', '2020-01-01'),
      role('current-new', '2021-01-01', null),
    ];
    expect([...history].sort(compareExperiences).map((r) => r.reference)).toEqual([
      'current-new',
      'current-old',
      'past-new',
      'past-old',
      'past-undated',
    ]);
  });
});
