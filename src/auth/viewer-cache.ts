import postgres from 'postgres';
import type { Viewer } from './tokens.ts';

/** The channel a trigger on `api_tokens` notifies on every update, delete or truncate (migration 0006). */
export const tokenChangesChannel = 'orgraph_api_tokens';

export interface ViewerCacheOptions {
  /** How often the listening connection is asked whether it still answers. */
  heartbeatMs?: number;
  /** How long that answer may take before the connection counts as lost. */
  heartbeatTimeoutMs?: number;
  /** How long an entry may be used at most, whatever the connection says. */
  entryTtlMs?: number;
  /** Tokens kept; past it the oldest is forgotten. */
  maxEntries?: number;
  /** How long to wait before listening again after the connection was lost. */
  retryMs?: number;
}

/**
 * The viewers of tokens seen lately, in this process, for as long as PostgreSQL can tell it of every change to
 * `api_tokens`: a trigger notifies {@link tokenChangesChannel} on each change and the cache empties at once, so a
 * token revoked on any instance (or by hand in SQL) is refused by every instance within the notification's
 * delivery. While the listening connection is down, or not yet listening, or has not answered its last heartbeat
 * in time, nothing is served from the cache: every request looks its token up, as without a cache.
 *
 * A hit saves the request one statement: about a third of a single record's database CPU (bench/NOTES.md).
 */
export class ViewerCache {
  private readonly entries = new Map<string, { viewer: Viewer; expires: number }>();
  private readonly options: Required<ViewerCacheOptions>;
  private client: postgres.Sql | null = null;
  private listening = false;
  private closed = false;
  private heartbeat: NodeJS.Timeout | undefined;
  private retry: NodeJS.Timeout | undefined;
  /** Bumped whenever the cache empties, so that a lookup begun before a change does not store its answer after it. */
  private generation = 0;

  constructor(
    private readonly databaseUrl: string,
    options: ViewerCacheOptions = {},
  ) {
    this.options = {
      heartbeatMs: options.heartbeatMs ?? 2_000,
      heartbeatTimeoutMs: options.heartbeatTimeoutMs ?? 1_000,
      entryTtlMs: options.entryTtlMs ?? 60_000,
      maxEntries: options.maxEntries ?? 10_000,
      retryMs: options.retryMs ?? 1_000,
    };
  }

  /** Starts listening; resolves once listening or once the first attempt failed (it is retried meanwhile). */
  async start(): Promise<void> {
    await this.listen();
  }

  /** Whether hits are served now. */
  get active(): boolean {
    return this.listening;
  }

  /** A token's viewer when it is cached and the cache may be trusted; undefined otherwise. */
  get(token: string): Viewer | undefined {
    if (!this.listening) return undefined;
    const entry = this.entries.get(token);
    if (!entry) return undefined;
    if (entry.expires <= Date.now()) {
      this.entries.delete(token);
      return undefined;
    }
    return entry.viewer;
  }

  /** The generation to pass to {@link set}: read it before looking a token up. */
  get version(): number {
    return this.generation;
  }

  /** Remembers a viewer found by a lookup that began at `version`, unless the cache emptied since. */
  set(token: string, viewer: Viewer, version: number): void {
    if (!this.listening || version !== this.generation) return;
    if (this.entries.size >= this.options.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(token, { viewer, expires: Date.now() + this.options.entryTtlMs });
  }

  async close(): Promise<void> {
    this.closed = true;
    this.stopUsing();
    clearTimeout(this.retry);
    const client = this.client;
    this.client = null;
    await client?.end({ timeout: 1 });
  }

  private clear(): void {
    this.generation += 1;
    this.entries.clear();
  }

  /** Stops serving hits and forgets every entry: a change may have gone unnoticed. */
  private stopUsing(): void {
    this.listening = false;
    clearInterval(this.heartbeat);
    this.clear();
  }

  private async listen(): Promise<void> {
    if (this.closed) return;
    // `onnotify` is the option postgres.js's own `listen` uses; it is not in the driver's types. Listening on a
    // connection of our own, rather than through `listen`, is what lets `onclose` and the heartbeat see it fail.
    const options = {
      max: 1,
      idle_timeout: 0,
      max_lifetime: null,
      fetch_types: false,
      connect_timeout: 2,
      connection: { application_name: 'orgraph token listener' },
      onnotice: () => {},
      onnotify: (channel: string) => {
        if (channel === tokenChangesChannel) this.clear();
      },
      onclose: () => {
        if (this.client === client) this.lost(client);
      },
    };
    const client = postgres(this.databaseUrl, options as postgres.Options<Record<string, never>>);
    this.client = client;
    try {
      await client.unsafe(`listen ${tokenChangesChannel}`);
      if (this.client !== client || this.closed) return;
      this.clear();
      this.listening = true;
      this.heartbeat = setInterval(() => this.beat(client), this.options.heartbeatMs);
      this.heartbeat.unref();
    } catch {
      if (this.client === client) this.lost(client);
    }
  }

  /** A silent network leaves the connection open and the notifications undelivered: a heartbeat notices it. */
  private beat(client: postgres.Sql): void {
    let answered = false;
    const timer = setTimeout(() => {
      if (!answered && this.client === client) this.lost(client);
    }, this.options.heartbeatTimeoutMs);
    client`select 1`
      .then(() => {
        answered = true;
      })
      .catch(() => {
        if (this.client === client) this.lost(client);
      })
      .finally(() => clearTimeout(timer));
  }

  private lost(client: postgres.Sql): void {
    this.stopUsing();
    this.client = null;
    client.end({ timeout: 0 }).catch(() => {});
    if (this.closed) return;
    clearTimeout(this.retry);
    this.retry = setTimeout(() => {
      this.listen().catch(() => {});
    }, this.options.retryMs);
    this.retry.unref();
  }
}
