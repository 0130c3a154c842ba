import { describe, expect, it } from 'vitest';
import { ReadPool } from './read-pool.ts';
import { readRecord } from './read-record.ts';

const lines: [number, string, null][] = [
  [
    1,
    '{"type": "occupation", "reference": "3f6c1a52-8d7e-4b1a-9c3e-2a4b5c6d7e80", "name": "Chief Analyst"}',
    null,
  ],
  [2, '{"type": "occupation", "reference": "not a uuid", "name": "Broken"}', null],
  [3, 'not json', null],
];
const inline = lines.map(([number, text]) => readRecord(0, number, text, null));

describe('the read pool', () => {
  it("answers as reading on the import's own thread does, in the order asked", async () => {
    const pool = new ReadPool(2);
    try {
      const answers = await Promise.all([pool.read(0, lines, null), pool.read(0, lines.slice(1), null)]);
      expect(answers).toEqual([inline, inline.slice(1)]);
      expect(answers[0]?.[0]).toMatchObject({ ok: true, type: 'occupation' });
    } finally {
      await pool.close();
    }
  });

  it('reads on the calling thread once its worker has failed, losing no line', async () => {
    // A heap too small to load the worker's modules: the worker ends with an out-of-memory error.
    const pool = new ReadPool(1, { maxOldGenerationSizeMb: 1, maxYoungGenerationSizeMb: 1 });
    try {
      expect(await pool.read(0, lines, null)).toEqual(inline);
      expect(await pool.read(0, lines.slice(2), null)).toEqual(inline.slice(2));
    } finally {
      await pool.close();
    }
  });
});
