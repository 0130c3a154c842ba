import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import { Readable, Writable } from 'node:stream';
import type { DatabaseHandle } from '../db/database.ts';
import type { ImportProgress } from '../domain/import/import-records.ts';
import { isRecordTypeName, type RecordTypeName } from '../domain/import/record-types.ts';
import { type ReceivedMessage, sendMessage } from './admin-messages.ts';
import type { AdminImportRequest, AdminResponse } from './admin-protocol.ts';

/** How long the CLI has to open the connection that sends a file once the import asked for it. */
const sourceArrivalMs = 30_000;
/** Progress reports sent at most this often while nothing but the counts changes. */
const progressEveryMs = 100;

interface ArrivedSource {
  socket: Socket;
  messages: AsyncGenerator<ReceivedMessage>;
}

/** Sends progress to the CLI: every change of phase, type or written count, the rest at most every 100 ms. */
function progressTo<P>(socket: Socket, keyOf: (progress: P) => string): (progress: P) => void {
  let lastKey = '';
  let lastSent = 0;
  return (progress) => {
    const key = keyOf(progress);
    const now = performance.now();
    if (key === lastKey && now - lastSent < progressEveryMs) return;
    lastKey = key;
    lastSent = now;
    sendMessage(socket, { progress }).catch(() => {});
  };
}

/**
 * `orgraph import`, `export` and `seed` run by the server on its embedded store for the CLI (admin-protocol.ts):
 * files and rejects cross the socket as streams, and the work is the same domain call the CLI makes on a store of
 * its own, so the results are the same.
 */
/** The demo seed, handed in by the CLI: only the CLI imports `seeds/` (the floors test). */
export type SeedRunner = (
  handle: DatabaseHandle,
  options: {
    scale: number;
    reset: boolean;
    onProgress: (progress: { table: string; done: number; total: number }) => void;
  },
) => Promise<{ rows: Record<string, number>; seconds: number }>;

export class RecordsCommands {
  private readonly waitingSources = new Map<string, (source: ArrivedSource) => void>();
  private queue: Promise<unknown> = Promise.resolve();
  private running: string | null = null;

  constructor(
    private readonly handle: DatabaseHandle,
    private readonly seedRunner?: SeedRunner,
  ) {}

  /** Resolves when no command runs or waits. */
  async idle(): Promise<void> {
    for (let queue = this.queue; ; queue = this.queue) {
      await queue;
      if (queue === this.queue) return;
    }
  }

  /**
   * One records command (`what`: 'an import') at a time: on the embedded store they share its one connection, where an import's staging
   * tables live. A command waiting its turn says so to its CLI.
   */
  private async inTurn<T>(socket: Socket, what: string, work: () => Promise<T>): Promise<T> {
    if (this.running) await sendMessage(socket, { waiting: this.running });
    const turn = this.queue.then(async () => {
      if (socket.destroyed) throw new Error('The command went away while it waited.');
      this.running = what;
      try {
        return await work();
      } finally {
        this.running = null;
      }
    });
    this.queue = turn.catch(() => {});
    return turn;
  }

  async importRecords(socket: Socket, request: AdminImportRequest): Promise<AdminResponse> {
    const sources = Array.isArray(request.sources) ? request.sources : [];
    if (
      sources.length === 0 ||
      !sources.every((source) => typeof source?.name === 'string' && typeof source.rereadable === 'boolean')
    ) {
      return { ok: false, error: 'An import names at least one file.' };
    }
    return this.inTurn(socket, 'an import', async () => {
      const { importRecords } = await import('../domain/import/import-records.ts');
      const summary = await importRecords(
        this.handle,
        sources.map((source, index) => ({
          name: source.name,
          rereadable: source.rereadable,
          open: () => this.openSource(socket, index, source.name),
        })),
        {
          dryRun: request.dryRun === true,
          allOrNothing: request.allOrNothing === true,
          ...(Number.isInteger(request.batchSize) ? { batchSize: request.batchSize } : {}),
          rejectsPath: typeof request.rejects === 'string' ? request.rejects : null,
          openRejects: () =>
            new Writable({
              write(chunk: Buffer, _encoding, callback) {
                sendMessage(socket, { rejects: true }, chunk).then(() => callback(), callback);
              },
            }),
          ...(request.progress
            ? {
                onProgress: progressTo<ImportProgress>(
                  socket,
                  (progress) => `${progress.phase}:${progress.type ?? ''}:${progress.written}`,
                ),
              }
            : {}),
        },
      );
      return { ok: true, summary };
    });
  }

