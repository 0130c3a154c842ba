import { spawn } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportRecords } from '../../src/domain/import/export-records.ts';
import { recordTypes } from '../../src/domain/import/records.ts';
import { runCli } from '../support/cli.ts';
import { type ImportStore, openImportStore, scratchDirectory } from './support.ts';

/**
 * An import killed (SIGKILL) after some batches were committed leaves every record either whole or absent,
 * whole batches only, and running it again stores the rest.
 */

const cliPath = fileURLToPath(new URL('../../bin/orgraph.js', import.meta.url));
const batchSize = 250;

let store: ImportStore;
let files: Awaited<ReturnType<typeof scratchDirectory>>;
/** Every exported line of the demo dataset, by type, then by reference. */
const expected = new Map<string, Map<string, string>>();

beforeAll(async () => {
  files = await scratchDirectory('kill');
  // The demo dataset of the test database, exported by the CLI (the same store settings as the tests).
  await runCli(['export', '--out', files.path], {});
  for (const type of recordTypes) {
    const lines = (await readFile(join(files.path, `${type}.ndjson`), 'utf8')).split('\n').filter(Boolean);
    expected.set(
      type,
      new Map(lines.map((line) => [(JSON.parse(line) as { reference: string }).reference, line])),
    );
  }
  store = await openImportStore('kill');
  await store.handle.close();
}, 300_000);

afterAll(async () => {
  await store?.close();
  await files?.remove();
});

/** Starts `orgraph import` on the exported files and kills it once `written` records were committed. */
function importUntilKilled(inputs: string[], written: number): Promise<number> {
  const child = spawn(
    process.execPath,
    [
      cliPath,
      'import',
      ...inputs,
      '--batch-size',
      String(batchSize),
      '--progress',
      'lines',
      '--rejects',
      join(files.path, 'rejects'),
    ],
    { env: { ...process.env, ...store.env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stdout.resume();
  return new Promise((resolve, reject) => {
    let seen = 0;
    let buffered = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the import wrote ${seen} records in 240 s`));
    }, 240_000);
    child.stderr.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        const progress = (JSON.parse(line) as { progress?: { written: number } }).progress;
        if (progress && progress.written > seen) seen = progress.written;
      }
      if (seen >= written && child.exitCode === null) child.kill('SIGKILL');
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (signal === 'SIGKILL') resolve(seen);
      else reject(new Error(`the import ended (${code}) before it was killed`));
    });
  });
}

async function storedLines(): Promise<Map<string, string[]>> {
  const handle = await store.reopen();
  try {
    const lines = new Map<string, string[]>();
    await exportRecords(handle, recordTypes, async (type, page) => {
      lines.set(type, [...(lines.get(type) ?? []), ...page]);
    });
    return lines;
  } finally {
    await handle.close();
  }
}

describe('a killed import', () => {
  it('leaves whole batches, and a rerun finishes the job', async () => {
    const inputs = (await readdir(files.path))
      .filter((name) => name.endsWith('.ndjson'))
      .map((name) => join(files.path, name));
    const total = [...expected.values()].reduce((sum, lines) => sum + lines.size, 0);
    const seen = await importUntilKilled(inputs, 3_000);
    expect(seen).toBeLessThan(total);

    const stored = await storedLines();
    let storedCount = 0;
    for (const type of recordTypes) {
      const lines = stored.get(type) ?? [];
      storedCount += lines.length;
      // Each stored record is exactly the one imported: its lists (names, addresses, annotations, ...) complete.
      for (const line of lines) {
        const { reference } = JSON.parse(line) as { reference: string };
        expect(line).toBe(expected.get(type)!.get(reference));
      }
      // Whole batches only: a type is complete, or holds a multiple of the batch size.
      const complete = lines.length === expected.get(type)!.size;
      expect(complete || lines.length % batchSize === 0, `${type}: ${lines.length} stored`).toBe(true);
    }
    expect(storedCount).toBeGreaterThanOrEqual(seen);
    expect(storedCount).toBeLessThan(total);

    const { stdout } = await runCli(
      ['import', ...inputs, '--batch-size', String(batchSize), '--rejects', join(files.path, 'rejects')],
      store.env,
    );
    const summary = JSON.parse(stdout) as {
      written: number;
      rejected: number;
      types: Record<string, { inserted: number; unchanged: number }>;
    };
    expect(summary.rejected).toBe(0);
    const unchanged = Object.values(summary.types).reduce((sum, counts) => sum + counts.unchanged, 0);
    expect(unchanged).toBe(storedCount);
    expect(summary.written).toBe(total - storedCount);

    const finished = await storedLines();
    for (const type of recordTypes) {
      expect(new Set(finished.get(type)), type).toEqual(new Set(expected.get(type)!.values()));
    }
  }, 600_000);
});
