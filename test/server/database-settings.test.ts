import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { testServices } from '../support/services.ts';

/**
 * A wrong DATABASE_URL, an unreachable or silent server, a missing database or a refused user: the CLI ends within
 * the connect timeout with one sentence naming the setting, the host and the cause.
 */
const cliPath = fileURLToPath(new URL('../../bin/orgraph.js', import.meta.url));
const server = new URL(testServices.postgresUrl);

interface Outcome {
  code: number | null;
  stderr: string;
  stdout: string;
  seconds: number;
}

/** Runs `orgraph <args>` and reports how it ended, without throwing on a failure; killed after 60 s. */
function run(args: string[], env: NodeJS.ProcessEnv): Promise<Outcome> {
  const started = performance.now();
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [cliPath, ...args],
      { env: { ...process.env, DATABASE_URL: '', ...env }, timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        resolve({ code, stdout, stderr, seconds: (performance.now() - started) / 1000 });
      },
    );
  });
}

function urlWith(change: (url: URL) => void): string {
  const url = new URL(server);
  change(url);
  return url.toString();
}

/** The one line the CLI printed on stderr (logs, if any, go to stdout). */
function sentence(outcome: Outcome): string {
  const lines = outcome.stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  return lines[0] ?? '';
}

let closedPort: number;
let silent: Server;
let silentPort: number;
const silentSockets: Socket[] = [];

function listen(target: Server): Promise<number> {
  return new Promise((resolve) => {
    target.listen(0, '127.0.0.1', () => {
      const address = target.address();
      resolve(typeof address === 'object' && address ? address.port : 0);
    });
  });
}

beforeAll(async () => {
  // A port that was free a moment ago: nothing listens there, so connecting is refused.
  const probe = createServer();
  closedPort = await listen(probe);
  await new Promise((resolve) => probe.close(resolve));
  // A server that accepts connections and never says a word, like a host behind a dropping firewall.
  silent = createServer((socket) => {
    silentSockets.push(socket);
    socket.on('error', () => {});
  });
  silentPort = await listen(silent);
});
afterAll(async () => {
  for (const socket of silentSockets) socket.destroy();
  await new Promise((resolve) => silent?.close(resolve));
});

describe('DATABASE_URL that is not a PostgreSQL URL', () => {
  it('refuses a value that is not a URL, naming the setting', async () => {
    const outcome = await run(['migrate'], { DATABASE_URL: 'not-a-url' });
    expect(outcome.code).toBe(1);
    expect(sentence(outcome)).toBe(
      'Invalid configuration: DATABASE_URL: not a URL; expected postgres://user:password@host:5432/database',
    );
  });

  it('refuses another database scheme', async () => {
    const outcome = await run(['migrate'], { DATABASE_URL: 'mysql://root@127.0.0.1:3306/orgraph' });
    expect(outcome.code).toBe(1);
    expect(sentence(outcome)).toBe(
      'Invalid configuration: DATABASE_URL: not a PostgreSQL URL (postgres:// or postgresql://); orgraph runs on PostgreSQL only',
    );
  });

  it('refuses a connect timeout that is not a positive whole number, and defaults it to 10 s', async () => {
    expect(loadConfig({}).connectTimeoutSeconds).toBe(10);
    expect(loadConfig({ DATABASE_CONNECT_TIMEOUT_SECONDS: '3' }).connectTimeoutSeconds).toBe(3);
    expect(() => loadConfig({ DATABASE_CONNECT_TIMEOUT_SECONDS: '0' })).toThrow(
      /^Invalid configuration: DATABASE_CONNECT_TIMEOUT_SECONDS: /,
    );
  });
});

describe('a database that cannot be opened', () => {
  it('names a refused port', async () => {
    const outcome = await run(['migrate'], {
      DATABASE_URL: `postgres://postgres@127.0.0.1:${closedPort}/orgraph`,
    });
    expect(outcome.code).toBe(1);
    expect(sentence(outcome)).toBe(
      `Cannot open the database of DATABASE_URL at 127.0.0.1:${closedPort}: the connection was refused (is PostgreSQL running and listening on that port?).`,
    );
  });

  it('names a database that does not exist', async () => {
    const name = `orgraph_missing_${randomBytes(4).toString('hex')}`;
    const outcome = await run(['migrate'], { DATABASE_URL: urlWith((url) => (url.pathname = `/${name}`)) });
    expect(outcome.code).toBe(1);
    expect(sentence(outcome)).toBe(
      `Cannot open the database of DATABASE_URL at ${server.hostname}:${server.port || 5432}: database "${name}" does not exist (create it: createdb ${name}).`,
    );
  });

  it('names a user the server refuses', async () => {
    const user = `orgraph_nobody_${randomBytes(4).toString('hex')}`;
    const outcome = await run(['migrate'], {
      DATABASE_URL: urlWith((url) => {
        url.username = user;
        url.password = 'wrong';
      }),
    });
    expect(outcome.code).toBe(1);
    // Depending on the server's authentication method the user is unknown or the password is wrong.
    expect(sentence(outcome)).toMatch(
      new RegExp(
        `^Cannot open the database of DATABASE_URL at ${server.hostname}:${server.port || 5432}: (password authentication failed for user "${user}"|the server refused user "${user}" \\(.*${user}.*\\))\\.$`,
      ),
    );
  });

  it('gives up on a server that accepts the connection and never answers, within the connect timeout', async () => {
    const outcome = await run(['migrate'], {
      DATABASE_URL: `postgres://postgres@127.0.0.1:${silentPort}/orgraph`,
      DATABASE_CONNECT_TIMEOUT_SECONDS: '2',
    });
    expect(outcome.code).toBe(1);
    expect(sentence(outcome)).toMatch(
      new RegExp(
        `^Cannot open the database of DATABASE_URL at 127\\.0\\.0\\.1:${silentPort}: no (connection|answer) within 2 s \\(DATABASE_CONNECT_TIMEOUT_SECONDS\\)`,
      ),
    );
    expect(silentSockets.length).toBeGreaterThan(0);
    // The timeout plus the CLI's own start (a TypeScript loader); without a timeout this waited for minutes.
    expect(outcome.seconds).toBeLessThan(30);
  });
});

describe('orgraph token revoke', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'orgraph-revoke-'));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('says that no token matches 36 hex digits (neither an id nor a token), without SQL', {
    timeout: 180_000,
  }, async () => {
    const outcome = await run(['token', 'revoke', 'a'.repeat(36)], {
      DATA_DIR: dataDir,
      DATABASE_URL: process.env.DATABASE_URL ?? '',
    });
    expect(outcome.code).toBe(1);
    expect(sentence(outcome)).toBe('No active token matches.');
  });
});
