import { describe, expect, it } from 'vitest';
import { batchOfLine, readChunk } from './read-chunk.ts';

const occupation = (reference: string, name: string) =>
  JSON.stringify({ type: 'occupation', reference, name });

describe('reading a chunk of lines', () => {
  it('stages each record as UTF-8 COPY text, in its line batch, and reports every line in order', () => {
    const read = readChunk({
      source: 1,
      defaultType: null,
      batches: { first: 4, size: 2 },
      rows: false,
      lines: [
        [1, occupation('3f6c1a52-8d7e-4b1a-9c3e-2a4b5c6d7e80', 'Zoë\tAnalyst'), null],
        [2, 'not json', null],
        [3, occupation('4f6c1a52-8d7e-4b1a-9c3e-2a4b5c6d7e81', 'Chief \\ Analyst'), null],
      ],
    });
    expect(read.outcomes.map((outcome) => (outcome.ok ? outcome.type : outcome.rejection.line))).toEqual([
      'occupation',
      2,
      'occupation',
    ]);
    const rows = Buffer.from(read.staged).toString().split('\n');
    expect(rows).toHaveLength(3);
    expect(rows[2]).toBe('');
    const [first, second] = rows.map((row) => row.split('\t'));
    // The batch, the id (source × 2³² + line), the type, the reference; the document last, its tab escaped.
    expect(first?.slice(0, 4)).toEqual([
      '4',
      String(2 ** 32 + 1),
      'occupation',
      '3f6c1a52-8d7e-4b1a-9c3e-2a4b5c6d7e80',
    ]);
    expect(rows[0]).toContain('"name":"Zoë\\\\tAnalyst"');
    expect(second?.slice(0, 2)).toEqual(['5', String(2 ** 32 + 3)]);
    // A backslash, escaped once by JSON, once more by COPY.
    expect(rows[1]).toContain('"name":"Chief \\\\\\\\ Analyst"');
    expect(Buffer.from(read.keys).toString()).toBe(
      `occupation\t3f6c1a52-8d7e-4b1a-9c3e-2a4b5c6d7e80\t${2 ** 32 + 1}\noccupation\t4f6c1a52-8d7e-4b1a-9c3e-2a4b5c6d7e81\t${2 ** 32 + 3}\n`,
    );
    expect(read.links).toHaveLength(0);
  });

  it('numbers batches by line: a file holds `size` lines per batch after the batches before it', () => {
    const batches = { first: 3, size: 500 };
    expect([1, 500, 501, 1000, 1001].map((line) => batchOfLine(batches, line))).toEqual([3, 3, 4, 4, 5]);
  });

  it('grows its text past its first guess without losing a byte', () => {
    const name = 'é'.repeat(40_000);
    const read = readChunk({
      source: 0,
      defaultType: 'occupation',
      batches: { first: 0, size: 10 },
      rows: false,
      lines: [[1, JSON.stringify({ reference: '3f6c1a52-8d7e-4b1a-9c3e-2a4b5c6d7e80', name }), null]],
    });
    expect(Buffer.from(read.staged).toString()).toContain(`"name":"${name}"`);
  });
});
