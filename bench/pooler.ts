/**
 * orgraph behind PgBouncer in transaction mode, measured with real parts (bench/NOTES.md 62): two `orgraph serve`
 * processes of the source tree `--tree` (default: this one) on a database of their own, through a PgBouncer
 * started here on a free loopback port. It measures how long a revoked token keeps working, the protocol errors
 * PostgreSQL logs under 10 s of load, how long after an import's commit a subscription and a webhook hear of it,
 * and whether an import under API load stores everything.
 *
 *   npx tsx bench/pooler.ts [--tree <dir>] [--ignore-startup-parameters]
 *
 * `--ignore-startup-parameters` configures PgBouncer to drop the parameters a stock one refuses (the workaround
 * a tree that sends them needs to start at all). The PostgreSQL server is 127.0.0.1:5432, its log read from
 * /var/log/postgresql (its lines carry the database name). Results go to bench/runs/.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import autocannon from 'autocannon';
import postgres from 'postgres';
import { startPgbouncer } from '../test/topology/support/pgbouncer.ts';

const args = process.argv.slice(2);
const tree = resolve(args.includes('--tree') ? args[args.indexOf('--tree') + 1]! : '.');
const ignoreStartup = args.includes('--ignore-startup-parameters');
const server = 'postgres://postgres@127.0.0.1:5432';
const name = `orgraph_pooler_bench_${process.pid}`;
const direct = `${server}/${name}`;
const runDirectory = join(import.meta.dirname, 'runs');

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

async function when(check: () => boolean | Promise<boolean>, boundMs: number): Promise<number | null> {
  const deadline = performance.now() + boundMs;
  while (!(await check())) {
    if (performance.now() > deadline) return null;
    await sleep(10);
  }
  return performance.now();
}

function startInstance(env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [join(tree, 'bin/orgraph.js'), 'serve'], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return new Promise((done, fail) => {
    let log = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      const match = log.match(/listening on (http:\/\/\S+?) /);
      if (match?.[1]) done({ child, url: match[1] });
    });
    child.once('exit', (code) => fail(new Error(`orgraph exited with ${code}:\n${log}`)));
  });
}

/** The PostgreSQL log's lines about this run's database written while `work` ran. */
async function logLines<T>(work: () => Promise<T>): Promise<{ result: T; lines: string[] }> {
  const directory = '/var/log/postgresql';
  const files = (await readdir(directory)).filter((file) => file.endsWith('.log'));
  const sizes = await Promise.all(files.map(async (file) => (await stat(join(directory, file))).size));
  const result = await work();
  await sleep(200);
  const lines: string[] = [];
  for (const [index, file] of files.entries()) {
    const text = (await readFile(join(directory, file))).subarray(sizes[index]).toString();
    lines.push(...text.split('\n').filter((line) => line.includes(`@${name} `)));
  }
  return { result, lines };
}

