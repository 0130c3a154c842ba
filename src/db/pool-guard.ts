import { connect, type NetConnectOpts } from 'node:net';
import postgres from 'postgres';
import { StatementPreparer } from './prepared-statements.ts';

/**
 * Why the pool is guarded. The `postgres` driver has no bound on how long a query waits for a connection (it
 * queues without limit, and when every connection is busy it pipelines a query behind whatever runs on one of
 * them); nothing notices a server gone silent (a network partition leaves a query waiting for an answer forever);
 * and its connections can be left unusable by a failure: a query sent in the moment between a socket's error and
 * its close is queued on the dead connection and never answered, bytes buffered in that moment are sent ahead of
 * the next startup message (which PostgreSQL refuses as a protocol violation), and the connection, reused, can
 * hand each answer to the query before it. This module adds what the service relies on to fail fast and to
 * recover alone:
 * - a gate in front of the pool: at most `poolMax` statements or transactions hold a connection, the others wait
 *   at most `waitMs` and then fail as unavailable (503);
 * - a fresh pool after a connection failure: the driver instance whose connection failed is retired (its
 *   statements still running get a grace period, then it is destroyed and whatever it stranded fails) and the next
 *   statements go to a new instance, so no connection that went through a failure is ever reused;
 * - a check on silent statements: one that has waited `silentMs` makes the guard ask the server for the first
 *   byte of a handshake on a throwaway connection; no answer within `probeMs` means the server is unreachable, and
 *   the pool is replaced at once (its statements fail as unavailable). An answer means the statement is just long
 *   (the statement timeout bounds it), and nothing is cut;
 * - a reconnection back-off that never exceeds a second.
 */

export interface PoolGuardOptions {
  /** Connections in the pool, and statements admitted at once. */
  poolMax: number;
  /** The longest a statement waits to be admitted. */
  waitMs: number;
  /** How long a statement may go unanswered before the server is asked whether it is still there. */
  silentMs: number;
  /** How long that question may take before the server counts as unreachable. */
  probeMs: number;
  /** How long a retired pool's statements may still run before it is destroyed. */
  retireGraceMs: number;
  /**
   * Settings each statement runs with, set in its transaction (`set_config(name, value, true)`): through a
   * pooler the startup message cannot carry them and a session's settings would reach another client. A
   * statement outside a transaction then runs in one of its own; unset, statements run as they are.
   */
  transactionSettings?: Record<string, string> | undefined;
  /** Protocol-level prepared statements; false through a transaction pooler, which cannot keep them. */
  prepare?: boolean;
}

/** One statement that sets `settings` for the rest of its transaction. */
export function settingsStatement(settings: Record<string, string>): string {
  const quote = (text: string) => `'${text.replaceAll("'", "''")}'`;
  const calls = Object.entries(settings).map(
    ([name, value]) => `set_config(${quote(name)}, ${quote(value)}, true)`,
  );
  return `select ${calls.join(', ')}`;
}

/** A statement waited longer than the pool's wait limit for a connection. */
export class PoolWaitTimeoutError extends Error {
  readonly code = 'POOL_WAIT_TIMEOUT';

  constructor(waitMs: number, size: number) {
    super(`No database connection came free within ${waitMs} ms (all ${size} busy).`);
    this.name = 'PoolWaitTimeoutError';
  }
}

/**
 * At most `size` holders at a time; the others wait in line, each at most `waitMs`, then fail with
 * {@link PoolWaitTimeoutError}. With `size` equal to the pool's size every admitted statement has a connection of
 * its own, so its time is its own, never a slow neighbour's.
 */
export class ConnectionGate {
  private inUse = 0;
  private readonly waiting: { admit: (release: () => void) => void; timer: NodeJS.Timeout }[] = [];

  constructor(
    readonly size: number,
    readonly waitMs: number,
  ) {}

  /** Statements waiting to be admitted right now. */
  get queued(): number {
    return this.waiting.length;
  }

  /** Resolves with a release function once admitted; rejects after `waitMs`. */
  acquire(): Promise<() => void> {
    if (this.inUse < this.size) {
      this.inUse += 1;
      return Promise.resolve(this.releaser());
    }
    return new Promise((resolve, reject) => {
      const waiter = {
        admit: resolve,
        timer: setTimeout(() => {
          this.waiting.splice(this.waiting.indexOf(waiter), 1);
          reject(new PoolWaitTimeoutError(this.waitMs, this.size));
        }, this.waitMs),
      };
      this.waiting.push(waiter);
    });
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (!next) {
        this.inUse -= 1;
        return;
      }
      clearTimeout(next.timer);
      next.admit(this.releaser());
    };
  }
}

