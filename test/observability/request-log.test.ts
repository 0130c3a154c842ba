import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AppEnv } from '../../src/http/app-env.ts';
import { createLogger, type Logger, useLogger } from '../../src/http/observability/logger.ts';
import { observeRequests } from '../../src/http/observability/request-log.ts';
import { handleError } from '../../src/rest/errors.ts';
import { createApp } from '../../src/server/app.ts';
import { openTestApp, type TestApp } from '../support/test-app.ts';

let app: TestApp;
let written: string[];
let previous: Logger;

beforeAll(async () => {
  app = await openTestApp();
});
afterAll(() => app.close());

function captureLogs(level: 'info' | 'warn' = 'info'): void {
  written = [];
  previous = useLogger(createLogger({ level, destination: { write: (line: string) => written.push(line) } }));
}
afterEach(() => {
  if (previous) useLogger(previous);
});

function lines(): Record<string, unknown>[] {
  return written.map((line) => JSON.parse(line) as Record<string, unknown>);
}

function requestLines(): Record<string, unknown>[] {
  return lines().filter((line) => line.msg === 'request' || line.msg === 'request failed');
}

describe('request log', () => {
  it('writes one JSON line per request with method, route pattern, status, duration and correlation id', async () => {
    captureLogs();
    const [row] = (
      await app.getJson<{ success: { reference: string }[] }>('/v1/organisations?show_empty=true&limit=1')
    ).body.success;
    const response = await app.request(`/v1/organisations/${row?.reference}`, {
      headers: { 'X-Correlation-ID': 'log-test-1' },
    });
    expect(response.status).toBe(200);

    const logged = requestLines();
    expect(logged).toHaveLength(2);
    expect(logged[1]).toMatchObject({
      level: 30,
      service: 'orgraph',
      method: 'GET',
      route: '/v1/organisations/:organisationReference',
      path: `/v1/organisations/${row?.reference}`,
      status: 200,
      correlationId: 'log-test-1',
      plan: 'enterprise',
    });
    expect(logged[1]?.durationMs).toEqual(expect.any(Number));
    expect(logged[1]?.durationMs as number).toBeGreaterThan(0);
    expect(logged[1]?.tokenId).toEqual(expect.any(String));
    expect(typeof logged[1]?.time).toBe('string');
  });

  it('never writes the token or the Authorization header, whatever the outcome', async () => {
    captureLogs();
    const token = app.tokens.enterprise;
    await app.request('/v1/organisations?limit=2');
    await app.request(`/v1/organisations/${randomUUID()}`);
    await app.request('/v1/organisations?limit=oops');
    await app.graphql('query LogProbe { __typename }');
    await app.request('/v1/organisations', { token: `${token}x` });
    await app.request('/v1/organisations', { token: null, headers: { Authorization: `Bearer ${token}` } });

    expect(requestLines()).toHaveLength(6);
    const everything = written.join('\n');
    expect(everything).not.toContain(token);
    expect(everything).not.toContain(token.slice(5));
    expect(everything.toLowerCase()).not.toContain('bearer');
    expect(everything.toLowerCase()).not.toContain('authorization');
  });

  it('names the route pattern a refused or failed request asked for, and groups unknown paths', async () => {
    captureLogs();
    await app.request(`/v1/profiles/${randomUUID()}`, { token: null });
    await app.request(`/v1/organisations/${randomUUID()}`);
    await app.request(`/v1/nowhere/${randomUUID()}`);
    await app.request('/graphql', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ query: '{ __typename }' }),
    });
    expect(requestLines().map(({ route, status }) => ({ route, status }))).toEqual([
      { route: '/v1/profiles/:profileReference', status: 401 },
      { route: '/v1/organisations/:organisationReference', status: 404 },
      { route: '(unmatched)', status: 404 },
      { route: '/graphql', status: 200 },
    ]);
  });

  it('logs the probes and the scrape at debug only', async () => {
    captureLogs();
    await app.request('/healthz', { token: null });
    await app.request('/metrics', { token: null });
    await app.request('/readyz', { token: null });
    expect(written).toEqual([]);
    useLogger(createLogger({ level: 'debug', destination: { write: (line: string) => written.push(line) } }));
    await app.request('/healthz', { token: null });
    expect(requestLines()).toMatchObject([{ level: 20, route: '/healthz', status: 200 }]);
  });

  it('respects the level: at warn, successful requests write nothing', async () => {
    captureLogs('warn');
    await app.request('/v1/organisations?limit=1');
    await app.request('/healthz', { token: null });
    expect(written).toEqual([]);
  });
});

describe('unexpected errors', () => {
  it('logs the error with the request correlation id, masks it in the response and logs the request as failed', async () => {
    captureLogs();
    const broken = new Hono<AppEnv>();
    broken.use('*', async (c, next) => {
      c.set('correlationId', 'broken-1');
      await next();
    });
    broken.use('*', observeRequests());
    broken.get('/explode/:id', () => {
      throw new Error('the flux capacitor melted');
    });
    broken.onError(handleError);

    const response = await broken.request('/explode/42', {
      headers: { Authorization: `Bearer ${app.tokens.starter}` },
    });
    expect(response.status).toBe(500);
    expect(await response.text()).not.toContain('flux');

    const [error, request] = lines();
    expect(error).toMatchObject({
      level: 50,
      msg: 'unexpected error',
      correlationId: 'broken-1',
      method: 'GET',
      path: '/explode/42',
      err: { message: 'the flux capacitor melted', type: 'Error' },
    });
    expect(request).toMatchObject({ level: 40, msg: 'request failed', route: '/explode/:id', status: 500 });
    expect(written.join('\n')).not.toContain(app.tokens.starter);
  });
});

describe('unexpected GraphQL errors', () => {
  it('are logged with the request correlation id and masked in the response', async () => {
    // A database whose raw statements fail as no domain or driver error would: the organisation resolver's
    // single-record statement meets it, the token lookup (a prepared query) does not.
    const db = new Proxy(app.services.db, {
      get(target, property, receiver) {
        if (property === 'execute') return () => Promise.reject(new Error('the flux capacitor melted'));
        return Reflect.get(target, property, receiver);
      },
    });
    const broken = createApp({ ...app.services, db, reads: null });
    captureLogs();
    const response = await broken.fetch(
      new Request('http://orgraph.test/graphql', {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${app.tokens.enterprise}`,
          'Content-Type': 'application/json',
          'X-Correlation-ID': 'graph-broken-1',
        },
        body: JSON.stringify({
          query:
            '{ organisation(reference: "3f0c2a9e-5b7d-4c1e-9a2b-6d8e0f1a2b3c") { name aliases { name } } }',
        }),
      }),
    );
    const body = (await response.json()) as {
      errors?: { message: string; extensions?: { code?: string } }[];
    };
    expect(body.errors?.[0]?.extensions?.code).toBe('INTERNAL_SERVER_ERROR');
    expect(JSON.stringify(body)).not.toContain('flux');
    const logged = lines().filter((line) => line.msg === 'unexpected GraphQL error');
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({
      level: 50,
      correlationId: 'graph-broken-1',
      path: ['organisation'],
      err: { message: 'the flux capacitor melted' },
    });
  });
});
