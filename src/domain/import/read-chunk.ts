import { readRecord, type UnreadRecord } from './read-record.ts';
import type { RecordType } from './records.ts';

/**
 * Which write transaction a staged line goes in: its file's first batch, then one per `size` lines of the file.
 * Batches follow lines rather than records, so that whoever reads a line can number it: a batch holds at most
 * `size` records of each type, exactly `size` in a file of one type without blank or rejected lines.
 */
export interface LineBatches {
  first: number;
  size: number;
}

export function batchOfLine(batches: LineBatches, line: number): number {
  return batches.first + Math.floor((line - 1) / batches.size);
}

/** Lines of one of the import's files to read, each with its number and its digest (null when not computed yet). */
export interface ChunkToRead {
  /** The file's number in the import, and the type its name gives. */
  source: number;
  defaultType: RecordType | null;
  batches: LineBatches;
  lines: [number: number, text: string, lineDigest: string | null][];
  /** Stage each record as the rows it is stored as, by table, rather than as its document (see readRecord). */
  rows: boolean;
}

/** What the import counts of a line read: a record staged, or the rejection of a line that is none. */
export type LineOutcome = { ok: true; type: RecordType; deleted: boolean } | UnreadRecord;

/**
 * A chunk of lines read: an outcome per line, in their order, and the COPY text of the staged records' rows in
 * import_staged, import_keys and import_links (see staged-rows.ts), as UTF-8 bytes that a worker thread hands
 * over without copying and staging sends as they are.
 */
export interface ReadChunk {
  outcomes: LineOutcome[];
  staged: Uint8Array<ArrayBuffer>;
  keys: Uint8Array<ArrayBuffer>;
  links: Uint8Array<ArrayBuffer>;
  /** With `rows`, the records' rows of each table they are stored in (see appendRecordRows). */
  rows: Record<string, Uint8Array<ArrayBuffer>>;
}

/** UTF-8 text appended into one buffer of its own (not Node's shared pool, so that it can be transferred). */
class Utf8Text {
  private buffer: Buffer<ArrayBuffer>;
  private length = 0;

  constructor(capacity: number) {
    this.buffer = Buffer.allocUnsafeSlow(capacity);
  }

  append(text: string): void {
    // A UTF-16 code unit takes at most 3 bytes in UTF-8.
    const needed = this.length + text.length * 3;
    if (needed > this.buffer.length) {
      const grown = Buffer.allocUnsafeSlow(Math.max(needed, this.buffer.length * 2));
      this.buffer.copy(grown, 0, 0, this.length);
      this.buffer = grown;
    }
    this.length += this.buffer.write(text, this.length);
  }

  bytes(): Uint8Array<ArrayBuffer> {
    return this.buffer.subarray(0, this.length);
  }
}

/**
 * Reads a chunk of lines: parses and validates each (readRecord) and appends the rows it stages to the chunk's
 * COPY text as it goes, so that a record's strings die young. Plain data in and out, for a worker thread as well.
 */
export function readChunk(chunk: ChunkToRead): ReadChunk {
  let text = 0;
  for (const line of chunk.lines) text += line[1].length;
  const staged = new Utf8Text(chunk.rows ? 4096 : Math.max(4096, Math.ceil(text * 1.25)));
  const keys = new Utf8Text(4096);
  const links = new Utf8Text(4096);
  const rows = new Map<string, Utf8Text>();
  const stageRow = chunk.rows
    ? (table: string, row: string) => {
        let text = rows.get(table);
        if (!text) {
          text = new Utf8Text(4096);
          rows.set(table, text);
        }
        text.append(row);
      }
    : null;
  const outcomes: LineOutcome[] = [];
  for (const [number, line, digest] of chunk.lines) {
    const record = readRecord(chunk.source, number, line, chunk.defaultType, digest, stageRow);
    if (!record.ok) {
      outcomes.push(record);
      continue;
    }
    outcomes.push({ ok: true, type: record.type, deleted: record.deleted });
    staged.append(`${batchOfLine(chunk.batches, number)}\t${record.head}`);
    staged.append(record.document);
    staged.append('\n');
    keys.append(record.keys);
    links.append(record.links);
  }
  return {
    outcomes,
    staged: staged.bytes(),
    keys: keys.bytes(),
    links: links.bytes(),
    rows: Object.fromEntries([...rows].map(([table, text]) => [table, text.bytes()])),
  };
}
