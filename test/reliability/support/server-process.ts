import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { loadPlans } from '../../../src/auth/plans.ts';
import { createToken } from '../../../src/auth/tokens.ts';
import { loadConfig } from '../../../src/config.ts';
import { openDatabase } from '../../../src/db/database.ts';
import { migrateDatabase } from '../../../src/db/migrate.ts';
import { exitCode, startCli } from '../../support/cli.ts';
import { copyEmptyStore } from '../../support/worker-stores.ts';

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  /** Everything the process wrote to stderr so far. */
  log(): string;
}

/** `orgraph serve` (or `start`) in its own process on a free port, its output drained so it never blocks. */
export async function startServerProcess(
  env: NodeJS.ProcessEnv,
  command: 'serve' | 'start' = 'serve',
): Promise<ServerProcess> {
  const { child, url } = await startCli([command], {
    LOG_LEVEL: 'warn',
    ACTIVITY_REFRESH_SECONDS: '0',
    ...env,
  });
  let log = '';
  child.stdout?.resume();
  child.stderr?.on('data', (chunk: Buffer) => {
    log += chunk.toString();
  });
  return { child, url, log: () => log };
}

/** Sends `signal` and waits for the process to exit; returns its exit code and how long that took. */
export async function stopProcess(
  child: ChildProcess,
  signal: NodeJS.Signals,
): Promise<{ code: number | null; ms: number }> {
  const started = performance.now();
  const exited = exitCode(child);
  child.kill(signal);
  const code = await exited;
  return { code, ms: performance.now() - started };
}

/**
 * Migrates the database `env` names (seeding it when asked) and creates a token on it, before any server holds an
 * embedded store. An embedded store that does not exist yet starts as a copy of the run's migrated empty one.
 */
export async function prepareDatabase(
  env: NodeJS.ProcessEnv,
  options: { plan?: 'starter' | 'professional' | 'enterprise'; seedScale?: number } = {},
): Promise<string> {
  const config = loadConfig({ ...process.env, DATABASE_URL: '', DATA_DIR: '', ...env });
  const plans = loadPlans(config.plansFile);
  if (!config.databaseUrl && !existsSync(config.dataDir)) await copyEmptyStore(config.dataDir);
  const handle = await openDatabase(config);
  try {
    await migrateDatabase(handle, plans.keys());
    if (options.seedScale) {
      const { seedDatabase } = await import('../../../seeds/seed-database.ts');
      await seedDatabase(handle, { scale: options.seedScale });
    }
    return (await createToken(handle.db, plans, { plan: options.plan ?? 'enterprise', label: 'reliability' }))
      .token;
  } finally {
    await handle.close();
  }
}

/** Polls `url` until it answers `status`; returns the time that took. */
export async function waitForStatus(url: string, status: number, boundMs = 30_000): Promise<number> {
  const started = performance.now();
  for (;;) {
    try {
      if ((await fetch(url)).status === status) return performance.now() - started;
    } catch {
      // not listening yet
    }
    if (performance.now() - started > boundMs)
      throw new Error(`${url} did not answer ${status} within ${boundMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
