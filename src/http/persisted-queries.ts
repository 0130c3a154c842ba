import { Redis } from 'ioredis';
import type { Config } from '../config.ts';
import { logger } from './observability/logger.ts';

/**
 * Automatic persisted queries: query texts by the hex SHA-256 of their text. The key is the value's own hash, so
 * every instance (and every deployment sharing a Redis) agrees on each entry.
 */
export interface PersistedQueryStore {
  /** `redis` when the queries are shared by every instance; `memory` when each instance keeps its own. */
  readonly shared: 'redis' | 'memory';
  get(hash: string): Promise<string | undefined>;
  set(hash: string, query: string): Promise<void>;
  close(): Promise<void>;
}

/** Queries kept in each instance's memory, least recently used dropped first. */
export const maxPersistedQueriesInMemory = 1_000;
/** How long Redis keeps a query nobody asked for; each use starts the time again. */
export const persistedQueryTtlSeconds = 7 * 24 * 3_600;
/** A Redis command slower than this counts as Redis being down: the instance answers from its memory. */
const redisCommandTimeoutMs = 500;
const redisKeyPrefix = 'orgraph:persisted-query:';

/** A bounded map that forgets its least recently used entry first. */
class LruMap {
  readonly #entries = new Map<string, string>();
  constructor(readonly max: number) {}
  get(key: string): string | undefined {
    const value = this.#entries.get(key);
    if (value === undefined) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, value);
    return value;
  }
  set(key: string, value: string): void {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    if (this.#entries.size > this.max) this.#entries.delete(this.#entries.keys().next().value!);
  }
  get size(): number {
    return this.#entries.size;
  }
}

/**
 * The persisted-query store: each instance's bounded memory, and with REDIS_URL also Redis, shared by every
 * instance. A Redis that fails or is slow leaves the instance on its memory: a client whose hash is not found
 * sends its query again, so an outage costs bytes, never answers.
 */
export function createPersistedQueryStore(
  config: Pick<Config, 'redisUrl'>,
  options: { maxInMemory?: number } = {},
): PersistedQueryStore {
  const memory = new LruMap(options.maxInMemory ?? maxPersistedQueriesInMemory);
  const redis = config.redisUrl
    ? new Redis(config.redisUrl, {
        commandTimeout: redisCommandTimeoutMs,
        maxRetriesPerRequest: 1,
        connectionName: 'orgraph-persisted-queries',
      })
    : undefined;
  let healthy = true;
  redis?.on('error', (error: Error) => {
    if (!healthy) return;
    healthy = false;
    logger().warn(
      { error: error.message },
      'Redis for persisted queries failed; each instance uses its memory',
    );
  });
  redis?.on('ready', () => {
    healthy = true;
  });
  const quietly = async <T>(command: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await command();
    } catch {
      return undefined;
    }
  };

  return {
    shared: redis ? 'redis' : 'memory',
    async get(hash) {
      const known = memory.get(hash);
      if (known !== undefined || !redis) return known;
      const stored = await quietly(() => redis.getex(redisKeyPrefix + hash, 'EX', persistedQueryTtlSeconds));
      if (stored == null) return undefined;
      memory.set(hash, stored);
      return stored;
    },
    async set(hash, query) {
      memory.set(hash, query);
      if (redis) await quietly(() => redis.set(redisKeyPrefix + hash, query, 'EX', persistedQueryTtlSeconds));
    },
    async close() {
      redis?.disconnect();
    },
  };
}
