import { availableParallelism } from 'node:os';
import { type ResourceLimits, Worker } from 'node:worker_threads';
import { type ChunkToRead, type ReadChunk, readChunk } from './read-chunk.ts';

export interface ReadRequest extends ChunkToRead {
  id: number;
}

export interface ReadResponse extends ReadChunk {
  id: number;
}

/** Worker threads for the reading when none is asked for: the cores beside the one the import runs on. */
export const defaultReadWorkers = Math.max(1, Math.min(3, availableParallelism() - 1));

/**
 * Each worker's heap, held small: the import's peak RSS stays under 300 MiB with one worker beside the main
 * thread (bench/NOTES.md 41). A request carries at most `requestText` characters of lines (up to 1 MiB each),
 * whose parsed records fit well within it.
 */
const workerLimits = { maxYoungGenerationSizeMb: 8, maxOldGenerationSizeMb: 64 };
const requestText = 1024 * 1024;

/**
 * The worker's entry, in the form the running process loads: this project runs its TypeScript through tsx, whose
 * loader a worker thread does not inherit, so the worker registers it before loading its module.
 */
function workerUrl(): URL {
  const tsx = import.meta.resolve('tsx/esm/api');
  const entry = new URL('./read-worker.ts', import.meta.url).href;
  const code = `import { register } from ${JSON.stringify(tsx)}; register(); await import(${JSON.stringify(entry)});`;
  return new URL(`data:text/javascript,${encodeURIComponent(code)}`);
}

/**
 * Worker threads that parse and validate chunks of lines (JSON, the schemas, the canonical form, the digests), so
 * that the import's own thread only reads the files and talks to the database. Chunks are handed out in turn
 * and their answers come back in the order asked.
 */
export class ReadPool {
  private readonly workers: Worker[];
  private readonly waiting = new Map<
    number,
    { resolve(chunk: ReadChunk): void; reject(error: Error): void }
  >();
  private next = 0;
  private failure: Error | null = null;
  private closed = false;

  constructor(size: number, limits: ResourceLimits = workerLimits) {
    const url = workerUrl();
    this.workers = Array.from({ length: size }, () => {
      const worker = new Worker(url, { resourceLimits: limits });
      worker.on('message', (response: ReadResponse) => {
        this.waiting.get(response.id)?.resolve(response);
        this.waiting.delete(response.id);
      });
      worker.on('error', (error) => this.fail(error));
      worker.on('exit', (code) => {
        if (code !== 0 && !this.closed) this.fail(new Error(`a reading worker exited with ${code}`));
      });
      return worker;
    });
  }

  /**
   * Reads a chunk of lines in pieces of at most `requestText` characters, one request each: their answers, in the
   * order of the lines.
   */
  async read(chunk: ChunkToRead): Promise<ReadChunk[]> {
    const pieces: ChunkToRead['lines'][] = [[]];
    let text = 0;
    for (const line of chunk.lines) {
      if (text + line[1].length > requestText && (pieces.at(-1)?.length ?? 0) > 0) {
        pieces.push([]);
        text = 0;
      }
      pieces.at(-1)?.push(line);
      text += line[1].length;
    }
    return Promise.all(
      // Should a worker fail (a line whose records outgrow its heap), its lines are read here instead, and so is
      // every later request: the import goes on, slower, and loses no line.
      pieces.map((lines) => {
        const piece = { ...chunk, lines };
        return this.request(piece).catch(() => readChunk(piece));
      }),
    );
  }

  private request(chunk: ChunkToRead): Promise<ReadChunk> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.next++;
    const promise = new Promise<ReadChunk>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
    });
    const request: ReadRequest = { id, ...chunk };
    this.workers[id % this.workers.length]?.postMessage(request);
    return promise;
  }

  /** Why the workers stopped reading, once one has failed: the pool then reads on the calling thread. */
  get failed(): Error | null {
    return this.failure;
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.workers.map((worker) => worker.terminate()));
  }

  private fail(error: Error): void {
    this.failure ??= error;
    for (const waiting of this.waiting.values()) waiting.reject(error);
    this.waiting.clear();
  }
}
