import { type AddressInfo, connect, createServer, type Server, type Socket } from 'node:net';

/** What the proxy does to the traffic between the service and PostgreSQL. */
export type ProxyMode =
  /** Forwards everything. */
  | 'pass'
  /** PostgreSQL is down: open connections are reset, new ones refused (nothing listens on the port). */
  | 'refuse'
  /** The network is partitioned: connections open, but no byte gets through either way, until restored. */
  | 'blackhole';

interface Pair {
  client: Socket;
  server: Socket;
  /** Bytes held back while partitioned, delivered in order once restored (as TCP retransmission would). */
  held: { to: Socket; chunk: Buffer }[];
}

/**
 * A TCP proxy on 127.0.0.1 between the service and a real PostgreSQL, whose faults a test switches on and off:
 * the machine's PostgreSQL is never touched, only the path to it.
 */
export class TcpProxy {
  private server: Server | undefined;
  private readonly pairs = new Set<Pair>();
  private mode: ProxyMode = 'pass';
  /** Extra delay on every chunk in both directions: a slow database (or network). */
  latencyMs = 0;
  port = 0;

  private constructor(private readonly target: { host: string; port: number }) {}

  static async start(target: { host: string; port: number }): Promise<TcpProxy> {
    const proxy = new TcpProxy(target);
    await proxy.listen(0);
    return proxy;
  }

  get url(): string {
    return `127.0.0.1:${this.port}`;
  }

  /** Connections currently open through the proxy. */
  get connections(): number {
    return this.pairs.size;
  }

  private listen(port: number): Promise<void> {
    const server = createServer((client) => this.accept(client));
    this.server = server;
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        this.port = (server.address() as AddressInfo).port;
        resolve();
      });
    });
  }

  private accept(client: Socket): void {
    const server = connect(this.target);
    const pair: Pair = { client, server, held: [] };
    this.pairs.add(pair);
    const forward = (from: Socket, to: Socket) =>
      from.on('data', (chunk) => {
        if (this.mode === 'blackhole') {
          pair.held.push({ to, chunk });
          return;
        }
        if (this.latencyMs > 0) setTimeout(() => to.writable && to.write(chunk), this.latencyMs);
        else to.write(chunk);
      });
    forward(client, server);
    forward(server, client);
    const close = () => {
      this.pairs.delete(pair);
      client.destroy();
      server.destroy();
    };
    client.on('error', close).on('close', close);
    server.on('error', close).on('close', close);
  }

  /** PostgreSQL goes away: every connection is reset and the port stops listening. */
  async refuse(): Promise<void> {
    this.mode = 'refuse';
    // `close` waits for open connections to end, so they are reset first.
    const closed = new Promise<void>((resolve) => this.server?.close(() => resolve()));
    for (const pair of this.pairs) {
      pair.client.resetAndDestroy();
      pair.server.destroy();
    }
    this.pairs.clear();
    await closed;
  }

  /** The network partitions: nothing passes either way, on open connections or new ones. */
  blackhole(): void {
    this.mode = 'blackhole';
  }

  /** Back to normal: listening again if it had stopped, held bytes delivered. */
  async restore(): Promise<void> {
    const wasRefusing = this.mode === 'refuse';
    this.mode = 'pass';
    this.latencyMs = 0;
    if (wasRefusing) await this.listen(this.port);
    for (const pair of this.pairs) {
      for (const { to, chunk } of pair.held.splice(0)) if (to.writable) to.write(chunk);
    }
  }

  async close(): Promise<void> {
    for (const pair of this.pairs) {
      pair.client.destroy();
      pair.server.destroy();
    }
    this.pairs.clear();
    await new Promise<void>((resolve) =>
      this.server?.listening ? this.server.close(() => resolve()) : resolve(),
    );
  }
}
