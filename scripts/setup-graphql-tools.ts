/**
 * `npm run tools:setup`: installs `scripts/graphql-tools/` (`npm ci` on Node 24's npm, from `npx -p node@24`) and
 * records which Node runs the tools, for `npm run lint` and the codegen test. The one step of the test setup that
 * needs the npm registry; CI runs it before `npm test` (.ci/run). Does nothing when the current lock is installed.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { graphqlToolsMissing, lockDigest, stampFile, type ToolsStamp, toolsFolder } from './graphql-tools.ts';

function npxNode24(args: string[]) {
  return spawnSync('npx', ['-y', '-p', 'node@24', '--', ...args], {
    cwd: toolsFolder,
    encoding: 'utf8',
    timeout: 600_000,
    env: { ...process.env, NODE_OPTIONS: '', npm_config_update_notifier: 'false' },
  });
}

function fail(what: string, result: ReturnType<typeof npxNode24>): never {
  process.stderr.write(
    `${what} failed:\n${result.stdout ?? ''}${result.stderr ?? ''}${result.error ?? ''}\n`,
  );
  process.exit(1);
}

if (!graphqlToolsMissing()) {
  process.stdout.write('scripts/graphql-tools is set up\n');
  process.exit(0);
}

process.stdout.write('Installing scripts/graphql-tools (npm ci on Node 24)...\n');
const install = npxNode24(['npm', 'ci', '--no-audit', '--no-fund']);
if (install.status !== 0) fail('npm ci in scripts/graphql-tools', install);
const node = npxNode24(['node', '-p', 'process.execPath']);
if (node.status !== 0) fail('finding Node 24', node);
const record: ToolsStamp = { lock: lockDigest(toolsFolder), node: node.stdout.trim() };
writeFileSync(stampFile(toolsFolder), `${JSON.stringify(record)}\n`);
process.stdout.write(`scripts/graphql-tools is set up (Node ${record.node})\n`);
