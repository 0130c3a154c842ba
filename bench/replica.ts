// A read replica's two failures, measured against the server as it runs: a primary and its streaming replica made
// from the machine's PostgreSQL server binaries (test/topology/streaming-replica.ts), the server on a free port.
// 0. The replica healthy: autocannon, c=8, 5 s on one organisation (requests/s, p50, p99).
// 1. The replica stopped under load: autocannon, c=8, 10 s on one organisation; the replica stops at 2 s and starts
//    again at 6 s; the answers by status, and /readyz's statuses sampled every 250 ms.
// 2. Replay paused: 50 rounds of an event inserted on the primary, read from the saved search's feed, then by its
//    reference; how many of those reads answered 404.
// `npx tsx bench/replica.ts` writes its figures to bench/runs/<date>-replica.json and prints them.
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import { createToken } from '../src/auth/tokens.ts';
import { loadConfig } from '../src/config.ts';
import { startServer } from '../src/server/listen.ts';
import { findServerBinaries, startStreamingReplica } from '../test/topology/streaming-replica.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function unlimitedPlansFile(): string {
  const unlimited = {
    rateLimit: { requests: 1_000_000_000, windowSeconds: 60 },
    graphqlCost: { points: 1_000_000_000, windowSeconds: 60, maxPerQuery: 20_000 },
  };
  const areas = ['organisations', 'people', 'suggestions', 'events', 'searches', 'ownership', 'articles'];
  const file = join(mkdtempSync(join(tmpdir(), 'orgraph-bench-replica-')), 'plans.json');
  writeFileSync(
    file,
    JSON.stringify({
      starter: { covers: areas.slice(0, 3), ...unlimited },
      professional: { covers: areas.slice(0, 6), ...unlimited },
      enterprise: { covers: areas, ...unlimited },
    }),
  );
  return file;
}

const binaries = findServerBinaries();
if ('missing' in binaries) throw new Error(`Cannot make a replica: ${binaries.missing}`);
const pair = await startStreamingReplica(binaries.dir);
const config = loadConfig({
  ...process.env,
  DATABASE_URL: pair.primaryUrl,
  DATABASE_READ_URL: pair.replicaUrl,
  PORT: '0',
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  REDIS_URL: '',
  ACTIVITY_REFRESH_SECONDS: '0',
  WEBHOOK_POLL_MS: '0',
  PLANS_FILE: unlimitedPlansFile(),
});
const server = await startServer(config);
const results: Record<string, unknown> = { commit: process.env.BENCH_LABEL ?? 'this tree' };
try {
  const { db, plans } = server.services;
  const token = (await createToken(db, plans, { plan: 'enterprise', label: 'bench-replica' })).token;
  const headers = { Authorization: `Bearer ${token}`, Accept: 'application/json' };
  const organisation = randomUUID();
  await db.execute(sql`
    insert into organisations (reference, name, status, verified, confidence, is_fund, employees)
    values (${organisation}, 'Replicated', 'active', true, 90, false, 10)`);
  await sleep(500);

  // 0. The replica healthy: the same load, for what routing costs when nothing fails.
  const healthy = await autocannon({
    url: `${server.url}/v1/organisations/${organisation}`,
    connections: 8,
    duration: 5,
    headers,
  });
  results.healthy = {
    requestsPerSecond: healthy.requests.average,
    p50Ms: healthy.latency.p50,
    p99Ms: healthy.latency.p99,
    non2xx: healthy.non2xx,
  };

  // 1. The replica stopped under load.
  const readyz: Record<string, number> = {};
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      const response = await fetch(`${server.url}/readyz`).catch(() => undefined);
      const key = response
        ? `${response.status} ${((await response.json()) as { status: string }).status}`
        : 'none';
      readyz[key] = (readyz[key] ?? 0) + 1;
      await sleep(250);
    }
  })();
  const load = autocannon({
    url: `${server.url}/v1/organisations/${organisation}`,
    connections: 8,
    duration: 10,
    headers,
  });
  await sleep(2_000);
  await pair.stopReplica();
  await sleep(4_000);
  await pair.startReplica();
  const loaded = await load;
  sampling = false;
  await sampler;
  const statuses = Object.fromEntries(
    Object.entries(loaded.statusCodeStats ?? {}).map(([status, { count }]) => [status, count]),
  );
  results.stoppedUnderLoad = { statuses, errors: loaded.errors, timeouts: loaded.timeouts, readyz };

  // 2. Replay paused: what the feed announces, read by reference.
  const saved = await fetch(`${server.url}/v1/search/events`, {
    method: 'POST',
    headers: { ...headers, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      query: [{ fieldType: 'EventType', label: 'Funding', value: 'funding', operator: 'EQUAL' }],
    }),
  });
  const { queryId } = ((await saved.json()) as { success: { queryId: string } }).success;
  const feedUrl = (after?: string) =>
    `${server.url}/v1/searches/${queryId}/feed${after ? `?after=${encodeURIComponent(after)}` : ''}`;
  let cursor = ((await (await fetch(feedUrl(), { headers })).json()) as { meta: { cursor: string } }).meta
    .cursor;
  await pair.pauseReplay();
  const byReference: Record<string, number> = {};
  let announced = 0;
  let missingFromList = 0;
  try {
    for (let round = 0; round < 50; round += 1) {
      const reference = randomUUID();
      await db.execute(sql`
        insert into events (reference, type, summary, publish_date, organisation_reference)
        values (${reference}, 'funding', 'A round', now(), ${organisation})`);
      const feed = (await (await fetch(feedUrl(cursor), { headers })).json()) as {
        success: { reference: string }[];
        meta: { cursor: string };
      };
      cursor = feed.meta.cursor;
      if (!feed.success.some((row) => row.reference === reference)) continue;
      announced += 1;
      const status = (await fetch(`${server.url}/v1/events/${reference}`, { headers })).status;
      byReference[status] = (byReference[status] ?? 0) + 1;
      const list = (await (
        await fetch(`${server.url}/v1/events?queryId=${queryId}&limit=100`, { headers })
      ).json()) as {
        success: { reference: string }[];
      };
      if (!list.success.some((row) => row.reference === reference)) missingFromList += 1;
    }
  } finally {
    await pair.resumeReplay();
  }
  results.replayPaused = { announced, byReference, missingFromList };
} finally {
  await server.shutdown();
  await pair.close();
}
console.log(JSON.stringify(results, null, 2));
mkdirSync(join(import.meta.dirname, 'runs'), { recursive: true });
writeFileSync(
  join(
    import.meta.dirname,
    'runs',
    `${new Date().toISOString().slice(0, 19).replaceAll(':', '-')}-replica.json`,
  ),
  `${JSON.stringify(results, null, 2)}\n`,
);
process.exit(0);
