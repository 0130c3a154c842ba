import type { Readable } from 'node:stream';
import { type Line, readLines } from './read-lines.ts';

/**
 * Lines of an import's files read a second time, each file from its start at most once: asked for in the order of
 * their numbers within each file, they are found by reading on.
 */
export class LinesAgain {
  private readonly readers = new Map<number, AsyncIterator<Line>>();

  /** `open` reads the import's files by their number. */
  constructor(private readonly open: readonly (() => Readable)[]) {}

  /** The text of line `number` of file `source`; null when the file no longer holds it as text. */
  async text(source: number, number: number): Promise<string | null> {
    let reader = this.readers.get(source);
    if (!reader) {
      const open = this.open[source];
      if (!open) return null;
      reader = readLines(open(), { decode: true })[Symbol.asyncIterator]();
      this.readers.set(source, reader);
    }
    for (;;) {
      const next = await reader.next();
      if (next.done || next.value.number > number) return null;
      if (next.value.number === number) return 'text' in next.value ? next.value.text : null;
    }
  }

  async close(): Promise<void> {
    for (const reader of this.readers.values()) await reader.return?.();
    this.readers.clear();
  }
}
