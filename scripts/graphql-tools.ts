/**
 * The GraphQL tools whose dependencies need Node ≥ 22.15 (@graphql-eslint, GraphQL Code Generator's CLI) live in
 * `scripts/graphql-tools/`, with their own package.json and lock, so that `npm ci` stays warning-free on Node 20.
 * They are installed there on first use (`npm ci`, only the npm registry is needed) and run on the Node of
 * `npx -p node@24`, as the bench runs its PostGraphile peer.
 */

import { type SpawnSyncReturns, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repositoryRoot = fileURLToPath(new URL('..', import.meta.url));
export const toolsFolder = join(repositoryRoot, 'scripts/graphql-tools');
const node24 = ['-y', '-p', 'node@24', '--'];
/** Written after a successful install: the SHA-256 of the lock it installed, so a changed lock reinstalls. */
const stamp = join(toolsFolder, 'node_modules/.orgraph-installed-lock');

function lockDigest(): string {
  return createHash('sha256')
    .update(readFileSync(join(toolsFolder, 'package-lock.json')))
    .digest('hex');
}

function npx(args: string[], cwd: string, timeoutMs: number): SpawnSyncReturns<string> {
  return spawnSync('npx', [...node24, ...args], {
    cwd,
    encoding: 'utf8',
    timeout: timeoutMs,
    env: { ...process.env, NODE_OPTIONS: '', npm_config_update_notifier: 'false' },
  });
}

/** Installs `scripts/graphql-tools/` (Node 24's npm, `npm ci`) unless its lock is the one installed. */
export function ensureGraphqlTools(): void {
  const digest = lockDigest();
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === digest) return;
  process.stderr.write('Installing scripts/graphql-tools (npm ci on Node 24)...\n');
  const install = npx(['npm', 'ci', '--no-audit', '--no-fund'], toolsFolder, 600_000);
  if (install.status !== 0) {
    throw new Error(`npm ci in scripts/graphql-tools failed:\n${install.stdout}${install.stderr}`);
  }
  writeFileSync(stamp, digest);
}

/** Runs a file of `scripts/graphql-tools/node_modules` (a tool's entry point) on Node 24, installing first. */
export function runGraphqlTool(
  entry: string,
  args: string[],
  options: { cwd?: string; timeoutMs?: number } = {},
): SpawnSyncReturns<string> {
  ensureGraphqlTools();
  return npx(
    ['node', join(toolsFolder, 'node_modules', entry), ...args],
    options.cwd ?? repositoryRoot,
    options.timeoutMs ?? 300_000,
  );
}
