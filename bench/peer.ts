import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import postgres from 'postgres';
import { repositoryRoot } from './dataset.ts';
import { type BenchServer, freePort, memorySampler } from './server.ts';

/**
 * PostGraphile v5, the peer the graph is compared with. It needs Node ≥ 22 while orgraph installs on
 * Node 20, so it lives in its own folder (`bench/peer/`, own package.json and lock) and runs on the Node
 * of `npx -p node@24`; the bench installs it there on first use (`npm ci --prefix bench/peer`).
 */
const peerFolder = join(repositoryRoot, 'bench/peer');
const nodeOfPeer = ['-y', '-p', 'node@24', '--'];

async function installPeer(): Promise<void> {
  if (existsSync(join(peerFolder, 'node_modules/postgraphile/package.json'))) return;
  process.stdout.write('Installing the PostGraphile peer (npm ci --prefix bench/peer on Node 24)...\n');
  await promisify(execFile)(
    'npx',
    [...nodeOfPeer, 'npm', 'ci', '--prefix', peerFolder, '--no-audit', '--no-fund'],
    { cwd: repositoryRoot, timeout: 600_000 },
  );
}

/**
 * The rule PostGraphile's generated relations cannot express (a person's articles, `bench/peer/nested-articles.sql`),
 * created before PostGraphile starts so that its introspection finds it as a computed column.
 */
async function createPeerFunctions(databaseUrl: string): Promise<void> {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe(readFileSync(join(peerFolder, 'nested-articles.sql'), 'utf8'));
  } finally {
    await sql.end();
  }
}

/**
 * Starts PostGraphile (`bench/peer/server.mjs`) on `databaseUrl` on a free loopback port with a pool of
 * `poolMax` connections, as production runs it (`NODE_ENV=production`), and waits until it answers a query.
 * Its memory is sampled from /proc every 250 ms, like orgraph's server.
 */
export async function startPeer(databaseUrl: string, poolMax: number): Promise<BenchServer> {
  await installPeer();
  await createPeerFunctions(databaseUrl);
  const port = await freePort();
  const child: ChildProcess = spawn('npx', [...nodeOfPeer, 'node', join(peerFolder, 'server.mjs')], {
    cwd: peerFolder,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      DATABASE_URL: databaseUrl,
      DATABASE_POOL_MAX: String(poolMax),
      PORT: String(port),
      NODE_OPTIONS: '',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
    detached: true,
  });
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  // npx starts node as a child: the PostGraphile process is the one that prints `ready <port>`, with its pid.
  let serverPid: number | undefined;
  child.stdout?.on('data', (chunk: Buffer) => {
    const match = chunk.toString().match(/ready (\d+) (\d+)/);
    if (match) serverPid = Number(match[2]);
  });

  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (exited) throw new Error('the PostGraphile peer exited before it was ready');
    if (serverPid !== undefined) {
      try {
        const response = await fetch(`${baseUrl}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query: '{ __typename }' }),
        });
        if (response.ok) break;
      } catch {
        // Not listening yet.
      }
    }
    if (Date.now() > deadline) {
      if (child.pid) process.kill(-child.pid, 'SIGTERM');
      throw new Error('the PostGraphile peer was not ready within 180 s');
    }
    await sleep(250);
  }
  const pid = serverPid!;
  const memory = memorySampler(pid);
  memory.sample();

  return {
    baseUrl,
    pid,
    peakRssMb: memory.peakRssMb,
    rssMb: memory.rssMb,
    async stop() {
      memory.stop();
      if (exited || !child.pid) return;
      const done = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      // The whole group: npx and the node it started.
      process.kill(-child.pid, 'SIGTERM');
      const timeout = sleep(15_000).then(() => {
        if (!exited && child.pid) process.kill(-child.pid, 'SIGKILL');
      });
      await Promise.race([done, timeout]);
    },
  };
}
