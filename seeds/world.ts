import { startOfUtcDay } from './dates.ts';

/** How many records of each driving kind a scale produces; child rows follow from these. */
export interface SeedCounts {
  organisations: number;
  profiles: number;
  /** Each story yields one article, two (a follow-up) or a yearly series of two to four. */
  stories: number;
  fundings: number;
  deals: number;
  publicOfferings: number;
  organisationOwnerships: number;
  profileStakes: number;
}

/** Counts at scale 1, the demo dataset. */
const baseCounts: SeedCounts = {
  organisations: 2_000,
  profiles: 6_000,
  stories: 1_380,
  fundings: 1_600,
  deals: 1_000,
  publicOfferings: 400,
  organisationOwnerships: 1_380,
  profileStakes: 2_000,
};

export const minimumScale = 0.01;

export function countsForScale(scale: number): SeedCounts {
  if (!Number.isFinite(scale) || scale < minimumScale) {
    throw new Error(`The seed scale must be a number of at least ${minimumScale}; got ${scale}`);
  }
  const counts = {} as SeedCounts;
  for (const [key, base] of Object.entries(baseCounts) as [keyof SeedCounts, number][]) {
    counts[key] = Math.max(2, Math.round(base * scale));
  }
  return counts;
}

/**
 * A few strings per key, for keys `0 … capacity - 1`, packed as UTF-8 in one growing buffer with a table of where each
 * key's bytes start and end: a key's strings cost their bytes and eight more, against a kilobyte or so as JavaScript
 * objects, so a memo can keep every organisation of a large world.
 */
export class PackedStrings {
  private bytes = Buffer.alloc(1 << 20);
  // Byte 0 is never a key's, so an end of 0 in the table means nothing kept.
  private used = 1;
  private readonly starts: Uint32Array;
  private readonly ends: Uint32Array;

  constructor(readonly capacity: number) {
    this.starts = new Uint32Array(capacity);
    this.ends = new Uint32Array(capacity);
  }

  /** The strings kept for `key`, or undefined when none are (a key out of range included). */
  get(key: number): string[] | undefined {
    if (key >= this.capacity || this.ends[key] === 0) return undefined;
    return this.bytes.toString('utf8', this.starts[key], this.ends[key]).split(separator);
  }

  /** Keeps `values` (none holding a NUL) for `key`; a key out of range is not kept. */
  set(key: number, values: string[]): void {
    if (key >= this.capacity) return;
    const text = values.join(separator);
    const length = Buffer.byteLength(text);
    if (this.used + length > this.bytes.length) {
      const grown = Buffer.alloc(Math.max(this.bytes.length * 2, this.used + length));
      this.bytes.copy(grown, 0, 0, this.used);
      this.bytes = grown;
    }
    this.starts[key] = this.used;
    this.used += this.bytes.write(text, this.used);
    this.ends[key] = this.used;
  }
}

const separator = '\u0000';

/** What every generator shares: the counts, the anchor day and the memos of what lookups compute. */
export interface World {
  scale: number;
  counts: SeedCounts;
  /** Midnight UTC of the anchor day; nothing is dated after it. */
  now: Date;
  /** What generators keep between lookups, by name: see `memoOf`. */
  memos: Map<string, unknown>;
}

export function createWorld(scale: number, now: Date = new Date()): World {
  return {
    scale,
    counts: countsForScale(scale),
    now: startOfUtcDay(now),
    memos: new Map(),
  };
}

/** The memo named `name` in this world, made by `create` on first use. */
export function memoOf<T>(world: World, name: string, create: () => T): T {
  let memo = world.memos.get(name) as T | undefined;
  if (memo === undefined) {
    memo = create();
    world.memos.set(name, memo);
  }
  return memo;
}