/** Errors that mean a connection (not a statement) failed: the pool that saw one is replaced. */
const connectionFailureCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'CONNECT_TIMEOUT',
  'CONNECTION_CLOSED',
  '57P01', // admin shutdown
  '57P02', // crash shutdown
  '57P03', // cannot connect now
  '08000',
  '08001',
  '08003',
  '08006',
  '08P01',
]);

export function isConnectionFailure(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && connectionFailureCodes.has(code);
}

/**
 * A statement Drizzle awaits. Like the driver's own queries it is lazy (it starts on its first `then`, so that
 * `.values()` can still switch it to array rows) and it is a real Promise (the metrics observe it with
 * `Promise.prototype.then`, which does not start it). It is created on the pool current when it is admitted, not
 * when Drizzle builds it, so a statement that waited through a pool replacement runs on the new pool.
 */
export class GuardedStatement extends Promise<unknown> {
  static override get [Symbol.species]() {
    return Promise;
  }

  private start: ((arrays: boolean) => void) | undefined;
  private arrays = false;

  static create(run: (arrays: boolean) => Promise<unknown>): GuardedStatement {
    let settle!: { resolve: (value: unknown) => void; reject: (error: unknown) => void };
    const statement = new GuardedStatement((resolve, reject) => {
      settle = { resolve, reject };
    });
    statement.start = (arrays) => {
      run(arrays).then(settle.resolve, settle.reject);
    };
    return statement;
  }

  values(): this {
    this.arrays = true;
    return this;
  }

