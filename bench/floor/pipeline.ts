/**
 * What each piece of the request pipeline costs on the brief record (`graphql-organisation-brief`): CPU per
 * request in this process (no HTTP), with one piece left out at a time. The variants are built here, never by the
 * server: the whole app as it serves (`app`), its Yoga server called without the Hono chain (`yoga`), and Yoga
 * servers built like `createGraphqlServer` with one plugin left out. Variants alternate within each round, so load moves them alike.
 *
 *   NODE_ENV=production LOG_LEVEL=warn DATABASE_URL=…/orgraph_bench_s100 \
 *     node --import tsx bench/floor/pipeline.ts [requests per variant and round] [rounds] [variant,…]
 *
 * Reads only: the caller is a viewer held in a cache stand-in (as the server's `ViewerCache` holds one after the
 * first request), so no token is written to the bench database.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { useCSRFPrevention } from '@graphql-yoga/plugin-csrf-prevention';
import { useDeferStream } from '@graphql-yoga/plugin-defer-stream';
import { createYoga, type Plugin } from 'graphql-yoga';
import type { Hono } from 'hono';
import postgres from 'postgres';
import { loadPlans } from '../../src/auth/plans.ts';
import type { ViewerCache } from '../../src/auth/viewer-cache.ts';
import { loadConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/db/database.ts';
import { useCompiledReads } from '../../src/graphql/plugins/use-compiled-reads.ts';
import { useCostLimit } from '../../src/graphql/plugins/use-cost-limit.ts';
import { useExecutionGate } from '../../src/graphql/plugins/use-execution-gate.ts';
import { useExplainedRefusals } from '../../src/graphql/plugins/use-explained-refusals.ts';
import { usePersistedQueries } from '../../src/graphql/plugins/use-persisted-queries.ts';
import { useQueryLimits } from '../../src/graphql/plugins/use-query-limits.ts';
import { useRequestErrorCodes } from '../../src/graphql/plugins/use-request-error-codes.ts';
import { schema, schemaWithoutPlanChecks } from '../../src/graphql/schema.ts';
import {
  createGraphqlServer,
  currentResponse,
  maskError,
  useUnexpectedErrorLog,
} from '../../src/graphql/yoga.ts';
import type { AppEnv } from '../../src/http/app-env.ts';
import { createRequestContext, type RequestContext } from '../../src/http/context.ts';
import { countCostOf } from '../../src/http/limits/count-price.ts';
import { createQuotas } from '../../src/http/limits/quotas.ts';
import { useOperationMetrics } from '../../src/http/observability/graphql-metrics.ts';
import { graphqlPath } from '../../src/http/paths.ts';
import { createPersistedQueryStore } from '../../src/http/persisted-queries.ts';
import type { AppServices } from '../../src/http/services.ts';
import { createApp } from '../../src/server/app.ts';
import { benchPlansFile } from '../dataset.ts';
import { organisationBriefQuery } from '../graph-reads.ts';

const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/orgraph_bench_s100';
const requests = Number(process.argv[2] ?? 500);
const rounds = Number(process.argv[3] ?? 3);
const only = process.argv[4]?.split(',');

const sql = postgres(databaseUrl, { max: 1 });
const references = (
  await sql<{ reference: string }[]>`
    select reference::text from organisations where not is_fund order by reference limit 1000`
).map((row) => row.reference);
await sql.end();

const config = loadConfig({ ...process.env, DATABASE_URL: databaseUrl, PLANS_FILE: benchPlansFile });
const plans = loadPlans(config.plansFile);
const handle = await openDatabase(config);
// A token of the form issued before checksums: accepted by its shape, then found in the cache below.
const token = `orgr_${randomBytes(32).toString('base64url')}`;
const viewer = { tokenId: randomUUID(), plan: plans.get('enterprise')! };
const viewerCache = { version: 0, get: (asked: string) => (asked === token ? viewer : undefined), set() {} };
const services: AppServices = {
  config,
  handle,
  db: handle.db,
  plans,
  readiness: { accepting: true },
  closing: new AbortController().signal,
  viewerCache: viewerCache as unknown as ViewerCache,
};
const quotas = createQuotas(config);
services.quotas = quotas;
const countCost = countCostOf(config.countTimeoutMs);

/** The plugins of `createGraphqlServer`, in its order, by name. */
function productionPlugins(): [string, object][] {
  return [
    ['csrf', useCSRFPrevention({ requestHeaders: ['authorization', 'x-graphql-yoga-csrf'] })],
    ['persisted-queries', usePersistedQueries(createPersistedQueryStore({}))],
    ['request-error-codes', useRequestErrorCodes()],
    ['defer-stream', useDeferStream()],
    ['operation-metrics', useOperationMetrics()],
    ['unexpected-error-log', useUnexpectedErrorLog()],
    ['query-limits', useQueryLimits()],
    ['cost-limit', useCostLimit(quotas, { countCost })],
    ['explained-refusals', useExplainedRefusals()],
    ['compiled-reads', useCompiledReads(schemaWithoutPlanChecks)],
    ['execution-gate', useExecutionGate()],
  ];
}