const admin = postgres(`${server}/postgres`, { max: 1, onnotice: () => {} });
await admin.unsafe(`create database ${name}`);
const bouncer = await startPgbouncer(direct, 'transaction', {
  ignoreStartupParameters: ignoreStartup
    ? [
        'statement_timeout',
        'max_parallel_workers_per_gather',
        'jit',
        'temp_buffers',
        'work_mem',
        'maintenance_work_mem',
      ]
    : undefined,
});
const files = await mkdtemp(join(tmpdir(), 'orgraph-pooler-bench-'));
const env = {
  DATABASE_URL: bouncer.through(direct),
  DATABASE_DIRECT_URL: direct,
  WEBHOOK_ALLOW_PRIVATE: 'true',
  ACTIVITY_REFRESH_SECONDS: '0',
  DATA_DIR: '',
};
const children: ChildProcess[] = [];
const results: Record<string, unknown> = { tree, ignoreStartupParameters: ignoreStartup };
const pooled = postgres(env.DATABASE_URL, { max: 2, prepare: false, onnotice: () => {} });
try {
  await promisify(execFile)(process.execPath, [join(tree, 'bin/orgraph.js'), 'migrate'], {
    env: { ...process.env, ...env, DATABASE_URL: direct },
  });
  const instances = await Promise.all([startInstance(env), startInstance(env)]);
  children.push(...instances.map((instance) => instance.child));

  const newToken = async () => {
    const token = `orgr_${randomBytes(32).toString('base64url')}`;
    const id = randomUUID();
    await pooled`insert into api_tokens (id, token_hash, hint, plan)
      values (${id}, ${createHash('sha256').update(token).digest('hex')}, ${token.slice(0, 11)}, 'enterprise')`;
    return { token, id };
  };
  const call = (url: string, path: string, token: string, init: RequestInit = {}) =>
    fetch(`${url}${path}`, {
      ...init,
      headers: { Authorization: `Bearer ${token}`, Accept: 'application/json', ...init.headers },
    });

  // 1. Revocation: both instances answered the token (and cached it); how long until both refuse it.
  {
    const { token, id } = await newToken();
    for (const instance of instances)
      for (let n = 0; n < 2; n += 1) await call(instance.url, '/v1/organisations?limit=1', token);
    await pooled`update api_tokens set revoked_at = now() where id = ${id}`;
    const revokedAt = performance.now();
    const refused = await Promise.all(
      instances.map((instance) =>
        when(
          async () => (await call(instance.url, '/v1/organisations?limit=1', token)).status === 401,
          70_000,
        ),
      ),
    );
    results.revocationMs = refused.map((at) =>
      at === null ? 'not within 70 s' : Math.round(at - revokedAt),
    );
  }

  // 2. Load: 10 s, 8 connections, on one instance; the protocol errors PostgreSQL logged meanwhile.
  {
    const { token } = await newToken();
    const { result, lines } = await logLines(() =>
      autocannon({
        url: `${instances[0]!.url}/v1/organisations?limit=5`,
        connections: 8,
        duration: 10,
        headers: { Authorization: `Bearer ${token}` },
      }),
    );
    results.load = {
      requests: result.requests.total,
      non2xx: result.non2xx,
      errors: result.errors,
      preparedStatementErrors: lines.filter((line) => /prepared statement .* does not exist/.test(line))
        .length,
      errorLines: lines.filter((line) => /ERROR/.test(line)).length,
    };
  }

  const dealsFile = async (dealType: string, count: number) => {
    const ref = () => randomUUID();
    const [acquirer, acquiree] = [ref(), ref()];
    const organisation = (reference: string) => ({
      type: 'organisation',
      reference,
      name: `Bench ${reference.slice(0, 8)}`,
      status: 'active',
      verified: true,
      confidence: 80,
      totals: { employees: 10 },
    });
    const deals = Array.from({ length: count }, (_, index) => ({
      type: 'event',
      reference: ref(),
      event_type: 'deal',
      summary: `Deal ${index}`,
      publish_date: '2025-07-01T12:00:00Z',
      organisation_reference: acquirer,
      acquirer_reference: acquirer,
      acquiree_reference: acquiree,
      deal_type: dealType,
      deal_status: 'Completed',
    }));
    const path = join(files, `${dealType}.ndjson`);
    await writeFile(
      path,
      [organisation(acquirer), organisation(acquiree), ...deals]
        .map((line) => JSON.stringify(line))
        .join('\n'),
    );
    return path;
  };
  const importFile = (path: string) =>
    promisify(execFile)(
      process.execPath,
      [join(tree, 'bin/orgraph.js'), 'import', path, '--rejects', `${path}.rejects`],
      {
        env: { ...process.env, ...env },
      },
    ).then(
      () => 0,
      (error: { code?: number; stderr?: string }) => ({
        exit: error.code,
        stderr: error.stderr?.split('\n').find((line) => /error|does not exist|refused/i.test(line)),
      }),
    );
  const countDeals = async (dealType: string) =>
    (await pooled<{ n: number }[]>`select count(*)::int as n from events where deal_type = ${dealType}`)[0]!
      .n;

  // 3. An import's commit: how long until a subscription (instance 1) and a webhook (instance 2) hear of it.
  {
    const { token } = await newToken();
    const dealType = `bench-${randomUUID()}`;
    const saved = await call(instances[0]!.url, '/v1/search/events', token, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        query: [{ fieldType: 'DealType', label: dealType, value: dealType, operator: 'EQUAL' }],
      }),
    });
    const { queryId } = ((await saved.json()) as { success: { queryId: string } }).success;
    const hooks: number[] = [];
    const receiver = createServer((request, response) => {
      hooks.push(performance.now());
      request.resume();
      response.writeHead(200).end();
    });
    await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
    await call(instances[1]!.url, '/v1/webhooks', token, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        queryId,
        url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
      }),
    });
    const stream = await call(instances[0]!.url, '/graphql', token, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream' },
      body: JSON.stringify({
        query: 'subscription ($q: UUID!) { savedSearchEvents(queryId: $q) { change } }',
        variables: { q: queryId },
      }),
    });
    const pushed: number[] = [];
    const reader = stream.body!.getReader();
    const reading = (async () => {
      const decoder = new TextDecoder();
      for (;;) {
        const chunk = await reader.read();
        if (chunk.done) return;
        if (/event: next/.test(decoder.decode(chunk.value))) pushed.push(performance.now());
      }
    })().catch(() => {});
    const path = await dealsFile(dealType, 5);
    let committedAt = 0;
    const watching = when(async () => (await countDeals(dealType)) === 5, 60_000).then((at) => {
      committedAt = at ?? Number.NaN;
    });
    const exit = await importFile(path);
    await watching;
    await when(() => pushed.length > 0 && hooks.length > 0, 40_000);
    await reader.cancel();
    await reading;
    receiver.closeAllConnections();
    receiver.close();
    results.afterImportCommit = {
      importExit: exit,
      subscriptionMs: pushed.length ? Math.round(pushed[0]! - committedAt) : 'not within 40 s',
      webhookMs: hooks.length ? Math.round(hooks[0]! - committedAt) : 'not within 40 s',
    };
  }

  // 4. An import of 1,000 deals while both instances serve 8 connections of API requests.
  {
    const { token } = await newToken();
    const dealType = `bench-load-${randomUUID()}`;
    const path = await dealsFile(dealType, 1_000);
    const loads = instances.map((instance) =>
      autocannon({
        url: `${instance.url}/v1/organisations?limit=5`,
        connections: 4,
        duration: 60,
        headers: { Authorization: `Bearer ${token}` },
      }),
    );
    const exit = await importFile(path);
    for (const load of loads) (load as unknown as { stop(): void }).stop();
    const done = await Promise.all(loads);
    results.importUnderLoad = {
      importExit: exit,
      stored: await countDeals(dealType),
      of: 1_000,
      requests: done.reduce((sum, run) => sum + run.requests.total, 0),
      non2xx: done.reduce((sum, run) => sum + run.non2xx, 0),
    };
  }
} finally {
  for (const child of children) child.kill('SIGTERM');
  await sleep(1_000);
  await pooled.end({ timeout: 1 });
  await bouncer.stop();
  await admin.unsafe(`drop database if exists ${name} with (force)`);
  await admin.end({ timeout: 1 });
  await rm(files, { recursive: true, force: true });
}
console.log(JSON.stringify(results, null, 2));
await mkdir(runDirectory, { recursive: true });
await writeFile(
  join(runDirectory, `pooler-${new Date().toISOString().replaceAll(':', '-')}.json`),
  `${JSON.stringify(results, null, 2)}\n`,
);
