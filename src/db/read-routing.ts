import { sql } from 'drizzle-orm';
import type postgres from 'postgres';
import type { Config } from '../config.ts';
import { type Database, type DatabaseHandle, databaseOver, openReadReplica, queryRows } from './database.ts';
import { GuardedStatement, isConnectionFailure } from './pool-guard.ts';

/**
 * Where a request's reads go when a read replica (`DATABASE_READ_URL`) is configured. Two promises:
 *
 * - **The replica is never a single point of failure.** A statement the replica fails for want of a connection
 *   (refused, closed, shut down, silent), or cancels for a conflict with replay, is run again on the primary, and
 *   the replica counts as down: reads go to the primary until a probe, once a second, finds it answering again.
 * - **No read contradicts the feed.** Every request begins with a fence: the primary's WAL insert position is
 *   read after the request arrived, then the replica's replay position; the request reads the replica only once
 *   the replica has replayed up to that position. Whatever the caller was told of before it sent the request (a
 *   feed entry, a webhook, a subscription's push) was committed on the primary before that position was read, so
 *   the replica has it. A replica that has not got there within `maxLagMs` counts as lagging: reads go to the
 *   primary, without waiting, until a fence finds the replica caught up. A server that is not a standby (no replay
 *   position) cannot be fenced, and gets no reads.
 *
 * Fences are shared: requests that arrive while one is running wait for the next, which starts when it ends, so a
 * fence costs two short statements per round of requests, not per request; and one, on the primary, when its
 * position is one the replica was already seen to have replayed (on a primary without writes, every time).
 */
export type ReplicaState = 'serving' | 'lagging' | 'down' | 'not-a-standby';

export type PrimaryReason = 'down' | 'lagging' | 'not-a-standby' | 'failover' | 'unfenced';

export interface ReadRoutingEvents {
  /** The replica changed state; `error` is why it went down, `downMs` how long it was. */
  stateChanged?(change: {
    state: ReplicaState;
    previous: ReplicaState;
    replica: string;
    error?: string;
    downMs?: number;
  }): void;
  /** A request's reads (or one failed statement) went to the primary instead of the replica. */
  readOnPrimary?(reason: PrimaryReason): void;
}

export interface ReadRoutingOptions {
  /** The longest a request waits for the replica to replay what the primary had when it arrived. */
  maxLagMs: number;
  /** How often a replica that is down or not a standby is asked again. */
  probeMs?: number;
  events?: ReadRoutingEvents;
}

export interface ReadRouting {
  /** The database this request's reads go to: the replica (failing over statement by statement) or the primary. */
  choose(): Promise<Database>;
  readonly state: ReplicaState;
  /** `host:port/database` of the replica, for logs and `/readyz`. */
  readonly replica: string;
  close(): Promise<void>;
}

