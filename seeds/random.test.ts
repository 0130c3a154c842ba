import { describe, expect, it } from 'vitest';
import { formatUuid, Random, saltOf, scatter, unitFor, uuidFor } from './random.ts';

const uuidV4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('Random', () => {
  it('replays the same stream for the same salt and index', () => {
    const a = Random.for('organisation', 42);
    const b = Random.for('organisation', 42);
    const draws = (r: Random) => Array.from({ length: 20 }, () => r.uint32());
    expect(draws(a)).toEqual(draws(b));
  });

  it('gives different streams to different salts, indexes and subs', () => {
    const first = (r: Random) => [r.uint32(), r.uint32()];
    const base = first(Random.for('organisation', 1));
    expect(first(Random.for('organisation', 2))).not.toEqual(base);
    expect(first(Random.for('profile', 1))).not.toEqual(base);
    expect(first(Random.for('organisation', 1, 1))).not.toEqual(base);
  });

  it('keeps int() within its inclusive bounds and reaches both ends', () => {
    const random = Random.for('test', 0);
    const seen = new Set<number>();
    for (let i = 0; i < 2_000; i += 1) seen.add(random.int(3, 7));
    expect([...seen].sort()).toEqual([3, 4, 5, 6, 7]);
  });

  it('never picks a zero-weight entry', () => {
    const random = Random.for('test', 1);
    for (let i = 0; i < 1_000; i += 1) {
      expect(
        random.weighted([
          ['a', 1],
          ['never', 0],
          ['b', 2],
        ] as const),
      ).not.toBe('never');
    }
  });

  it('samples distinct items', () => {
    const picked = Random.for('test', 2).sample([1, 2, 3, 4, 5, 6], 4);
    expect(new Set(picked).size).toBe(4);
  });
});

describe('uuids', () => {
  it('formats valid version-4 UUIDs, also from extreme words', () => {
    expect(formatUuid(0, 0, 0, 0)).toMatch(uuidV4);
    expect(formatUuid(0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff)).toMatch(uuidV4);
    expect(Random.for('x', 9).uuid()).toMatch(uuidV4);
  });

  it('derives the same reference for the same record and distinct ones otherwise', () => {
    expect(uuidFor('organisation', 7)).toBe(uuidFor('organisation', 7));
    const seen = new Set<string>();
    for (let i = 0; i < 50_000; i += 1) seen.add(uuidFor('organisation', i));
    for (let i = 0; i < 50_000; i += 1) seen.add(uuidFor('profile', i));
    expect(seen.size).toBe(100_000);
  });

  it('does not use Math.random', () => {
    const original = Math.random;
    Math.random = () => {
      throw new Error('Math.random was called');
    };
    try {
      expect(uuidFor('organisation', 1)).toMatch(uuidV4);
      expect(unitFor('pool', 1)).toBeLessThan(1);
    } finally {
      Math.random = original;
    }
  });
});

describe('scatter', () => {
  it.each([1, 2, 7, 100, 1_380, 6_000])('is a bijection on [0, %i)', (n) => {
    const values = new Set<number>();
    for (let i = 0; i < n; i += 1) {
      const value = scatter(i, n, 'story-subject');
      expect(value).toBeGreaterThanOrEqual(0);
      expect(value).toBeLessThan(n);
      values.add(value);
    }
    expect(values.size).toBe(n);
  });
});

describe('saltOf', () => {
  it('is stable', () => {
    expect(saltOf('organisation')).toBe(saltOf('organisation'));
    expect(saltOf('organisation')).not.toBe(saltOf('profile'));
  });
});
