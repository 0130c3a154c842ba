import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitCode, startCli } from '../support/cli.ts';

/** What the CLI says to a wrong path or port: one sentence on stderr and exit status 1, before any work starts. */
const cliPath = fileURLToPath(new URL('../../bin/orgraph.js', import.meta.url));
let root: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'orgraph-manners-'));
  env = { DATABASE_URL: '', DATA_DIR: join(root, 'store') };
  await mkdir(join(root, 'folder'));
  await writeFile(join(root, 'file.txt'), 'not a directory\n');
});
afterAll(() => rm(root, { recursive: true, force: true }));

function run(args: string[], extra: NodeJS.ProcessEnv = {}) {
  return new Promise<{ stderr: string; code: number }>((resolve) => {
    execFile(
      process.execPath,
      [cliPath, ...args],
      { cwd: root, env: { ...process.env, ...env, ...extra } },
      (error, _stdout, stderr) => resolve({ stderr, code: error ? Number(error.code ?? 1) : 0 }),
    );
  });
}

describe('the CLI on a wrong path or port', () => {
  it.each([
    [['import', 'missing.ndjson'], 'The import file missing.ndjson does not exist.'],
    [['import', 'folder'], 'The import file folder is a directory, not a file.'],
    [['import', 'file.txt', '--rejects', 'folder'], 'The rejects file folder is a directory, not a file.'],
    [
      ['import', 'file.txt', '--rejects', 'nowhere/rejects.ndjson'],
      'The rejects file nowhere/rejects.ndjson is in a directory that does not exist (nowhere).',
    ],
    [['export', '--out', 'file.txt'], 'The export directory file.txt is a file, not a directory.'],
  ])(
    'orgraph %j says: %s',
    async (args, sentence) => {
      expect(await run(args)).toEqual({ stderr: `${sentence}\n`, code: 1 });
    },
    60_000,
  );

  it('refuses a port that is not one', async () => {
    for (const port of ['http', '-1', '65536', '80.5']) {
      const { stderr, code } = await run(['serve', '--port', port]);
      expect(code).toBe(1);
      expect(stderr.trim()).toBe(
        `error: option '--port <n>' argument '${port}' is invalid. the port must be a whole number from 0 to 65535 (0: any free port).`,
      );
    }
  }, 120_000);

  it('serve --port wins over PORT', { timeout: 300_000 }, async () => {
    // PORT names a port another listener holds: serving there would fail, so a start shows --port was taken.
    const holder: Server = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const held = (holder.address() as { port: number }).port;
    try {
      const { child, url } = await startCli(['serve', '--port', '0'], { ...env, PORT: String(held) });
      try {
        expect(new URL(url).port).not.toBe(String(held));
        expect((await fetch(`${url}/healthz`)).status).toBe(200);
      } finally {
        child.kill('SIGTERM');
        expect(await exitCode(child)).toBe(0);
      }
    } finally {
      holder.close();
    }
  });
});
