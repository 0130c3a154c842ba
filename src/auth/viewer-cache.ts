import { NotificationListener, type NotificationListenerOptions } from '../db/notifications.ts';
import type { Viewer } from './tokens.ts';

/** The channel a trigger on `api_tokens` notifies on every update, delete or truncate (migration 0006). */
export const tokenChangesChannel = 'orgraph_api_tokens';

export interface ViewerCacheOptions extends NotificationListenerOptions {
  /** How long an entry may be used at most, whatever the connection says. */
  entryTtlMs?: number;
  /** Tokens kept; past it the oldest is forgotten. */
  maxEntries?: number;
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
  private readonly entryTtlMs: number;
  private readonly maxEntries: number;
  private readonly listener: NotificationListener;
  /** A listener the cache opened itself (given a URL), and so closes. */
  private readonly owned: boolean;
  private readonly unsubscribe: (() => void)[];
  /** Bumped whenever the cache empties, so that a lookup begun before a change does not store its answer after it. */
  private generation = 0;

  /**
   * `source`: the process's shared listener (db/notifications.ts), or a URL that reaches PostgreSQL without a
   * transaction pooler, for a listener of the cache's own.
   */
  constructor(source: NotificationListener | string, options: ViewerCacheOptions = {}) {
    this.entryTtlMs = options.entryTtlMs ?? 60_000;
    this.maxEntries = options.maxEntries ?? 10_000;
    this.owned = typeof source === 'string';
    this.listener = typeof source === 'string' ? new NotificationListener(source, options) : source;
    this.unsubscribe = [
      this.listener.on(tokenChangesChannel, () => this.clear()),
      // Listening again or no longer: a change may have gone unnoticed in between.
      this.listener.onState(() => this.clear()),
    ];
  }

  /** Starts its own listener; a shared one is started by its owner. */
  async start(): Promise<void> {
    if (this.owned) await this.listener.start();
  }

  /** Whether hits are served now. */
  get active(): boolean {
    return this.listener.listening;
  }

  /** A token's viewer when it is cached and the cache may be trusted; undefined otherwise. */
  get(token: string): Viewer | undefined {
    if (!this.active) return undefined;
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
    if (!this.active || version !== this.generation) return;
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(token, { viewer, expires: Date.now() + this.entryTtlMs });
  }

  async close(): Promise<void> {
    for (const stop of this.unsubscribe) stop();
    this.clear();
    if (this.owned) await this.listener.close();
  }

  private clear(): void {
    this.generation += 1;
    this.entries.clear();
  }
}