  // biome-ignore lint/suspicious/noThenProperty: a lazy statement starts on its first `then`, as the driver's do.
  override then<A = unknown, B = never>(
    onFulfilled?: ((value: unknown) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    const start = this.start;
    if (start) {
      this.start = undefined;
      start(this.arrays);
    }
    return super.then(onFulfilled, onRejected);
  }
}

interface Generation {
  sql: postgres.Sql;
  /** Admitted statements on this pool, each with the time it began. */
  running: Set<{ began: number }>;
}

export interface GuardedPool {
  /** What Drizzle (and `DatabaseHandle.driver.client`) is given: it always reaches the current pool. */
  client: postgres.Sql;
  gate: ConnectionGate;
  /** How many times a failure has replaced the pool. */
  readonly replacements: number;
}

/** The driver's pool for `url` (with the driver's `options`), guarded as described at the top of this module. */
export function createGuardedPool(
  url: string,
  options: postgres.Options<Record<string, never>>,
  guard: PoolGuardOptions,
): GuardedPool {
  const create = (): Generation => {
    const sql = postgres(url, {
      ...options,
      prepare: guard.prepare !== false,
      max: guard.poolMax,
      backoff: reconnectBackoff,
    });
    // Drizzle tunes the first pool's parsers and serializers (dates as strings); every later pool gets the same.
    if (current) {
      Object.assign(sql.options.parsers, current.sql.options.parsers);
      Object.assign(sql.options.serializers, current.sql.options.serializers);
    }
    return { sql, running: new Set() };
  };
  let current: Generation | undefined;
  current = create();
  const retiring = new Set<Generation>();
  const gate = new ConnectionGate(guard.poolMax, guard.waitMs);
  let replacements = 0;
  let ended = false;

  const replace = (failed: Generation, graceMs: number) => {
    if (failed !== current || ended) return;
    replacements += 1;
    current = create();
    retiring.add(failed);
    failed.sql.end({ timeout: graceMs / 1000 }).finally(() => retiring.delete(failed));
  };

  /** Runs `work` on the current pool once admitted, watching it for failures and silence. */
  const admitted = async <T>(work: (sql: postgres.Sql) => Promise<T>): Promise<T> => {
    const release = await gate.acquire();
    const generation = current!;
    const entry = { began: performance.now() };
    generation.running.add(entry);
    try {
      return await work(generation.sql);
    } catch (error) {
      if (isConnectionFailure(error)) replace(generation, guard.retireGraceMs);
      throw error;
    } finally {
      generation.running.delete(entry);
      release();
    }
  };

  let probing = false;
  const watch = setInterval(
    () => {
      const generation = current!;
      if (probing || generation.running.size === 0) return;
      const oldest = [...generation.running].reduce((a, b) => (b.began < a.began ? b : a));
      if (performance.now() - oldest.began < guard.silentMs) return;
      probing = true;
      const target = probeTarget(generation.sql);
      probeServer(target, guard.probeMs).then((answered) => {
        probing = false;
        if (answered || !generation.running.has(oldest)) return;
        // Destroying the pool rejects its statements (CONNECTION_DESTROYED); they fail as unavailable.
        replace(generation, 0);
      });
    },
    Math.max(50, Math.min(guard.silentMs / 4, 500)),
  );
  watch.unref();

  const preparer = new StatementPreparer();
  const settings = guard.transactionSettings ? settingsStatement(guard.transactionSettings) : undefined;
  const unsafe = (query: string, parameters?: unknown[], queryOptions?: postgres.UnsafeQueryOptions) =>
    GuardedStatement.create((arrays) =>
      admitted((sql) => {
        const run = (target: postgres.Sql | postgres.TransactionSql) => {
          const statement = target.unsafe(query, parameters as postgres.ParameterOrJSON<never>[], {
            ...queryOptions,
            prepare: guard.prepare !== false && preparer.shouldPrepare(query),
          });
          return arrays ? statement.values() : statement;
        };
        if (!settings) return run(sql);
        // The settings and the statement go out together, behind the BEGIN, in one transaction.
        return sql.begin(async (tx) => (await Promise.all([tx.unsafe(settings), run(tx)]))[1]);
      }),
    );
  const begin = (...args: unknown[]) =>
    admitted((sql) => {
      const open = sql.begin as (...beginArgs: unknown[]) => Promise<unknown>;
      if (!settings) return open(...args);
      const work = args.at(-1) as (tx: postgres.TransactionSql) => Promise<unknown>;
      return open(
        ...args.slice(0, -1),
        async (tx: postgres.TransactionSql) => (await Promise.all([tx.unsafe(settings), work(tx)]))[1],
      );
    });
  const end = async (endOptions?: { timeout?: number }) => {
    ended = true;
    clearInterval(watch);
    await Promise.all(
      [current!.sql, ...[...retiring].map((generation) => generation.sql)].map((sql) => sql.end(endOptions)),
    );
  };

  // Properties set on the client (the metrics wrap `unsafe` and `begin` in place) are kept on the proxy itself.
  const overrides: Record<string | symbol, unknown> = {};
  const client = new Proxy(current.sql, {
    get(_target, property) {
      if (property in overrides) return overrides[property];
      if (property === 'unsafe') return unsafe;
      if (property === 'begin') return begin;
      if (property === 'end') return end;
      const value = Reflect.get(current!.sql, property);
      return typeof value === 'function' ? value.bind(current!.sql) : value;
    },
    set(_target, property, value) {
      overrides[property] = value;
      return true;
    },
  });

  return {
    client,
    gate,
    get replacements() {
      return replacements;
    },
  };
}

type ProbeTarget = { path: string } | { host: string; port: number };

function probeTarget(sql: postgres.Sql): ProbeTarget {
  const parsed = sql.options as unknown as { host: string[]; port: number[]; path?: string | false };
  return parsed.path
    ? { path: parsed.path }
    : { host: parsed.host[0] ?? 'localhost', port: parsed.port[0] ?? 5432 };
}

/**
 * True when the server at `target` answers an SSLRequest (which the postmaster answers at once, before any
 * authentication) within `timeoutMs`.
 */
function probeServer(target: ProbeTarget, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = connect(target as NetConnectOpts);
    const done = (answered: boolean) => {
      clearTimeout(timer);
      probe.destroy();
      resolve(answered);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    probe.once('error', () => done(false));
    probe.once('data', () => done(true));
    // SSLRequest: length 8, code 80877103.
    probe.write(Buffer.from([0, 0, 0, 8, 4, 210, 22, 47]));
  });
}

/**
 * Seconds before the driver retries a connection after `retries` failures in a row: quick at first and never more
 * than a second. (The driver's default grows to 20 s, which after an outage of half a minute leaves every query
 * waiting that long to reconnect.)
 */
export function reconnectBackoff(retries: number): number {
  return Math.min(0.05 * 2 ** retries, 1);
}
