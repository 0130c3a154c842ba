import { timingSafeEqual } from 'node:crypto';
import type { Context } from 'hono';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { DatabaseHandle } from '../../db/database.ts';

/**
 * One registry for the process: every app instance in it (there is one in production, several in tests) adds to
 * the same series, which is what a scrape of the process should see.
 */
export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry });

const latencyBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export const metrics = {
  httpRequests: new Counter({
    name: 'orgraph_http_requests_total',
    help: 'HTTP requests answered, by method, matched route pattern and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [metricsRegistry],
  }),
  httpDuration: new Histogram({
    name: 'orgraph_http_request_duration_seconds',
    help: 'Time from receiving a request to its response headers, by method, matched route pattern and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: latencyBuckets,
    registers: [metricsRegistry],
  }),
  httpInFlight: new Gauge({
    name: 'orgraph_http_requests_in_flight',
    help: 'HTTP requests being answered right now.',
    registers: [metricsRegistry],
  }),
  graphqlOperations: new Counter({
    name: 'orgraph_graphql_operations_total',
    help: 'GraphQL operations executed, by operation name, type and outcome (ok, or error when the result carries errors).',
    labelNames: ['operation', 'type', 'outcome'] as const,
    registers: [metricsRegistry],
  }),
  graphqlDuration: new Histogram({
    name: 'orgraph_graphql_operation_duration_seconds',
    help: 'Execution time of GraphQL operations (after parsing and validation), by operation name and type.',
    labelNames: ['operation', 'type'] as const,
    buckets: latencyBuckets,
    registers: [metricsRegistry],
  }),
  /** Incremented by the rate and cost limits when they refuse a request; `kind` is the budget that ran out. */
  rateLimitRejections: new Counter({
    name: 'orgraph_rate_limit_rejections_total',
    help: 'Requests refused because a budget ran out, by budget (requests, graphqlCost per token; authFailures per address).',
    labelNames: ['kind'] as const,
    registers: [metricsRegistry],
  }),
  readReplicaState: new Gauge({
    name: 'orgraph_read_replica_state',
    help: 'The read replica (DATABASE_READ_URL) by state: 1 for the state it is in (serving, lagging, down, not-a-standby), 0 for the others.',
    labelNames: ['state'] as const,
    registers: [metricsRegistry],
  }),
  readsOnPrimary: new Counter({
    name: 'orgraph_reads_on_primary_total',
    help: 'Requests whose reads went to the primary instead of the replica, and replica statements run again on the primary (failover), by reason.',
    labelNames: ['reason'] as const,
    registers: [metricsRegistry],
  }),
  dbPoolMax: new Gauge({
    name: 'orgraph_db_pool_max_connections',
    help: 'The most database connections the process opens (DATABASE_POOL_MAX; 1 for the embedded database).',
    labelNames: ['driver'] as const,
    registers: [metricsRegistry],
  }),
  dbQueriesInFlight: new Gauge({
    name: 'orgraph_db_queries_in_flight',
    help: 'Queries sent and not yet answered, including those waiting for a free connection. Above the pool maximum means requests queue for connections.',
    registers: [metricsRegistry],
  }),
  dbQueryDuration: new Histogram({
    name: 'orgraph_db_query_duration_seconds',
    help: 'Time from sending a query (including the wait for a connection) to its answer.',
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [metricsRegistry],
  }),
};

/** Observes one query: in flight until `query` settles. */
function trackQuery(query: Promise<unknown>): void {
  metrics.dbQueriesInFlight.inc();
  const stop = metrics.dbQueryDuration.startTimer();
  const done = () => {
    metrics.dbQueriesInFlight.dec();
    stop();
  };
  // A postgres query is a lazy promise that starts on its own `then`; the base Promise's `then` observes its
  // settling without starting it ahead of the caller's `.values()`.
  Promise.prototype.then.call(query, done, done);
}

const instrumented = new WeakSet<object>();

/**
 * Counts the queries in flight on the database client. The `postgres` driver does not expose its pool's open and
 * busy connections (only `options.max`), so in-flight queries stand in for busy connections: every Drizzle
 * statement outside a transaction goes through the client's `unsafe` (postgres) or `query` (PGlite), and every
 * transaction through `begin` (postgres) or `transaction` (PGlite), which this wraps in place. A query created and never awaited would stay
 * counted; Drizzle awaits every one.
 */
export function instrumentDatabase(handle: DatabaseHandle): void {
  const { driver } = handle;
  if (instrumented.has(driver.client)) return;
  instrumented.add(driver.client);
  if (driver.kind === 'postgres') {
    metrics.dbPoolMax.set({ driver: 'postgres' }, driver.client.options.max);
    // A transaction holds one connection from BEGIN to COMMIT; its statements run on that connection's own
    // client, so the transaction counts as one query in flight for its whole length.
    wrapSends(driver.client, ['unsafe', 'begin']);
    return;
  }
  metrics.dbPoolMax.set({ driver: 'pglite' }, 1);
  wrapSends(driver.client, ['query', 'transaction']);
}

function wrapSends(target: object, methods: string[]): void {
  const client = target as Record<string, (...args: unknown[]) => Promise<unknown>>;
  for (const method of methods) {
    const send = client[method]!.bind(client);
    client[method] = (...args: unknown[]) => {
      const sent = send(...args);
      trackQuery(sent);
      return sent;
    };
  }
}

/** Times each request and counts it under its matched route pattern (see `routeOf`). */
export function recordRequest(method: string, route: string, status: number, seconds: number): void {
  const labels = { method, route, status: String(status) };
  metrics.httpRequests.inc(labels);
  metrics.httpDuration.observe(labels, seconds);
}

/**
 * The Prometheus scrape endpoint. Open unless `metricsToken` is set; then it wants `Authorization: Bearer
 * <metricsToken>`, a token separate from API tokens so that a scraper holds no access to data.
 */
export function metricsHandler(metricsToken: string | undefined) {
  return async (c: Context) => {
    if (metricsToken && !sameSecret(c.req.header('Authorization') ?? '', `Bearer ${metricsToken}`)) {
      c.header('WWW-Authenticate', 'Bearer realm="orgraph metrics"');
      return c.text('Send the metrics token: Authorization: Bearer <METRICS_TOKEN>.\n', 401);
    }
    c.header('Content-Type', metricsRegistry.contentType);
    c.header('Cache-Control', 'no-store');
    return c.body(await metricsRegistry.metrics());
  };
}

function sameSecret(offered: string, expected: string): boolean {
  const a = Buffer.from(offered);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
