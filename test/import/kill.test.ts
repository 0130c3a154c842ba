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
 * An import killed (SIGKILL) leaves every record either whole or absent: into a store that holds records, whole
 * batches only; into an empty store (one transaction, the initial load), nothing. Running it again stores the rest.
 */

const cliPath = fileURLToPath(new URL('../../bin/orgraph.js', import.meta.url));
const batchSize = 250;

let store: ImportStore;
let emptyStore: ImportStore;
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
  emptyStore = await openImportStore('kill_empty');
  await emptyStore.handle.close();
}, 300_000);

afterAll(async () => {
  await store?.close();
  await emptyStore?.close();
  await files?.remove();
});

interface Progress {
  phase: string;
  type?: string;
  written: number;
}

/** Starts `orgraph import` on the exported files into `target` and kills it once `until` holds of its progress. */
function importUntilKilled(
  target: ImportStore,
  inputs: string[],
  until: (progress: Progress) => boolean,
): Promise<number> {
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
    { env: { ...process.env, ...target.env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stdout.resume();
  return new Promise((resolve, reject) => {
    let seen = 0;
    let stop = false;
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
        const progress = (JSON.parse(line) as { progress?: Progress }).progress;
        if (!progress) continue;
        if (progress.written > seen) seen = progress.written;
        if (until(progress)) stop = true;
      }
      if (stop && child.exitCode === null) child.kill('SIGKILL');
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (signal === 'SIGKILL') resolve(seen);
      else reject(new Error(`the import ended (${code}) before it was killed`));
    });
  });
}

async function storedLines(target: ImportStore): Promise<Map<string, string[]>> {
  const handle = await target.reopen();
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

async function exportedFiles(): Promise<string[]> {
  return (await readdir(files.path))
    .filter((name) => name.endsWith('.ndjson'))
    .map((name) => join(files.path, name));
}

interface Summary {
  written: number;
  rejected: number;
  initial_load: boolean;
  types: Record<string, { inserted: number; unchanged: number }>;
}

describe('a killed import', () => {
  it('into an empty store leaves it empty, and a rerun loads everything at once', async () => {
    const inputs = await exportedFiles();
    const total = [...expected.values()].reduce((sum, lines) => sum + lines.size, 0);
    // Killed inside the load's transaction, once occupations, organisations and profiles are in it.
    await importUntilKilled(emptyStore, inputs, (progress) => progress.type === 'experience');
    const stored = await storedLines(emptyStore);
    for (const type of recordTypes) expect(stored.get(type) ?? [], type).toEqual([]);

    const { stdout } = await runCli(
      ['import', ...inputs, '--rejects', join(files.path, 'rejects')],
      emptyStore.env,
    );
    const summary = JSON.parse(stdout) as Summary;
    expect(summary).toMatchObject({ rejected: 0, written: total, initial_load: true });
    const finished = await storedLines(emptyStore);
    for (const type of recordTypes) {
      expect(new Set(finished.get(type)), type).toEqual(new Set(expected.get(type)!.values()));
    }
  }, 600_000);

  it('into a store that holds records leaves whole batches, and a rerun finishes the job', async () => {
    const inputs = await exportedFiles();
    const total = [...expected.values()].reduce((sum, lines) => sum + lines.size, 0);
    // The occupations first, so that the store is not empty and the import goes batch by batch.
    await runCli(['import', join(files.path, 'occupation.ndjson')], store.env);
    const seen = await importUntilKilled(store, inputs, (progress) => progress.written >= 3_000);
    expect(seen).toBeLessThan(total);

    const stored = await storedLines(store);
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
    const summary = JSON.parse(stdout) as Summary;
    expect(summary.rejected).toBe(0);
    expect(summary.initial_load).toBe(false);
    const unchanged = Object.values(summary.types).reduce((sum, counts) => sum + counts.unchanged, 0);
    expect(unchanged).toBe(storedCount);
    expect(summary.written).toBe(total - storedCount);

    const finished = await storedLines(store);
    for (const type of recordTypes) {
      expect(new Set(finished.get(type)), type).toEqual(new Set(expected.get(type)!.values()));
    }
  }, 600_000);
});
