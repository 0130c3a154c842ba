import { describe, expect, it } from 'vitest';
import { type ChunkToRead, type ReadChunk, readChunk } from './read-chunk.ts';
import { ReadPool } from './read-pool.ts';

const chunk: ChunkToRead = {
  source: 0,
  defaultType: null,
  batches: { first: 0, size: 2 },
  rows: true,
  lines: [
    [
      1,
      '{"type": "occupation", "reference": "3f6c1a52-8d7e-4b1a-9c3e-2a4b5c6d7e80", "name": "Chief Analyst"}',
      null,
    ],
    [2, '{"type": "occupation", "reference": "not a uuid", "name": "Broken"}', null],
    [3, 'not json', null],
    [
      4,
      '{"type": "occupation", "reference": "4f6c1a52-8d7e-4b1a-9c3e-2a4b5c6d7e81", "name": "Zoë Analyst"}',
      null,
    ],
  ],
};
const later = { ...chunk, lines: chunk.lines.slice(1) };

/** A chunk as it reads: its COPY text decoded, so that answers from a worker compare with those read here. */
const asText = (read: ReadChunk) => ({
  outcomes: read.outcomes,
  staged: Buffer.from(read.staged).toString(),
  keys: Buffer.from(read.keys).toString(),
  links: Buffer.from(read.links).toString(),
  rows: Object.fromEntries(
    Object.entries(read.rows).map(([table, rows]) => [table, Buffer.from(rows).toString()]),
  ),
});

describe('the read pool', () => {
  it("answers as reading on the import's own thread does, in the order asked", async () => {
    const pool = new ReadPool(2);
    try {
      const answers = await Promise.all([pool.read(chunk), pool.read(later)]);
      expect(answers.map((pieces) => pieces.map(asText))).toEqual([
        [asText(readChunk(chunk))],
        [asText(readChunk(later))],
      ]);
      expect(answers[0]?.[0]?.outcomes[0]).toEqual({ ok: true, type: 'occupation', deleted: false });
      // The records' rows come back too, by table, handed over like the rest.
      expect(asText(answers[0]![0]!).rows).toEqual({
        occupations:
          '1\t3f6c1a52-8d7e-4b1a-9c3e-2a4b5c6d7e80\tChief Analyst\n4\t4f6c1a52-8d7e-4b1a-9c3e-2a4b5c6d7e81\tZoë Analyst\n',
      });
    } finally {
      await pool.close();
    }
  });

  it('reads on the calling thread once its worker has failed, losing no line', async () => {
    // A heap too small to load the worker's modules: the worker ends with an out-of-memory error. (Not smaller:
    // with a 1 MB heap Node 24 aborts the whole process rather than the worker.)
    const pool = new ReadPool(1, { maxOldGenerationSizeMb: 4, maxYoungGenerationSizeMb: 2 });
    try {
      expect((await pool.read(chunk)).map(asText)).toEqual([asText(readChunk(chunk))]);
      expect((await pool.read(later)).map(asText)).toEqual([asText(readChunk(later))]);
      expect(pool.failed?.message).toMatch(/memory/);
    } finally {
      await pool.close();
    }
  });
});