function yogaWithout(left: string | undefined, cache = true) {
  return createYoga<RequestContext>({
    schema,
    fetchAPI: { Response: currentResponse },
    cors: false,
    plugins: productionPlugins()
      .filter(([name]) => left === 'all' || name !== left)
      .filter(() => left !== 'all')
      .map(([, plugin]) => plugin as Plugin<RequestContext>),
    graphqlEndpoint: graphqlPath,
    maxRequestBodySize: false,
    landingPage: false,
    maskedErrors: { maskError },
    parserAndValidationCache: cache,
  });
}

type Yoga = ReturnType<typeof createGraphqlServer>;

function briefRequest(index: number): Request {
  const body = JSON.stringify({
    query: organisationBriefQuery,
    variables: { reference: references[index % references.length] },
  });
  return new Request(`http://orgraph.bench${graphqlPath}`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${token}`,
      Accept: 'application/json',
      'Content-Type': 'application/json',
      'Content-Length': String(Buffer.byteLength(body)),
    },
    body,
  });
}

/** What @hono/node-server hands the app: the Node request's headers and socket. */
function nodeEnv(request: Request) {
  return {
    incoming: {
      headers: Object.fromEntries(request.headers),
      socket: { remoteAddress: '127.0.0.1', remotePort: 50000, remoteFamily: 'IPv4' },
    },
  };
}

const contextOf = (): RequestContext =>
  createRequestContext({
    db: services.db,
    primaryDb: services.db,
    config,
    plans,
    viewer,
    correlationId: randomUUID(),
    closing: services.closing,
  });

type Send = (request: Request) => Promise<Response>;
const productionYoga = createGraphqlServer(quotas, createPersistedQueryStore({}), { countCost });
const viaHono =
  (app: Hono<AppEnv>): Send =>
  async (request) =>
    app.fetch(request, nodeEnv(request));
const viaYoga =
  (yoga: Yoga): Send =>
  async (request) =>
    yoga.fetch(request, contextOf());

const variants: [string, Send][] = [
  ['app', viaHono(createApp(services))],
  ['yoga', viaYoga(productionYoga)],
  ['yoga rebuilt', viaYoga(yogaWithout(undefined))],
  ...productionPlugins().map(([name]): [string, Send] => [`yoga - ${name}`, viaYoga(yogaWithout(name))]),
  ['yoga - parse/validation cache', viaYoga(yogaWithout(undefined, false))],
  ['yoga - every plugin', viaYoga(yogaWithout('all'))],
];
const chosen = only ? variants.filter(([name]) => only.some((wanted) => name === wanted)) : variants;

let sent = 0;
async function run(send: Send, count: number): Promise<number> {
  const before = process.cpuUsage();
  for (let i = 0; i < count; i++) {
    const response = await send(briefRequest(sent++));
    const text = await response.text();
    if (!response.ok || !text.startsWith('{"data":{"organisation":{')) {
      throw new Error(`${response.status} ${text.slice(0, 300)}`);
    }
  }
  const cpu = process.cpuUsage(before);
  return (cpu.user + cpu.system) / count;
}

try {
  for (const [name, send] of chosen)
    await run(send, 100).catch((error) => Promise.reject(new Error(`${name}: ${error}`)));
  const samples = new Map<string, number[]>(chosen.map(([name]) => [name, []]));
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? chosen : [...chosen].reverse();
    for (const [name, send] of order) samples.get(name)!.push(await run(send, requests));
  }
  const median = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const middle = sorted.length >> 1;
    return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  };
  process.stdout.write(
    `${requests} brief requests per variant and round, ${rounds} rounds; µs CPU per request\n`,
  );
  process.stdout.write('| variant | rounds | median |\n| --- | --- | ---: |\n');
  for (const [name, values] of samples) {
    process.stdout.write(
      `| ${name} | ${values.map((value) => value.toFixed(0)).join(', ')} | ${median(values).toFixed(0)} |\n`,
    );
  }
} finally {
  await quotas.close();
  await handle.close();
}