  /** File `index` of the import, as its CLI sends it on a connection of its own (`attachSource`). */
  private openSource(socket: Socket, index: number, name: string): Readable {
    const key = randomUUID();
    const arrival = new Promise<ArrivedSource>((resolve, reject) => {
      const fail = (reason: string) => {
        this.waitingSources.delete(key);
        socket.off('close', gone);
        reject(new Error(reason));
      };
      const gone = () => fail(`The import of ${name} was given up: its command went away.`);
      const timer = setTimeout(
        () => fail(`orgraph import did not send ${name} within ${sourceArrivalMs / 1000} s.`),
        sourceArrivalMs,
      );
      socket.once('close', gone);
      this.waitingSources.set(key, (source) => {
        clearTimeout(timer);
        socket.off('close', gone);
        this.waitingSources.delete(key);
        resolve(source);
      });
    });
    // Read, or never read when the import fails first: either way not an unhandled rejection.
    arrival.catch(() => {});
    sendMessage(socket, { open: { source: index, key } }).catch(() => {});
    async function* bytes(): AsyncGenerator<Buffer> {
      const source = await arrival;
      try {
        for await (const { message, payload } of source.messages) {
          if (message.end === true) return;
          if (typeof message.error === 'string') throw new Error(message.error);
          if (payload) yield payload;
        }
        throw new Error(`${name} was cut short: the orgraph import sending it went away.`);
      } finally {
        source.socket.destroy();
      }
    }
    return Readable.from(bytes(), { objectMode: false });
  }

  /** A connection that sends a file an import asked for (`openSource`). */
  attachSource(key: unknown, socket: Socket, messages: AsyncGenerator<ReceivedMessage>): void {
    const waiting = typeof key === 'string' ? this.waitingSources.get(key) : undefined;
    if (!waiting) {
      socket.end(`${JSON.stringify({ ok: false, error: 'No import waits for this file.' })}\n`);
      return;
    }
    waiting({ socket, messages });
  }

  async exportRecords(socket: Socket, request: { types: unknown }): Promise<AdminResponse> {
    const types = Array.isArray(request.types) ? request.types : [];
    if (types.length === 0 || !types.every(isRecordTypeName)) {
      return { ok: false, error: 'An export names the record types it writes.' };
    }
    return this.inTurn(socket, 'an export', async () => {
      const { exportRecords } = await import('../domain/import/export-records.ts');
      const exported = await exportRecords(this.handle, types as RecordTypeName[], (type, lines) =>
        sendMessage(socket, { export: type }, Buffer.from(`${lines.join('\n')}\n`)),
      );
      return { ok: true, exported };
    });
  }

  async seed(socket: Socket, request: { scale: unknown; reset: unknown }): Promise<AdminResponse> {
    const { scale } = request;
    if (typeof scale !== 'number' || !(scale >= 0.01 && scale <= 1000)) {
      return { ok: false, error: 'scale must be a number from 0.01 to 1000' };
    }
    const seedDatabase = this.seedRunner;
    if (!seedDatabase)
      return { ok: false, error: 'This server was not started by orgraph serve, so it cannot seed.' };
    return this.inTurn(socket, 'a seed', async () => {
      const report = await seedDatabase(this.handle, {
        scale,
        reset: request.reset === true,
        onProgress: progressTo<{ table: string; done: number; total: number }>(socket, (progress) => {
          const tenth = progress.total > 0 ? Math.floor((progress.done * 10) / progress.total) : 10;
          return `${progress.table}:${progress.done === 0 ? 'start' : tenth}`;
        }),
      });
      return { ok: true, report };
    });
  }
}
