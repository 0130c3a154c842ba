import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { unusedStem } from './results-file.ts';

describe('the name of a bench run’s results', () => {
  const made = mkdtemp(join(tmpdir(), 'orgraph-results-'));
  afterAll(async () => rm(await made, { recursive: true, force: true }));

  it('is the day’s until a run of that day wrote any of its files, then the next free one', async () => {
    const directory = await made;
    const suffixes = ['.md', '-scale10.json'];
    expect(await unusedStem(directory, '2026-11-26', suffixes)).toBe('2026-11-26');
    await writeFile(join(directory, '2026-11-26-import-scale10.json'), '{}');
    expect(await unusedStem(directory, '2026-11-26', suffixes)).toBe('2026-11-26');
    await writeFile(join(directory, '2026-11-26-scale10.json'), '{}');
    expect(await unusedStem(directory, '2026-11-26', suffixes)).toBe('2026-11-26-2');
    await writeFile(join(directory, '2026-11-26-2.md'), '');
    expect(await unusedStem(directory, '2026-11-26', suffixes)).toBe('2026-11-26-3');
    expect(await unusedStem(directory, '2026-11-26', ['-import-scale10.json'])).toBe('2026-11-26-2');
  });
});
