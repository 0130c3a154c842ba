// The delays of following a saved search, on PostgreSQL: from an event's commit to its webhook's arrival at a
// loopback receiver and to its Server-Sent Event, median and p99 over N events (one transaction each), and the
// feed's read throughput. `npm run bench -- --follow [--events N] [--gap-ms M]` with DATABASE_URL naming a seeded database.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { loadPlans } from '../src/auth/plans.ts';
import { createToken } from '../src/auth/tokens.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/database.ts';
import { migrateDatabase } from '../src/db/migrate.ts';
import { listenTo } from '../src/db/notifications.ts';
import { announceChanges, changeChannel } from '../src/domain/feed/change-signal.ts';
import { startWebhookWorker } from '../src/rest/webhook-worker.ts';
import { createApp } from '../src/server/app.ts';

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};

export async function runFollowBench(argv: string[]): Promise<void> {
  const events = Number(argv[argv.indexOf('--events') + 1]) || 1000;
  // The pause between commits: 5 ms by default (the worker's throughput shows), longer to see each delay alone.
  const gapMs = argv.includes('--gap-ms') ? Number(argv[argv.indexOf('--gap-ms') + 1]) : 5;
  const config = loadConfig({ ...process.env, WEBHOOK_ALLOW_PRIVATE: 'true', LOG_LEVEL: 'warn' });
  if (!config.databaseUrl)
    throw new Error('The follow bench needs DATABASE_URL (a seeded PostgreSQL database).');
  const plans = loadPlans(config.plansFile);
  const handle = await openDatabase(config);
  await migrateDatabase(handle, plans.keys());
  const token = (await createToken(handle.db, plans, { plan: 'enterprise', label: 'bench-follow' })).token;
  const app = createApp({
    config,
    handle,
    db: handle.db,
    reads: null,
    plans,
    readiness: { accepting: true },
    closing: new AbortController().signal,
  });
  const stopListening = await listenTo(handle, changeChannel, announceChanges);
  const committed = new Map<string, number>();
  const webhookAt = new Map<string, number>();
  const sseAt = new Map<string, number>();

  const receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    request.on('end', () => {
      const now = performance.now();
      for (const row of (JSON.parse(body) as { data: { rows: { reference: string }[] } }).data.rows)
        webhookAt.set(row.reference, now);
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  const worker = startWebhookWorker(handle.db, {
    allowPrivate: true,
    retrySeconds: [1],
    pollMs: config.webhookPollMs,
  });

  const dealType = `bench-follow-${randomUUID()}`;
  const call = (path: string, init: RequestInit = {}) =>
    app.fetch(
      new Request(`http://bench.local${path}`, {
        ...init,
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', ...init.headers },
      }),
    );
  const saved = await call('/v1/search/events', {
    method: 'POST',
    body: JSON.stringify({
      query: [{ fieldType: 'DealType', label: 'bench', value: dealType, operator: 'EQUAL' }],
    }),
  });
  const queryId = ((await saved.json()) as { success: { queryId: string } }).success.queryId;
  const start = ((await (await call(`/v1/searches/${queryId}/feed`)).json()) as { meta: { cursor: string } })
    .meta.cursor;
  await call('/v1/webhooks', { method: 'POST', body: JSON.stringify({ queryId, url }) });
  const closeStream = new AbortController();
  const stream = await call('/graphql', {
    method: 'POST',
    signal: closeStream.signal,
    headers: { Accept: 'text/event-stream' },
    body: JSON.stringify({
      query: `subscription ($q: UUID!) { savedSearchEvents(queryId: $q) { event { reference } } }`,
      variables: { q: queryId },
    }),
  });
  const reader = stream.body!.getReader();
  const decoder = new TextDecoder();
  const reading = (async () => {
    let buffer = '';
    const deadline = Date.now() + 10 * 60_000;
    while (sseAt.size < events && Date.now() < deadline) {
      const chunk = await reader.read();
      if (chunk.done) break;
      const now = performance.now();
      buffer += decoder.decode(chunk.value, { stream: true });
      for (const match of buffer.matchAll(/"reference":"([0-9a-f-]{36})"/g))
        if (!sseAt.has(match[1]!)) sseAt.set(match[1]!, now);
      buffer = buffer.slice(Math.max(0, buffer.lastIndexOf('\n\n')));
    }
  })();
  await new Promise((resolve) => setTimeout(resolve, 500));

  for (let index = 0; index < events; index += 1) {
    const reference = randomUUID();
    await handle.db.execute(
      sql.raw(`insert into events (reference, type, summary, publish_date, organisation_reference, acquirer_reference,
        acquiree_reference, deal_type, deal_status, details)
      select '${reference}'::uuid, type, 'bench', publish_date, organisation_reference, acquirer_reference,
        acquiree_reference, '${dealType}', deal_status, details
      from events where type = 'deal' and acquirer_reference is not null order by reference limit 1`),
    );
    committed.set(reference, performance.now());
    await new Promise((resolve) => setTimeout(resolve, gapMs));
  }
  const waitStarted = Date.now();
  while ((webhookAt.size < events || sseAt.size < events) && Date.now() - waitStarted < 120_000)
    await new Promise((resolve) => setTimeout(resolve, 100));
  // The request's end first, as a client going away: it wakes the subscription's wait, which then ends, rather
  // than the cancel waiting on that wait (up to its 30 s) and the stream reading again as the database closes.
  closeStream.abort();
  await reader.cancel().catch(() => {});
  await reading.catch(() => {});

  const feedStarted = performance.now();
  let cursor = start;
  let rows = 0;
  for (let page = 0; page < 10_000; page += 1) {
    const body = (await (
      await call(`/v1/searches/${queryId}/feed?after=${encodeURIComponent(cursor)}&limit=100`)
    ).json()) as {
      success: unknown[];
      meta: { cursor: string; has_more: boolean };
    };
    rows += body.success.length;
    cursor = body.meta.cursor;
    if (!body.meta.has_more) break;
  }
  const feedSeconds = (performance.now() - feedStarted) / 1000;

  const delays = (arrivals: Map<string, number>) =>
    [...committed]
      .filter(([reference]) => arrivals.has(reference))
      .map(([reference, at]) => arrivals.get(reference)! - at);
  const report = (name: string, arrivals: Map<string, number>) => {
    const values = delays(arrivals);
    return `${name}: ${values.length}/${events} arrived; median ${percentile(values, 50).toFixed(1)} ms, p99 ${percentile(values, 99).toFixed(1)} ms`;
  };
  console.log(`${events} events, one transaction each, ${gapMs} ms apart`);
  console.log(report('commit → webhook', webhookAt));
  console.log(report('commit → SSE', sseAt));
  console.log(
    `feed: ${rows} rows in ${feedSeconds.toFixed(2)} s (${Math.round(rows / feedSeconds)} rows/s, pages of 100)`,
  );
  console.log(
    `(the webhook worker and the SSE stream are woken by NOTIFY; WEBHOOK_POLL_MS=${config.webhookPollMs} is the worker's safety net)`,
  );

  await worker.stop();
  await stopListening();
  await handle.db.execute(sql`update webhook_subscriptions set status = 'ended' where url = ${url}`);
  await handle.db.execute(sql`delete from events where deal_type = ${dealType}`);
  receiver.close();
  await handle.close();
}