/** A WAL position (`16/B374D848`) as a number that orders like it. */
export function parseLsn(text: string): bigint {
  const [high, low] = text.split('/');
  if (!high || !low) throw new Error(`Not a WAL position: ${text}`);
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`);
}

/**
 * The insert position as the end of the last record. The insert position, not the write or flush one: a commit is
 * inserted before it becomes visible, but with `synchronous_commit = off` it is visible before it is written. At a
 * page's start the insert position lies past the page's header, where no record ends; the last record ended at the
 * page boundary, which is where the replica's replay position stops.
 */
export function recordEndAt(insertPosition: bigint): bigint {
  const intoPage = insertPosition % 8192n;
  // 24: a page's header; 40: the longer header of a segment's first page.
  return intoPage === 24n || intoPage === 40n ? insertPosition - intoPage : insertPosition;
}

/** `host:port/database` of a PostgreSQL URL: enough to name it in a log, without its credentials. */
export function describeDatabase(url: string): string {
  const parsed = new URL(url);
  return `${parsed.hostname}:${parsed.port || '5432'}${parsed.pathname}`;
}

/** A replica's failure that the primary can answer instead: its connection failed, or replay cancelled the read. */
function primaryCanAnswer(error: unknown): { down: boolean; cause: unknown } | null {
  // Drizzle wraps what the driver threw (as `cause`).
  for (let current = error, depth = 0; current && depth < 3; current = (current as Error).cause, depth += 1) {
    if (isConnectionFailure(current)) return { down: true, cause: current };
    const code = (current as { code?: unknown }).code;
    if (code === 'CONNECTION_DESTROYED') return { down: true, cause: current };
    // 40001: "canceling statement due to conflict with recovery"; POOL_WAIT_TIMEOUT: every replica connection busy.
    if (code === '40001' || code === 'POOL_WAIT_TIMEOUT') return { down: false, cause: current };
  }
  return null;
}

/**
 * The routing of reads to `DATABASE_READ_URL`, or null when none is set (every read goes to the primary).
 * `opened` sees the replica's handle first (the metrics instrument it).
 */
export function openReadRouting(
  config: Config,
  primary: DatabaseHandle,
  hooks: { events?: ReadRoutingEvents; opened?: (replica: DatabaseHandle) => void } = {},
): ReadRouting | null {
  const replica = openReadReplica(config);
  if (!replica || !config.databaseReadUrl) return null;
  hooks.opened?.(replica);
  return createReadRouting(primary, replica, config.databaseReadUrl, {
    maxLagMs: config.readMaxLagMs,
    ...(hooks.events ? { events: hooks.events } : {}),
  });
}

export function createReadRouting(
  primary: DatabaseHandle,
  replica: DatabaseHandle,
  replicaUrl: string,
  options: ReadRoutingOptions,
): ReadRouting {
  if (primary.driver.kind !== 'postgres' || replica.driver.kind !== 'postgres') {
    throw new Error('A read replica needs PostgreSQL for both DATABASE_URL and DATABASE_READ_URL.');
  }
  const events = options.events ?? {};
  const name = describeDatabase(replicaUrl);
  const probeMs = options.probeMs ?? 1000;
  let state: ReplicaState = 'serving';
  let downSince = 0;
  // Replay only moves forward: a position seen once is a floor, and a fence below it needs no question to the replica.
  let replayedAtLeast = -1n;
  let closed = false;

  const moveTo = (next: ReplicaState, error?: unknown) => {
    if (next === state || closed) return;
    const previous = state;
    state = next;
    if (next === 'down') {
      downSince = performance.now();
      // What comes back may be another standby at that address: its position is learnt again.
      replayedAtLeast = -1n;
    }
    events.stateChanged?.({
      state: next,
      previous,
      replica: name,
      ...(error === undefined ? {} : { error: error instanceof Error ? error.message : String(error) }),
      ...(previous === 'down' ? { downMs: Math.round(performance.now() - downSince) } : {}),
    });
    if (next === 'down' || next === 'not-a-standby') probeSoon();
  };

  const onReplicaFailure = (error: unknown): boolean => {
    const verdict = primaryCanAnswer(error);
    if (!verdict) return false;
    if (verdict.down) moveTo('down', verdict.cause);
    events.readOnPrimary?.('failover');
    return true;
  };

  const replicaDb = databaseOver(
    failoverClient(replica.driver.client, primary.driver.client, onReplicaFailure),
  );

  const replayPosition = async (): Promise<bigint | null> => {
    const [row] = await queryRows<{ lsn: string | null }>(
      replica.db,
      sql`select pg_last_wal_replay_lsn()::text as lsn`,
    );
    if (!row?.lsn) return null;
    const replayed = parseLsn(row.lsn);
    if (replayed > replayedAtLeast) replayedAtLeast = replayed;
    return replayed;
  };

  // Down or not a standby: asked again once a probe period, never two probes at once.
  let probe: NodeJS.Timeout | undefined;
  const probeSoon = () => {
    if (probe || closed) return;
    probe = setTimeout(async () => {
      try {
        const replayed = await replayPosition();
        probe = undefined;
        moveTo(replayed === null ? 'not-a-standby' : 'serving');
      } catch (error) {
        probe = undefined;
        moveTo('down', primaryCanAnswer(error)?.cause ?? error);
      }
      if (state === 'down' || state === 'not-a-standby') probeSoon();
    }, probeMs);
    probe.unref();
  };

  const fence = async (): Promise<Database> => {
    if (state === 'down' || state === 'not-a-standby') return primaryFor(state);
    let target: bigint;
    try {
      const [row] = await queryRows<{ lsn: string }>(
        primary.db,
        sql`select pg_current_wal_insert_lsn()::text as lsn`,
      );
      target = recordEndAt(parseLsn(row!.lsn));
    } catch {
      // Without the primary's position nothing is proven (an overloaded primary still announces): the primary
      // serves, or fails as it would without a replica.
      return primaryFor('unfenced');
    }
    if (replayedAtLeast >= target) {
      moveTo('serving');
      return replicaDb;
    }
    const started = performance.now();
    for (let wait = 1; ; wait = Math.min(wait * 2, 20)) {
      let replayed: bigint | null;
      try {
        replayed = await replayPosition();
      } catch (error) {
        // Whatever the replica answers instead of its position, it cannot be fenced: the primary serves.
        moveTo('down', primaryCanAnswer(error)?.cause ?? error);
        return primaryFor('down');
      }
      if (replayed === null) {
        moveTo('not-a-standby');
        return primaryFor('not-a-standby');
      }
      if (replayed >= target) {
        moveTo('serving');
        return replicaDb;
      }
      const waited = performance.now() - started;
      if (state === 'lagging' || waited + wait > options.maxLagMs) {
        moveTo('lagging');
        return primaryFor('lagging');
      }
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  };

  const primaryFor = (reason: PrimaryReason): Database => {
    events.readOnPrimary?.(reason);
    return primary.db;
  };

  // One fence running, and at most one queued behind it for every request that arrived meanwhile.
  let running: Promise<Database> | undefined;
  let queued: Promise<Database> | undefined;
  const startFence = (): Promise<Database> => {
    const current: Promise<Database> = fence().finally(() => {
      if (running === current) running = undefined;
    });
    running = current;
    return current;
  };

  return {
    choose() {
      if (state === 'down' || state === 'not-a-standby') return Promise.resolve(primaryFor(state));
      if (!running) return startFence();
      queued ??= running.then(
        () => {
          queued = undefined;
          return startFence();
        },
        () => {
          queued = undefined;
          return startFence();
        },
      );
      return queued;
    },
    get state() {
      return state;
    },
    replica: name,
    async close() {
      closed = true;
      clearTimeout(probe);
      await replica.close();
    },
  };
}

/**
 * The replica's client, with every statement and transaction that fails in a way the primary can answer run again
 * on the primary. Reads only: a transaction here is a read-only one, so running its work again is safe.
 */
function failoverClient(
  replica: postgres.Sql,
  primary: postgres.Sql,
  onFailure: (error: unknown) => boolean,
): postgres.Sql {
  const unsafe = (query: string, parameters?: unknown[], queryOptions?: postgres.UnsafeQueryOptions) =>
    GuardedStatement.create(async (arrays) => {
      const run = (client: postgres.Sql) => {
        const statement = client.unsafe(query, parameters as postgres.ParameterOrJSON<never>[], queryOptions);
        return arrays ? statement.values() : statement;
      };
      try {
        return await run(replica);
      } catch (error) {
        if (!onFailure(error)) throw error;
        return await run(primary);
      }
    });
  const begin = async (...args: unknown[]) => {
    const on = (client: postgres.Sql) =>
      (client.begin as (...beginArgs: unknown[]) => Promise<unknown>)(...args);
    try {
      return await on(replica);
    } catch (error) {
      if (!onFailure(error)) throw error;
      return await on(primary);
    }
  };
  return new Proxy(replica, {
    get(target, property) {
      if (property === 'unsafe') return unsafe;
      if (property === 'begin') return begin;
      const value = Reflect.get(target, property);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
