import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitCode, runCli, startCli } from '../support/cli.ts';
import { copyEmptyStore } from '../support/worker-stores.ts';

/**
 * `orgraph import`, `export` and `seed` on the embedded store while `orgraph serve` holds it go through the server
 * (admin-records.ts), and give what they give on a store no server holds: the same summaries, rejects and exports.
 */
const cliPath = fileURLToPath(new URL('../../bin/orgraph.js', import.meta.url));
let root: string;

const organisations = [
  {
    reference: '3f6c1a52-8d7e-4b1a-9c3e-2a4b5c6d7e80',
    name: 'Northwind Analytics',
    status: 'active',
    verified: true,
    confidence: 90,
    totals: { employees: 240 },
  },
  {
    reference: '7a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
    name: 'Harbour Capital',
    status: 'active',
    verified: false,
    confidence: 70,
    totals: { employees: 35 },
  },
];
const people = [
  {
    type: 'profile',
    reference: 'b2c3d4e5-f6a7-4b8c-9d0e-1f2a3b4c5d6e',
    first_name: 'Grace',
    last_name: 'Hopper',
    name: 'Grace Hopper',
    confidence_score: 0.92,
  },
  {
    type: 'experience',
    reference: 'c3d4e5f6-a7b8-4c9d-8e0f-2a3b4c5d6e7f',
    profile_reference: 'b2c3d4e5-f6a7-4b8c-9d0e-1f2a3b4c5d6e',
    organisation_reference: '3f6c1a52-8d7e-4b1a-9c3e-2a4b5c6d7e80',
    occupation_title: 'Chief Data Officer',
    start_date: '2021-04-01',
  },
  {
    type: 'experience',
    reference: 'd4e5f6a7-b8c9-4d0e-9f1a-3b4c5d6e7f80',
    profile_reference: 'b2c3d4e5-f6a7-4b8c-9d0e-1f2a3b4c5d6e',
    organisation_reference: '0000aaaa-0000-4000-8000-000000000000',
    occupation_title: 'Adviser',
    start_date: '2019-01-01',
  },
];
const ndjson = (records: object[]) => `${records.map((record) => JSON.stringify(record)).join('\n')}\n`;

/** Runs `orgraph <args>` in `cwd`, with `input` on its standard input; resolves with its outputs and exit status. */
function run(args: string[], env: NodeJS.ProcessEnv, cwd: string, input?: string) {
  return new Promise<{ stdout: string; stderr: string; code: number }>((resolve) => {
    const child = execFile(
      process.execPath,
      [cliPath, ...args],
      { cwd, env: { ...process.env, LOG_LEVEL: 'warn', ...env }, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => resolve({ stdout, stderr, code: error ? Number(error.code ?? 1) : 0 }),
    );
    child.stdin?.end(input ?? '');
  });
}

/** What a session of records commands printed and wrote, with the seconds each took left out. */
async function session(env: NodeJS.ProcessEnv, cwd: string) {
  await mkdir(cwd, { recursive: true });
  await writeFile(join(cwd, 'organisations.ndjson'), ndjson(organisations));
  await writeFile(join(cwd, 'people.ndjson'), ndjson(people));
  const seeded = await run(['seed', '--scale', '0.01'], env, cwd);
  const first = await run(['import', 'people.ndjson', 'organisations.ndjson'], env, cwd);
  const rejects = await readFile(join(cwd, 'rejects.ndjson'), 'utf8');
  // From standard input, with a deletion and a change; the rejects go to a file of another name.
  const changed = ndjson([
    { type: 'organisation', ...organisations[0], name: 'Northwind Analytics Ltd' },
    { type: 'organisation', reference: organisations[1]?.reference, deleted: true },
  ]);
  const second = await run(
    ['import', '-', '--rejects', 'second.ndjson', '--progress', 'lines'],
    env,
    cwd,
    changed,
  );
  const exported = await run(['export'], env, cwd);
  const without = (output: string) =>
    output.replace(/"seconds":[0-9.]+/, '"seconds":…').replace(/ in [0-9.]+ s:/, ' in … s:');
  return {
    seeded: [seeded.code, without(seeded.stdout)],
    first: [first.code, without(first.stdout), rejects, first.stderr],
    second: [second.code, without(second.stdout), second.stderr],
    exported: [exported.code, exported.stdout, exported.stderr],
  };
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'orgraph-records-'));
  // Migrated empty stores: what these commands do on a store, not how a new one is made (embedded-store.test.ts).
  await Promise.all([copyEmptyStore(join(root, 'alone')), copyEmptyStore(join(root, 'served'))]);
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe('records commands on the embedded store', () => {
  it('import, export and seed through the running server give what they give on a store of their own', {
    timeout: 600_000,
  }, async () => {
    const alone = await session({ DATABASE_URL: '', DATA_DIR: join(root, 'alone') }, join(root, 'alone-cwd'));
    expect(alone.first[0]).toBe(2);
    expect(alone.first[2]).toContain('"line":3');
    // Not on a terminal, and no --progress: nothing on stderr; --help says so rather than showing the default it got.
    expect(alone.first[3]).toBe('');
    const help = await run(['import', '--help'], {}, root);
    expect(help.stdout.replace(/\s+/g, ' ')).toContain('by default bar on a terminal, otherwise none');
    expect(help.stdout).not.toContain('(default: "none")');
    expect(alone.second[0]).toBe(0);
    expect(alone.exported[1]).toContain('Northwind Analytics Ltd');
    expect(alone.exported[1]).not.toContain('Harbour Capital');

    const servedEnv = { DATABASE_URL: '', DATA_DIR: join(root, 'served') };
    const { child, url } = await startCli(['serve'], servedEnv);
    try {
      const served = await session(servedEnv, join(root, 'served-cwd'));
      expect(served).toEqual(alone);

      // The server answers with what was imported through it, at once.
      const token = (await runCli(['token', 'create', '--plan', 'enterprise'], servedEnv)).stdout.trim();
      const response = await fetch(`${url}/graphql`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          query: 'query ($ref: UUID!) { organisation(reference: $ref) { name } }',
          variables: { ref: organisations[0]?.reference },
        }),
      });
      expect(await response.json()).toMatchObject({
        data: { organisation: { name: 'Northwind Analytics Ltd' } },
      });

      // A missing file is one sentence, before anything reaches the server.
      const missing = await run(['import', 'missing.ndjson'], servedEnv, root);
      expect([missing.code, missing.stderr]).toEqual([1, 'The import file missing.ndjson does not exist.\n']);
    } finally {
      child.kill('SIGTERM');
      expect(await exitCode(child)).toBe(0);
    }
  });
});
