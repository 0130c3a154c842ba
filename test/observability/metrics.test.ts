import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { instrumentDatabase, metrics } from '../../src/http/observability/metrics.ts';
import { createApp } from '../../src/server/app.ts';
import { openTestApp, type TestApp } from '../support/test-app.ts';

let app: TestApp;

beforeAll(async () => {
  app = await openTestApp();
  instrumentDatabase(app.services.handle);
});
afterAll(() => app.close());

async function scrape(): Promise<string> {
  const response = await app.request('/metrics', { token: null });
  expect(response.status).toBe(200);
  expect(response.headers.get('Content-Type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return response.text();
}

/** The value of one sample in the exposition text; 0 when the series does not exist yet. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const match = line.match(/^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/);
    if (!match || match[1] !== name) continue;
    const present = match[2] ? match[2].split(/,(?=[a-zA-Z_]+=")/) : [];
    if (wanted.length === present.length && wanted.every((label) => present.includes(label))) {
      return Number(match[3]);
    }
  }
  return 0;
}

describe('/metrics', () => {
  it('counts and times requests per method, route pattern and status', async () => {
    const labels = { method: 'GET', route: '/v1/organisations/:organisationReference', status: '404' };
    const before = await scrape();
    for (let i = 0; i < 3; i += 1) await app.request(`/v1/organisations/${randomUUID()}`);
    const after = await scrape();

    expect(sample(after, 'orgraph_http_requests_total', labels)).toBe(
      sample(before, 'orgraph_http_requests_total', labels) + 3,
    );
    expect(sample(after, 'orgraph_http_request_duration_seconds_count', labels)).toBe(
      sample(before, 'orgraph_http_request_duration_seconds_count', labels) + 3,
    );
    expect(sample(after, 'orgraph_http_request_duration_seconds_bucket', { ...labels, le: '+Inf' })).toBe(
      sample(after, 'orgraph_http_request_duration_seconds_count', labels),
    );
  });

  it('keeps unknown paths under one route label, so probing cannot grow the series', async () => {
    const before = await scrape();
    for (let i = 0; i < 5; i += 1) await app.request(`/nowhere/${randomUUID()}`);
    const after = await scrape();
    const unmatched = { method: 'GET', route: '(unmatched)', status: '404' };
    expect(sample(after, 'orgraph_http_requests_total', unmatched)).toBe(
      sample(before, 'orgraph_http_requests_total', unmatched) + 5,
    );
    expect(after).not.toContain('/nowhere/');
  });

  it('counts GraphQL operations by name, type and outcome', async () => {
    const before = await scrape();
    const ok = await app.graphql('query MetricsProbe { __typename }');
    expect(ok.body.data).toEqual({ __typename: 'Query' });
    const failed = await app.graphql(
      `query MetricsProbeFails { organisation(reference: "${randomUUID()}") { nope } }`,
    );
    expect(failed.body.errors?.length).toBeGreaterThan(0);
    await app.graphql('{ __typename }');
    const after = await scrape();

    const probe = { operation: 'MetricsProbe', type: 'query' };
    expect(sample(after, 'orgraph_graphql_operations_total', { ...probe, outcome: 'ok' })).toBe(
      sample(before, 'orgraph_graphql_operations_total', { ...probe, outcome: 'ok' }) + 1,
    );
    expect(sample(after, 'orgraph_graphql_operation_duration_seconds_count', probe)).toBe(
      sample(before, 'orgraph_graphql_operation_duration_seconds_count', probe) + 1,
    );
    const anonymous = { operation: '(anonymous)', type: 'query', outcome: 'ok' };
    expect(sample(after, 'orgraph_graphql_operations_total', anonymous)).toBe(
      sample(before, 'orgraph_graphql_operations_total', anonymous) + 1,
    );
    // An operation that fails validation is never executed, so it is not counted as an operation.
    expect(after).not.toContain('operation="MetricsProbeFails"');
  });

  it('counts each operation of one document under its own name, however often the document comes back', async () => {
    const query = 'query MetricsPairA { __typename } query MetricsPairB { __typename }';
    const send = async (operationName: string) => {
      const response = await app.request('/graphql', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ query, operationName }),
      });
      expect((await response.json()).data).toEqual({ __typename: 'Query' });
    };
    const before = await scrape();
    await send('MetricsPairA');
    await send('MetricsPairB');
    await send('MetricsPairA');
    const after = await scrape();
    const count = (text: string, operation: string) =>
      sample(text, 'orgraph_graphql_operations_total', { operation, type: 'query', outcome: 'ok' });
    expect(count(after, 'MetricsPairA')).toBe(count(before, 'MetricsPairA') + 2);
    expect(count(after, 'MetricsPairB')).toBe(count(before, 'MetricsPairB') + 1);
  });

  it('reports the pool maximum and the queries in flight', async () => {
    const before = await scrape();
    const listed = await app.getJson<{ success: unknown[] }>('/v1/organisations?show_empty=true&limit=5');
    expect(listed.body.success).toHaveLength(5);
    const after = await scrape();

    const { config, handle } = app.services;
    const driver = handle.driver.kind;
    expect(sample(after, 'orgraph_db_pool_max_connections', { driver })).toBe(
      driver === 'postgres' ? config.poolMax : 1,
    );
    expect(sample(after, 'orgraph_db_query_duration_seconds_count')).toBeGreaterThan(
      sample(before, 'orgraph_db_query_duration_seconds_count'),
    );
    // Nothing runs between two scrapes but the scrape itself, which sends no query.
    expect(sample(after, 'orgraph_db_queries_in_flight')).toBe(0);
  });

  it('counts a transaction as in flight from its start to its end', async () => {
    let entered!: () => void;
    let release!: () => void;
    const inside = new Promise<void>((resolve) => {
      entered = resolve;
    });
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const transaction = app.services.db.transaction(async (tx) => {
      await tx.execute(sql`select 1`);
      entered();
      await gate;
    });
    await inside;
    expect(sample(await scrape(), 'orgraph_db_queries_in_flight')).toBe(1);
    release();
    await transaction;
    expect(sample(await scrape(), 'orgraph_db_queries_in_flight')).toBe(0);
  });

  it('exposes the rate-limit rejection counter by budget', async () => {
    const before = await scrape();
    metrics.rateLimitRejections.inc({ kind: 'requests' });
    const after = await scrape();
    expect(after).toContain('# TYPE orgraph_rate_limit_rejections_total counter');
    expect(sample(after, 'orgraph_rate_limit_rejections_total', { kind: 'requests' })).toBe(
      sample(before, 'orgraph_rate_limit_rejections_total', { kind: 'requests' }) + 1,
    );
  });

  it('includes the process metrics', async () => {
    const text = await scrape();
    expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(text).toContain('# TYPE nodejs_eventloop_lag_seconds gauge');
  });
});

describe('/metrics with METRICS_TOKEN', () => {
  it('wants the metrics token, and an API token is not it', async () => {
    const metricsToken = 'scrape-secret-0123456789';
    const guarded = createApp({ ...app.services, config: { ...app.services.config, metricsToken } });
    const ask = (authorization?: string) =>
      guarded.request('/metrics', { headers: authorization ? { Authorization: authorization } : {} });

    const without = await ask();
    expect(without.status).toBe(401);
    expect(without.headers.get('WWW-Authenticate')).toBe('Bearer realm="orgraph metrics"');
    expect((await ask(`Bearer ${app.tokens.enterprise}`)).status).toBe(401);
    const allowed = await ask(`Bearer ${metricsToken}`);
    expect(allowed.status).toBe(200);
    expect(await allowed.text()).toContain('orgraph_http_requests_total');
  });
});
