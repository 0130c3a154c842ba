/**
 * The floor of the graph on its stack: how fast the least a graphql-yoga server can do (yoga-server.ts: Yoga's
 * defaults, one resolver, one statement) answers the brief record, against orgraph and PostGraphile v5 answering
 * the same query on the same database, interleaved round by round (bench/NOTES.md 54).
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/orgraph_bench_s100 npx tsx bench/floor/floor.ts brief|nested [rounds] [seconds]
 *
 * With FLOOR_BEFORE=<another checkout, built>, that checkout's server runs too, as `before`.
 *
 * Each server's answer to the first sample is checked against orgraph's (the bench's normalisers) before timing.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { encodeCursor } from '../../src/graphql/keyset.ts';
import { startCpuMeter } from '../cpu.ts';
import { benchPlansFile, runCli } from '../dataset.ts';
import {
  nestedRolesQuery,
  normaliseBrief,
  normaliseNestedRoles,
  normalisePeerNestedRoles,
  orderDigestOf,
  organisationBriefQuery,
  peerCursorProbe,
  peerNestedRolesQuery,
  peerOrganisationBriefQuery,
  peerOrganisationCursor,
} from '../graph-reads.ts';
import { loadHttp } from '../http-load.ts';
import { startPeer } from '../peer.ts';
import { type BenchServer, buildServer, freePort, memorySampler, startServer } from '../server.ts';

const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/orgraph_bench_s100';
const database = decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
const read = process.argv[2] === 'nested' ? 'nested' : 'brief';
const rounds = Number(process.argv[3] ?? 3);
const seconds = Number(process.argv[4] ?? 10);
const concurrency = 16;
const poolMax = 16;

async function startBareYoga(variant: string, nested = 'levels'): Promise<BenchServer> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(new URL('./yoga-server.ts', import.meta.url))],
    {
      env: {
        ...process.env,
        NODE_ENV: 'production',
        DATABASE_URL: databaseUrl,
        DATABASE_POOL_MAX: String(poolMax),
        PORT: String(port),
        FLOOR_VARIANT: variant,
        FLOOR_NESTED: nested,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error('the bare Yoga server was not ready within 60 s'));
    }, 60_000);
    child.once('exit', () => {
      clearTimeout(timer);
      reject(new Error('the bare Yoga server exited before it was ready'));
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('ready')) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  const memory = memorySampler(child.pid!);
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    peakRssMb: memory.peakRssMb,
    rssMb: memory.rssMb,
    async stop() {
      memory.stop();
      child.kill('SIGTERM');
      await sleep(500);
    },
  };
}

const sql = postgres(databaseUrl, { max: 1 });
const keys = await sql<{ name: string; reference: string }[]>`
  select name, reference::text from organisations where not is_fund order by reference limit 1000`;
await sql.end();

await buildServer();
const env = { DATABASE_URL: databaseUrl, PLANS_FILE: benchPlansFile };
const token = (await runCli(['token', 'create', '--plan', 'enterprise', '--label', 'floor'], env)).trim();
type Body = { query: string; variables: Record<string, unknown> };
interface Contender {
  server: BenchServer;
  body: (index: number) => Body;
  normalise: (body: unknown) => unknown;
}
const key = (index: number) => keys[index % keys.length]!;
const orgraphBody =
  read === 'brief'
    ? (index: number) => ({ query: organisationBriefQuery, variables: { reference: key(index).reference } })
    : (index: number) => ({ query: nestedRolesQuery, variables: { after: encodeCursor(key(index)) } });
const orgraphNormalise = read === 'brief' ? normaliseBrief : normaliseNestedRoles;
const peer = await startPeer(databaseUrl, poolMax);
const servers: Record<string, Contender> = {
  orgraph: { server: await startServer(databaseUrl), body: orgraphBody, normalise: orgraphNormalise },
};
// FLOOR_BEFORE names another checkout, built (`npm run build`), whose server runs beside this one's: a change's
// before and after in one interleaved run.
if (process.env.FLOOR_BEFORE)
  servers.before = {
    server: await startServer(databaseUrl, {}, process.env.FLOOR_BEFORE),
    body: orgraphBody,
    normalise: orgraphNormalise,
  };
if (read === 'brief') {
  servers['bare Yoga'] = {
    server: await startBareYoga('defaults'),
    body: orgraphBody,
    normalise: orgraphNormalise,
  };
  if (process.env.FLOOR_JIT)
    servers['Yoga + jit'] = {
      server: await startBareYoga('jit'),
      body: orgraphBody,
      normalise: orgraphNormalise,
    };
  servers.PostGraphile = {
    server: peer,
    body: (index) => ({ query: peerOrganisationBriefQuery, variables: { reference: key(index).reference } }),
    normalise: normaliseBrief,
  };
} else {
  servers['Yoga, levels'] = {
    server: await startBareYoga('defaults', 'levels'),
    body: orgraphBody,
    normalise: orgraphNormalise,
  };
  servers['Yoga, JSON'] = {
    server: await startBareYoga('defaults', 'json'),
    body: orgraphBody,
    normalise: orgraphNormalise,
  };
  if (process.env.FLOOR_JIT)
    servers['Yoga + jit, JSON'] = {
      server: await startBareYoga('jit', 'json'),
      body: orgraphBody,
      normalise: orgraphNormalise,
    };
  const probe = await post(peer.baseUrl, { query: peerCursorProbe, variables: {} });
  const digest = orderDigestOf(
    (probe as { data: { organisations: { edges: { cursor: string }[] } } }).data.organisations.edges[0]!
      .cursor,
  );
  servers.PostGraphile = {
    server: peer,
    body: (index) => ({
      query: peerNestedRolesQuery,
      variables: { after: peerOrganisationCursor(digest, key(index)) },
    }),
    normalise: normalisePeerNestedRoles,
  };
}

async function post(baseUrl: string, body: Body): Promise<unknown> {
  const response = await fetch(`${baseUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  return response.json();
}

const results: Record<string, { rps: number; cpu: number; db: number }[]> = {};
try {
  for (const index of [0, 1, 2]) {
    const expected = JSON.stringify(
      orgraphNormalise(await post(servers.orgraph!.server.baseUrl, orgraphBody(index))),
    );
    for (const [name, contender] of Object.entries(servers)) {
      const answer = JSON.stringify(
        contender.normalise(await post(contender.server.baseUrl, contender.body(index))),
      );
      if (answer !== expected) throw new Error(`${name} answers sample ${index} differently from orgraph`);
    }
  }
  process.stdout.write(`answers: every server gave orgraph's answer to samples 0-2\n`);
  for (let round = 1; round <= rounds; round++) {
    for (const [name, { server, body }] of Object.entries(servers)) {
      const request = (index: number) => ({
        method: 'POST' as const,
        path: '/graphql',
        body: JSON.stringify(body(index)),
      });
      const base = { baseUrl: server.baseUrl, token, concurrency, request };
      await loadHttp({ ...base, seconds: 2 });
      const meter = startCpuMeter(server.pid, database);
      const load = await loadHttp({ ...base, seconds, firstIndex: 500 });
      const cpu = meter.stop();
      if (load.errors > 0)
        throw new Error(`${name}: ${load.errors} errors (${JSON.stringify(load.errorStatuses)})`);
      const row = {
        rps: load.requestsPerSecond,
        cpu: (cpu.processMs ?? Number.NaN) / load.requests,
        db: cpu.databaseMs / load.requests,
      };
      results[name] = [...(results[name] ?? []), row];
      process.stdout.write(
        `round ${round} ${name.padEnd(12)} ${row.rps.toFixed(0).padStart(6)} req/s  server CPU ${row.cpu.toFixed(3)} ms/req  database ${row.db.toFixed(3)} ms/req\n`,
      );
    }
  }
} finally {
  for (const { server } of Object.values(servers)) await server.stop();
  await runCli(['token', 'revoke', token], env).catch(() => {});
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const peerRps = median(results.PostGraphile!.map((r) => r.rps));
for (const [name, rows] of Object.entries(results)) {
  const rps = median(rows.map((r) => r.rps));
  process.stdout.write(
    `${name.padEnd(12)} median ${rps.toFixed(0)} req/s, ${(rps / peerRps).toFixed(2)}× PostGraphile, server CPU ${median(rows.map((r) => r.cpu)).toFixed(3)} ms/req\n`,
  );
}
