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
 * A memo that forgets everything when full, so memory stays bounded whatever the scale. The default holds
 * every organisation up to scale 125 (a few hundred bytes each).
 */
export class BoundedCache<V> {
  private readonly entries = new Map<number, V>();

  constructor(private readonly limit = 250_000) {}

  get(key: number, compute: (key: number) => V): V {
    let value = this.entries.get(key);
    if (value === undefined) {
      if (this.entries.size >= this.limit) this.entries.clear();
      value = compute(key);
      this.entries.set(key, value);
    }
    return value;
  }
}

/** What every generator shares: the counts, the anchor day and the lookup memos. */
export interface World {
  scale: number;
  counts: SeedCounts;
  /** Midnight UTC of the anchor day; nothing is dated after it. */
  now: Date;
  caches: Map<string, BoundedCache<unknown>>;
}

export function createWorld(scale: number, now: Date = new Date()): World {
  return { scale, counts: countsForScale(scale), now: startOfUtcDay(now), caches: new Map() };
}

/** The memo named `name` in this world. */
export function cacheOf<V>(world: World, name: string): BoundedCache<V> {
  let cache = world.caches.get(name);
  if (!cache) {
    cache = new BoundedCache<unknown>();
    world.caches.set(name, cache);
  }
  return cache as BoundedCache<V>;
}
