import { describe, expect, it } from 'vitest';
import { occupationReference, occupations, recordTitle } from './occupations.ts';
import { Random } from './random.ts';

describe('occupations', () => {
  it('holds about 200 distinct normalised titles, executive and not', () => {
    const names = occupations.map((occupation) => occupation.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names.length).toBeGreaterThanOrEqual(180);
    expect(names).toEqual(
      expect.arrayContaining(['Chief Executive Officer', 'Managing Director', 'Software Engineer']),
    );
    expect(occupations.filter((o) => o.executive).length).toBeGreaterThan(50);
    expect(occupations.filter((o) => !o.executive).length).toBeGreaterThan(50);
  });

  it('gives each occupation a stable reference', () => {
    expect(occupationReference(0)).toBe(occupationReference(0));
    expect(new Set(occupations.map((_, i) => occupationReference(i))).size).toBe(occupations.length);
  });

  it('records titles as written, normalised on most but not all', () => {
    const random = Random.for('test-titles', 0);
    const recorded = Array.from({ length: 2_000 }, (_, i) => recordTitle(random, i % 2 === 0));
    const unmatched = recorded.filter((title) => title.occupation === null).length;
    expect(unmatched).toBeGreaterThan(0);
    expect(unmatched / recorded.length).toBeLessThan(0.15);
    const variants = recorded.filter(
      (t) => t.occupation !== null && t.title !== occupations[t.occupation]!.name,
    );
    expect(variants.length).toBeGreaterThan(100);
    expect(recorded.map((t) => t.title)).toEqual(expect.arrayContaining(['CEO']));
  });
});
