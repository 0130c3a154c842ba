import type { Readable } from 'node:stream';

/** The longest line the importer reads; a longer one is rejected without being held whole. */
export const maxLineBytes = 1024 * 1024;
/** How much of a rejected line the rejects file shows. */
export const lineHeadBytes = 1024;

export type Line =
  | { number: number; text: string }
  /** A line not decoded yet (readLines with `decode: false`): see decodeLine. */
  | { number: number; encoded: Buffer }
  | { number: number; error: 'too-long' | 'invalid-utf8'; head: string; bytes: number };

const decoder = new TextDecoder('utf-8', { fatal: true });
const lenientDecoder = new TextDecoder('utf-8');

/**
 * The non-blank lines of a byte stream, numbered from 1. Holds at most one line of up to `maxLineBytes` (plus
 * one chunk of the stream): past that, only the line's first `lineHeadBytes` are kept and the rest is skipped
 * up to the next line end. A byte-order mark at the start and CR before LF are dropped.
 *
 * With `decode: false`, a line that holds a printable ASCII character (so is not blank) comes as its bytes, to be
 * decoded only if needed: a re-import looks most lines up by the digest of their bytes and never needs their
 * text, and holding 10,000 lines' texts per lookup kept the garbage collector copying them (bench/NOTES.md 44).
 */
export async function* readLines(
  stream: Readable,
  options: { decode: boolean } = { decode: true },
): AsyncGenerator<Line> {
  let parts: Buffer[] = [];
  let held = 0;
  let overflow: { head: Buffer; bytes: number } | null = null;
  let number = 0;
  let first = true;

  function* finish(rest: Buffer): Generator<Line> {
    number += 1;
    if (overflow) {
      const bytes = overflow.bytes + rest.length;
      const head = lenientDecoder.decode(overflow.head);
      overflow = null;
      yield { number, error: 'too-long', head, bytes };
      return;
    }
    let bytes = parts.length === 0 ? rest : Buffer.concat([...parts, rest]);
    parts = [];
    held = 0;
    if (first) {
      first = false;
      if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) bytes = bytes.subarray(3);
    }
    if (bytes.length > 0 && bytes[bytes.length - 1] === 0x0d) bytes = bytes.subarray(0, -1);
    if (bytes.length > maxLineBytes) {
      yield {
        number,
        error: 'too-long',
        head: lenientDecoder.decode(bytes.subarray(0, lineHeadBytes)),
        bytes: bytes.length,
      };
      return;
    }
    if (!options.decode && hasVisibleAscii(bytes)) {
      yield { number, encoded: bytes };
      return;
    }
    let text: string;
    try {
      text = decoder.decode(bytes);
    } catch {
      yield {
        number,
        error: 'invalid-utf8',
        head: lenientDecoder.decode(bytes.subarray(0, lineHeadBytes)),
        bytes: bytes.length,
      };
      return;
    }
    if (text.trim() === '') return;
    yield { number, text };
  }

  for await (const chunk of stream as AsyncIterable<Buffer | string>) {
    // Undecoded lines outlive the loop (until their lookup): they are views of a copy the stream cannot reuse.
    let buffer = typeof chunk === 'string' || !options.decode ? Buffer.from(chunk) : chunk;
    for (;;) {
      const end = buffer.indexOf(0x0a);
      if (end === -1) break;
      yield* finish(buffer.subarray(0, end));
      buffer = buffer.subarray(end + 1);
    }
    if (buffer.length === 0) continue;
    if (overflow) {
      overflow.bytes += buffer.length;
    } else if (held + buffer.length > maxLineBytes + 1) {
      const whole = Buffer.concat([...parts, buffer]);
      overflow = { head: Buffer.from(whole.subarray(0, lineHeadBytes)), bytes: whole.length };
      parts = [];
      held = 0;
      first = false;
    } else {
      // Copied: the stream may reuse its chunk's memory.
      parts.push(Buffer.from(buffer));
      held += buffer.length;
    }
  }
  if (overflow || held > 0) yield* finish(Buffer.alloc(0));
}

/** Whether `bytes` hold a printable ASCII character: such a line is not blank, without decoding it. */
function hasVisibleAscii(bytes: Buffer): boolean {
  for (let i = 0; i < bytes.length; i += 1) {
    const byte = bytes[i] as number;
    if (byte > 0x20 && byte < 0x7f) return true;
  }
  return false;
}

/** The text of an encoded line (see readLines), or the line rejected when it is not UTF-8. */
export function decodeLine(line: { number: number; encoded: Buffer }): Line {
  try {
    return { number: line.number, text: decoder.decode(line.encoded) };
  } catch {
    return {
      number: line.number,
      error: 'invalid-utf8',
      head: lenientDecoder.decode(line.encoded.subarray(0, lineHeadBytes)),
      bytes: line.encoded.length,
    };
  }
}
