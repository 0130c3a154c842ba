/**
 * The GraphQL tools whose dependencies need Node ≥ 22.15 (@graphql-eslint, GraphQL Code Generator's CLI) live in
 * `scripts/graphql-tools/`, with their own package.json and lock, so that `npm ci` stays warning-free on Node 20.
 * `npm run tools:setup` installs them (the npm registry is needed then, and only then) and records the Node they run
 * on; the lint and the tests that use them never install anything, and say why they skip when they are absent.
 */

import { type SpawnSyncReturns, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repositoryRoot = fileURLToPath(new URL('..', import.meta.url));
export const toolsFolder = join(repositoryRoot, 'scripts/graphql-tools');
/** The oldest Node the tools' dependencies accept. */
export const toolsNodeVersion = [22, 15] as const;

/** What `tools:setup` writes after a successful install: the lock it installed and the Node to run the tools on. */
export interface ToolsStamp {
  lock: string;
  node: string;
}

export const stampFile = (folder: string) => join(folder, 'node_modules/.orgraph-installed.json');

export function lockDigest(folder: string): string {
  return createHash('sha256')
    .update(readFileSync(join(folder, 'package-lock.json')))
    .digest('hex');
}

/** True when `version` (`process.versions.node`'s form) is at least the tools' Node. */
export function nodeFitsTools(version: string): boolean {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  const [needMajor, needMinor] = toolsNodeVersion;
  return major > needMajor || (major === needMajor && minor >= needMinor);
}

const setupHint = 'run `npm run tools:setup` once (it needs the npm registry)';

/** Why the tools of `folder` cannot run, or undefined when they are installed from its current lock. */
export function graphqlToolsMissing(folder: string = toolsFolder): string | undefined {
  const file = stampFile(folder);
  if (!existsSync(file)) return `the GraphQL tools are not installed in ${folder}; ${setupHint}`;
  let stamp: Partial<ToolsStamp>;
  try {
    stamp = JSON.parse(readFileSync(file, 'utf8')) as Partial<ToolsStamp>;
  } catch {
    return `${file} is unreadable; ${setupHint}`;
  }
  if (stamp.lock !== lockDigest(folder)) {
    return `the GraphQL tools in ${folder} were installed from another package-lock.json; ${setupHint}`;
  }
  if (!nodeFitsTools(process.versions.node) && !(stamp.node && existsSync(stamp.node))) {
    return `the GraphQL tools need Node ≥ ${toolsNodeVersion.join('.')} and the one they were set up with (${stamp.node}) is gone; ${setupHint}`;
  }
  return undefined;
}

/** The Node to run the tools on: this one when it is recent enough, else the one `tools:setup` recorded. */
function toolsNode(folder: string): string {
  if (nodeFitsTools(process.versions.node)) return process.execPath;
  return (JSON.parse(readFileSync(stampFile(folder), 'utf8')) as ToolsStamp).node;
}

/**
 * Runs a file of `scripts/graphql-tools/node_modules` (a tool's entry point) on a Node ≥ 22.15. Throws with the
 * reason when the tools are not set up: callers check `graphqlToolsMissing()` first to skip instead.
 */
export function runGraphqlTool(
  entry: string,
  args: string[],
  options: { cwd?: string; timeoutMs?: number } = {},
): SpawnSyncReturns<string> {
  const missing = graphqlToolsMissing();
  if (missing) throw new Error(missing);
  return spawnSync(toolsNode(toolsFolder), [join(toolsFolder, 'node_modules', entry), ...args], {
    cwd: options.cwd ?? repositoryRoot,
    encoding: 'utf8',
    timeout: options.timeoutMs ?? 300_000,
    env: { ...process.env, NODE_OPTIONS: '' },
  });
}
