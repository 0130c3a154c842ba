import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageBlock } from './readme-blocks.ts';

/**
 * The tour of docs/following.md, as a reader follows it on a fresh clone: its first block (`npm start`) runs in the
 * background on an embedded store of its own, its second in another shell while the server runs, and what that
 * prints is the third block, exactly. Only the addresses change: the server's port is any free one (PORT=0), the
 * webhook receiver's another, and `npx orgraph` is the project's bin (the shell runs in a scratch directory).
 */
const root = fileURLToPath(new URL('../../', import.meta.url));
const heading = 'The tour: an import seen three ways';
const blocks = {
  start: pageBlock('docs/following.md', heading, 'npm start'),
  script: pageBlock('docs/following.md', heading, 'orgraph import'),
  printed: pageBlock('docs/following.md', heading, '{"written":1'),
};

let directory: string;
let server: ChildProcess | undefined;
let url = '';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** Resolves once no process of the group `pgid` is left, or after `timeoutMs`. */
async function groupGone(pgid: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      process.kill(-pgid, 0);
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'orgraph-tour-'));
  // The block as written, in a process group of its own so that stopping it stops npm and the server under it.
  server = spawn('sh', ['-c', blocks.start.body], {
    cwd: root,
    detached: true,
    env: {
      ...process.env,
      DATABASE_URL: '',
      DATA_DIR: join(directory, 'store'),
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout?.resume();
  url = await new Promise<string>((resolve, reject) => {
    let log = '';
    server?.stderr?.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      const match = log.match(/listening on (http:\/\/\S+?) /);
      if (match?.[1]) resolve(match[1]);
    });
    server?.once('exit', (code) => reject(new Error(`npm start exited with ${code}:\n${log}`)));
  });
}, 900_000);

afterAll(async () => {
  if (server?.pid && server.exitCode === null) {
    const exited = new Promise((resolve) => server?.once('exit', resolve));
    process.kill(-server.pid, 'SIGTERM');
    await exited;
  }
  // `sh` exits before the server under it has closed its store: wait until nothing of the group is left.
  if (server?.pid) await groupGone(server.pid, 30_000);
  await rm(directory, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
}, 60_000);

describe('docs/following.md, the tour', () => {
  it('on `npm start` alone, an event imported while the server runs reaches the feed, the webhook and the live subscription', async () => {
    const receiver = await freePort();
    const script = blocks.script.body
      .replaceAll('http://127.0.0.1:4000', url)
      .replaceAll('127.0.0.1:4100', `127.0.0.1:${receiver}`)
      .replaceAll('.listen(4100,', `.listen(${receiver},`)
      .replaceAll('npx orgraph ', `node ${join(root, 'bin/orgraph.js')} `);
    const { stdout } = await promisify(execFile)('sh', ['-e', '-c', script], {
      cwd: directory,
      env: { ...process.env, DATABASE_URL: '', DATA_DIR: join(directory, 'store'), LOG_LEVEL: 'warn' },
      timeout: 300_000,
    });
    expect(stdout.trim()).toBe(blocks.printed.body.trim());
  }, 400_000);
});
