import { hash } from 'node:crypto';
import { appendRecordRows } from '../../db/bulk/record-rows.ts';
import { copyJson, keyRows, linkRows, stagedRowHead, stagingId } from '../../db/bulk/staged-rows.ts';
import { linksOf } from './links.ts';
import { parseLine } from './parse-line.ts';
import { type RecordType, recordTypes } from './records.ts';
import { type Rejection, rejectionBody } from './rejects.ts';

const asUuid = (hex: string) =>
  `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;

/** md5 of a canonical document's JSON text, as a UUID (the form record_digests keeps). */
function digestOf(document: string): string {
  return asUuid(hash('md5', document, 'hex'));
}

/**
 * What a line's digest covers besides its text: the type its file's name gives (a line without a `type` is read
 * as that type), and the version of the reading. Raise the version whenever the same line would be read
 * differently (the schemas, the canonical form, the links): the store's line digests then match no line, and the
 * next import parses every line again.
 */
const lineReading = 'orgraph-import-line-1';

/** What a line digest covers before the line itself. */
const linePrefix = (defaultType: RecordType | null) => `${lineReading}\u0000${defaultType ?? ''}\u0000`;

/** md5 of a line's text as the import reads it from a file of `defaultType`, as a UUID (record_digests.line_digest). */
export function lineDigestOf(text: string, defaultType: RecordType | null): string {
  return asUuid(hash('md5', `${linePrefix(defaultType)}${text}`, 'hex'));
}

/** Where lineDigestOfBytes puts the reading's prefix and a line's bytes together, grown to the longest line. */
let scratch = Buffer.alloc(0);

/**
 * lineDigestOf of a line's UTF-8 bytes, before they are decoded: the same digest, since a text is hashed as its
 * UTF-8 bytes (but for a byte-order mark opening a line past the first, which decoding drops: such a line is
 * parsed, then known by this digest).
 */
export function lineDigestOfBytes(bytes: Buffer, defaultType: RecordType | null): string {
  const prefix = linePrefix(defaultType);
  const length = Buffer.byteLength(prefix) + bytes.length;
  if (scratch.length < length) scratch = Buffer.allocUnsafe(Math.max(length, 64 * 1024));
  const start = scratch.write(prefix, 0);
  bytes.copy(scratch, start);
  return asUuid(hash('md5', scratch.subarray(0, length), 'hex'));
}

/** A line read as a record to stage, in the COPY text the staging tables take (see staged-rows.ts). */
export interface ReadRecord {
  ok: true;
  type: RecordType;
  deleted: boolean;
  /** Its row of import_staged from the id to `known_line` (stagedRowHead). */
  head: string;
  /**
   * The canonical document as JSON text, in COPY text (a deletion's is its type and reference); `\N` when the
   * record's rows are staged instead (`rows`).
   */
  document: string;
  /** Its rows of import_keys: its own key and those others may link to beside it (its client summaries). */
  keys: string;
  /** Its rows of import_links. */
  links: string;
}

/** A line that is no record: the type it claims (or the file's), and the rejection without its source. */
export interface UnreadRecord {
  ok: false;
  type: string;
  rejection: Omit<Rejection, 'source'>;
}

/**
 * Reads line `number` of the import's file number `source`, of `defaultType` (null when the file's name names no
 * type): parses and validates it, and builds what staging sends. `lineDigest` is the line's digest when the
 * caller has it already. With `stageRow`, a record is staged as its rows (appendRecordRows), handed to it by
 * table, and without its document, but for an occupation (whose name the import checks in its document) and a
 * deletion. Plain data in and out, so that it runs as well on a worker thread.
 */
export function readRecord(
  source: number,
  number: number,
  text: string,
  defaultType: RecordType | null,
  lineDigest: string | null = null,
  stageRow: ((table: string, row: string) => void) | null = null,
): ReadRecord | UnreadRecord {
  const parsed = parseLine(text, defaultType);
  if (!parsed.ok) {
    const value = parsed.value as { type?: unknown } | undefined;
    const type =
      typeof value?.type === 'string' && recordTypes.includes(value.type as RecordType)
        ? value.type
        : (defaultType ?? 'unknown');
    return {
      ok: false,
      type,
      rejection: { line: number, ...rejectionBody(text, parsed.value), reasons: parsed.reasons },
    };
  }
  const clientSummaries = parsed.record?.client_summaries as { reference: string }[] | undefined;
  const document = JSON.stringify(
    parsed.record ?? { type: parsed.type, reference: parsed.reference, deleted: true },
  );
  const fields = {
    source,
    line: number,
    type: parsed.type,
    reference: parsed.reference,
    deleted: parsed.deleted,
    digest: digestOf(document),
    lineDigest: lineDigest ?? lineDigestOf(text, defaultType),
    knownLine: false,
  };
  if (stageRow && parsed.record) {
    appendRecordRows(stageRow, parsed.type, parsed.record, stagingId(source, number));
  }
  return {
    ok: true,
    type: parsed.type,
    deleted: parsed.deleted,
    head: stagedRowHead(fields),
    document: stageRow && parsed.record && parsed.type !== 'occupation' ? '\\N' : copyJson(document),
    keys: keyRows(
      fields,
      (clientSummaries ?? []).map((summary) => ['client_summary', summary.reference]),
    ),
    links: linkRows(fields, parsed.record ? linksOf(parsed.type, parsed.record) : []),
  };
}
