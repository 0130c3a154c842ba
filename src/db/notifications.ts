import postgres from 'postgres';
import type { DatabaseHandle } from './database.ts';

export interface NotificationListenerOptions {
  /** How often the listening connection is asked whether it still answers. */
  heartbeatMs?: number;
  /** How long that answer may take before the connection counts as lost. */
  heartbeatTimeoutMs?: number;
  /** How long to wait before listening again after the connection was lost. */
  retryMs?: number;
}

/** The application name of the listening connection, as pg_stat_activity shows it. */
export const listenerApplicationName = 'orgraph listener';

/**
 * One connection that LISTENs on every channel this process cares about (the tokens' changes, the feed's), shared
 * by their readers. It must reach PostgreSQL without a transaction pooler in between, which would run the LISTEN
 * on a server connection it then lends to others, and deliver nothing: the topology's session URL
 * (DATABASE_DIRECT_URL). Readers hear when it stops listening (closed, or silent past its heartbeat) and when it
 * listens again, since notifications sent in between are lost.
 */
export class NotificationListener {
  private readonly handlers = new Map<string, Set<() => void>>();
  private readonly stateHandlers = new Set<(listening: boolean) => void>();
  private readonly options: Required<NotificationListenerOptions>;
  private client: postgres.Sql | null = null;
  private up = false;
  private closed = false;
  private heartbeat: NodeJS.Timeout | undefined;
  private retry: NodeJS.Timeout | undefined;

  constructor(
    private readonly url: string,
    options: NotificationListenerOptions = {},
  ) {
    this.options = {
      heartbeatMs: options.heartbeatMs ?? 2_000,
      heartbeatTimeoutMs: options.heartbeatTimeoutMs ?? 1_000,
      retryMs: options.retryMs ?? 1_000,
    };
  }

  /** Whether every notification sent now will be heard. */
  get listening(): boolean {
    return this.up;
  }

  /** Calls `handler` on each notification on `channel`; returns a function that stops it. */
  on(channel: string, handler: () => void): () => void {
    let set = this.handlers.get(channel);
    if (!set) {
      set = new Set();
      this.handlers.set(channel, set);
      // A channel added while connected (or connecting) is listened to at once; a failure there counts as a lost
      // connection, and listening again covers every channel.
      const client = this.client;
      if (client) {
        client.unsafe(`listen ${quoteChannel(channel)}`).catch(() => {
          if (this.client === client) this.lost(client);
        });
      }
    }
    set.add(handler);
    return () => set.delete(handler);
  }

  /** Calls `handler(true)` each time listening begins (again), `handler(false)` each time it stops. */
  onState(handler: (listening: boolean) => void): () => void {
    this.stateHandlers.add(handler);
    return () => this.stateHandlers.delete(handler);
  }

  /** Starts listening; resolves once listening or once the first attempt failed (it is retried meanwhile). */
  async start(): Promise<void> {
    await this.listen();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    this.setState(false);
    const client = this.client;
    this.client = null;
    await client?.end({ timeout: 1 });
  }

  private setState(listening: boolean): void {
    if (!listening) clearInterval(this.heartbeat);
    if (this.up === listening) return;
    this.up = listening;
    for (const handler of [...this.stateHandlers]) handler(listening);
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
      connection: { application_name: listenerApplicationName },
      onnotice: () => {},
      onnotify: (channel: string) => {
        for (const handler of [...(this.handlers.get(channel) ?? [])]) handler();
      },
      onclose: () => {
        if (this.client === client) this.lost(client);
      },
    };
    const client = postgres(this.url, options as postgres.Options<Record<string, never>>);
    this.client = client;
    try {
      const channels = [...this.handlers.keys()].map((channel) => `listen ${quoteChannel(channel)}`);
      await client.unsafe(channels.length > 0 ? channels.join('; ') : 'select 1').simple();
      if (this.client !== client || this.closed) return;
      this.heartbeat = setInterval(() => this.beat(client), this.options.heartbeatMs);
      this.heartbeat.unref();
      this.setState(true);
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
    this.setState(false);
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

function quoteChannel(channel: string): string {
  return `"${channel.replaceAll('"', '""')}"`;
}

/**
 * Calls `onNotify` on every notification on `channel`, whichever driver holds the database: on PostgreSQL through a
 * listener of its own on the topology's session URL, on the embedded database within its one process. Resolves
 * with a function that stops listening. (The server shares one {@link NotificationListener} among its readers.)
 */
export async function listenTo(
  handle: DatabaseHandle,
  channel: string,
  onNotify: () => void,
): Promise<() => Promise<void>> {
  if (handle.driver.kind === 'postgres') {
    const listener = new NotificationListener(handle.driver.topology.session.url);
    listener.on(channel, onNotify);
    await listener.start();
    return () => listener.close();
  }
  const stop = await handle.driver.client.listen(channel, () => onNotify());
  return () => stop();
}
