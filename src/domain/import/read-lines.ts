import type { Readable } from 'node:stream';

/** The longest line the importer reads; a longer one is rejected without being held whole. */
export const maxLineBytes = 1024 * 1024;
/** How much of a rejected line the rejects file shows. */
export const lineHeadBytes = 1024;

export type Line =
  | { number: number; text: string }
  | { number: number; error: 'too-long' | 'invalid-utf8'; head: string; bytes: number };

const decoder = new TextDecoder('utf-8', { fatal: true });
const lenientDecoder = new TextDecoder('utf-8');

/**
 * The non-blank lines of a byte stream, numbered from 1. Holds at most one line of up to `maxLineBytes` (plus
 * one chunk of the stream): past that, only the line's first `lineHeadBytes` are kept and the rest is skipped
 * up to the next line end. A byte-order mark at the start and CR before LF are dropped.
 */
export async function* readLines(stream: Readable): AsyncGenerator<Line> {
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
    let buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
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
