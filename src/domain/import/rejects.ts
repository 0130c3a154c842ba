import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import type { Writable } from 'node:stream';
import { lineHeadBytes } from './read-lines.ts';

/** One rejected record as the rejects file holds it. */
export interface Rejection {
  source: string;
  line: number;
  /** The record as read, or `record_head` (its first 1 KB) when it was longer or could not be parsed. */
  record?: unknown;
  record_head?: string;
  reasons: string[];
}

/** The record itself when it is short, else its first 1 KB of text. */
export function rejectionBody(text: string, parsed: unknown): Pick<Rejection, 'record' | 'record_head'> {
  if (parsed !== undefined && Buffer.byteLength(text) <= lineHeadBytes) return { record: parsed };
  const head = Buffer.from(text)
    .subarray(0, lineHeadBytes)
    .toString('utf8')
    .replace(/\uFFFD$/, '');
  return { record_head: head };
}

/** Opens the rejects file: the file itself, or a stream to whoever writes it (an import through the admin socket). */
export type OpenRejects = (path: string) => Writable;

const openFile: OpenRejects = (path) => createWriteStream(path, { flags: 'w' });

/** Writes rejections as NDJSON to `path`, creating the file at the first one. */
export class RejectsFile {
  private stream: Writable | null = null;
  count = 0;

  constructor(
    readonly path: string | null,
    private readonly open: OpenRejects = openFile,
  ) {}

  async write(rejection: Rejection): Promise<void> {
    this.count += 1;
    if (this.path === null) return;
    this.stream ??= this.open(this.path);
    if (!this.stream.write(`${JSON.stringify(rejection)}\n`)) await once(this.stream, 'drain');
  }

  async close(): Promise<void> {
    if (!this.stream) return;
    const stream = this.stream;
    this.stream = null;
    await new Promise<void>((resolve, reject) =>
      stream.end((error?: Error | null) => (error ? reject(error) : resolve())),
    );
  }
}
