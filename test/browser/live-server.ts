import type { ChildProcess } from 'node:child_process';
import { loadPlans } from '../../src/auth/plans.ts';
import { createToken } from '../../src/auth/tokens.ts';
import { loadConfig } from '../../src/config.ts';
import { type Database, openDatabase } from '../../src/db/database.ts';
import { exitCode, startCli } from '../support/cli.ts';

export interface LiveServer {
  url: string;
  /** An enterprise token created for this server's test file. */
  token: string;
  /** Everything the process wrote to stdout (its JSON log) and stderr so far. */
  stdout(): string;
  stderr(): string;
  stop(): Promise<number | null>;
}

/**
 * `orgraph serve` as a real process on a free port, over the test database. On the embedded database the store
 * admits one process at a time: the token is created (and `prepare` reads what the test needs from the database),
 * and the handle closed, before the server opens it; no other test file opens that store meanwhile (each vitest
 * worker has a copy of its own, test/support/worker-stores.ts).
 */
export async function startLiveServer(
  options: { env?: NodeJS.ProcessEnv; prepare?: (db: Database) => Promise<void> } = {},
): Promise<LiveServer> {
  const env = options.env ?? {};
  const config = loadConfig({ ...process.env, ...env });
  const handle = await openDatabase(config);
  let token: string;
  try {
    token = (
      await createToken(handle.db, loadPlans(config.plansFile), { plan: 'enterprise', label: 'live test' })
    ).token;
    await options.prepare?.(handle.db);
  } finally {
    await handle.close();
  }

  const { child, url } = await startCli(['serve'], { LOG_LEVEL: 'info', ...env });
  let stdout = '';
  let stderr = '';
  // Read continuously: a full pipe would block the server's synchronous log writes.
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return {
    url,
    token,
    stdout: () => stdout,
    stderr: () => stderr,
    stop: () => stopProcess(child),
  };
}

async function stopProcess(child: ChildProcess): Promise<number | null> {
  if (child.exitCode === null) child.kill('SIGTERM');
  return exitCode(child);
}

/** The JSON lines of a log, skipping anything that is not JSON. */
export function logLines(text: string): Record<string, unknown>[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}
