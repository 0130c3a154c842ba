import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageBlock } from '../readme/readme-blocks.ts';
import { exitCode, startCli } from '../support/cli.ts';
import { copyEmptyStore, copySeededStore } from '../support/worker-stores.ts';

/**
 * `orgraph resolve FILE` on the embedded store: on a store of its own and through the server that holds it, the
 * file comes back with every row in input order, its columns kept and the four answer columns added.
 */
const cliPath = fileURLToPath(new URL('../../bin/orgraph.js', import.meta.url));
const northwind = '3f6c1a52-8d7e-4b1a-9c3e-2a4b5c6d7e80';
const harbour = '7a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const organisations = [
  {
    reference: northwind,
    name: 'Northwind Analytics',
    status: 'active',
    verified: true,
    confidence: 90,
    totals: { employees: 240 },
  },
  {
    reference: harbour,
    name: 'Harbour Capital',
    status: 'active',
    verified: false,
    confidence: 70,
    totals: { employees: 35 },
  },
];
const csv = [
  'id,name,notes',
  '1,Northwind Analytics,keep me',
  '2,HARBOUR CAPITAL LTD,',
  '3,,an empty row',
  '4,Qxzv Widgets Plc,no such company',
  '5,northwind analytics,"quoted, with a comma"',
  '',
].join('\n');

let root: string;
let env: NodeJS.ProcessEnv;

function run(args: string[], store: NodeJS.ProcessEnv = env) {
  return new Promise<{ stdout: string; stderr: string; code: number }>((resolve) => {
    execFile(
      process.execPath,
      [cliPath, ...args],
      {
        cwd: root,
        env: { ...process.env, LOG_LEVEL: 'warn', ...store },
        maxBuffer: 16 * 1024 * 1024,
        timeout: 180_000,
      },
      (error, stdout, stderr) => resolve({ stdout, stderr, code: error ? Number(error.code ?? 1) : 0 }),
    );
  });
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'orgraph-resolve-cli-'));
  env = { DATABASE_URL: '', DATA_DIR: join(root, 'store') };
  await copyEmptyStore(env.DATA_DIR as string);
  await writeFile(
    join(root, 'organisations.ndjson'),
    organisations.map((record) => JSON.stringify(record)).join('\n'),
  );
  await writeFile(join(root, 'list.csv'), csv);
  const imported = await run(['import', 'organisations.ndjson']);
  expect(imported.code).toBe(0);
}, 300_000);
afterAll(() => rm(root, { recursive: true, force: true }));

describe('orgraph resolve', () => {
  it('writes each row back in order with its match, alone and through the running server', {
    timeout: 600_000,
  }, async () => {
    const alone = await run(['resolve', 'list.csv', '--out', 'alone.csv']);
    expect(alone.code).toBe(0);
    expect(alone.stderr).toBe('5 rows: 3 matched, 0 ambiguous, 2 none.\n');
    const written = await readFile(join(root, 'alone.csv'), 'utf8');
    const rows = parse(written, { columns: true }) as Record<string, string>[];
    expect(written.split('\n')[0]).toBe('id,name,notes,reference,status,score,matched_on');
    expect(rows.map((row) => [row.id, row.notes, row.reference, row.status])).toEqual([
      ['1', 'keep me', northwind, 'matched'],
      ['2', '', harbour, 'matched'],
      ['3', 'an empty row', '', 'none'],
      ['4', 'no such company', '', 'none'],
      ['5', 'quoted, with a comma', northwind, 'matched'],
    ]);
    expect(rows[0]?.matched_on).toBe('name:exact');
    expect(rows[1]?.matched_on).toBe('name:normalised');
    expect(Number(rows[0]?.score)).toBeGreaterThanOrEqual(0.85);

    const { child } = await startCli(['serve'], env);
    try {
      const served = await run(['resolve', 'list.csv']);
      expect([served.code, served.stdout, served.stderr]).toEqual([0, written, '']);

      await writeFile(
        join(root, 'list.ndjson'),
        [
          { name: 'Harbour Capital', crm_id: 'a' },
          { name: 'Nobody Anywhere GmbH', crm_id: 'b', tags: ['x'] },
          { name: 'Northwind Analytics Inc.', crm_id: 'c' },
        ]
          .map((row) => JSON.stringify(row))
          .join('\n'),
      );
      const ndjson = await run(['resolve', 'list.ndjson', '--max-candidates', '1']);
      expect(ndjson.code).toBe(0);
      const lines = ndjson.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      expect(lines.map((line) => [line.crm_id, line.reference, line.status])).toEqual([
        ['a', harbour, 'matched'],
        ['b', null, 'none'],
        ['c', northwind, 'matched'],
      ]);
      expect(lines[1].tags).toEqual(['x']);

      // A file of no rows ends at once, leaving no connection to the server open.
      await writeFile(join(root, 'empty.csv'), 'id,name\n');
      const empty = await run(['resolve', 'empty.csv']);
      expect([empty.code, empty.stdout]).toEqual([0, 'id,name,reference,status,score,matched_on\n']);

      const missing = await run(['resolve', 'missing.csv']);
      expect([missing.code, missing.stderr]).toEqual([1, 'The file missing.csv does not exist.\n']);
      const directory = await run(['resolve', '.']);
      expect([directory.code, directory.stderr]).toEqual([1, 'The file . is a directory, not a file.\n']);
    } finally {
      child.kill('SIGTERM');
      expect(await exitCode(child)).toBe(0);
    }
  });
});

describe('docs/resolving.md', () => {
  const heading = 'A file from the command line';
  it("resolves the page's file on the demo dataset as the page shows", { timeout: 600_000 }, async () => {
    // The demo dataset: a copy of the run's store seeded at scale 1, as `orgraph seed --scale 1` makes it.
    const demo = { DATABASE_URL: '', DATA_DIR: join(root, 'demo') };
    await copySeededStore(demo.DATA_DIR);
    await writeFile(join(root, 'prospects.csv'), pageBlock('docs/resolving.md', heading, 'owner\n').body);
    const command = pageBlock('docs/resolving.md', heading, 'orgraph resolve').body.trim();
    expect(command.startsWith('npx orgraph ')).toBe(true);
    const result = await run(command.replace('npx orgraph ', '').split(' '), demo);
    expect([result.code, result.stderr]).toEqual([0, '5 rows: 2 matched, 1 ambiguous, 2 none.\n']);
    const shown = pageBlock('docs/resolving.md', heading, 'matched_on').body;
    expect(await readFile(join(root, 'resolved.csv'), 'utf8')).toBe(`${shown.trimEnd()}\n`);
  });
});
