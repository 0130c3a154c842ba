import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApp, type TestApp } from '../support/test-app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await openTestApp();
});
afterAll(() => app.close());

describe('health probes', () => {
  it('answers /healthz without a token', async () => {
    const response = await app.request('/healthz', { token: null });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'alive' });
  });

  it('answers /readyz 200 once the database is migrated', async () => {
    const response = await app.request('/readyz', { token: null });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ready' });
  });

  it('answers /readyz 503 once the service stops accepting', async () => {
    app.services.readiness.accepting = false;
    try {
      const response = await app.request('/readyz', { token: null });
      expect(response.status).toBe(503);
    } finally {
      app.services.readiness.accepting = true;
    }
  });
});

describe('correlation id', () => {
  it('echoes a sane X-Correlation-ID in the header and the envelope', async () => {
    const response = await app.request('/v1/nowhere', { headers: { 'X-Correlation-ID': 'trace-42.a' } });
    expect(response.headers.get('X-Correlation-ID')).toBe('trace-42.a');
    expect((await response.json()).correlation_id).toBe('trace-42.a');
  });

  it('replaces an insane one with a new UUID', async () => {
    const response = await app.request('/v1/nowhere', { headers: { 'X-Correlation-ID': 'bad id <script>' } });
    const id = response.headers.get('X-Correlation-ID');
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect((await response.json()).correlation_id).toBe(id);
  });
});

describe('unknown paths', () => {
  it('answers 404 in the envelope', async () => {
    const response = await app.request('/v1/nowhere');
    expect(response.status).toBe(404);
    const body = await response.json();
    expect(body.status).toEqual({ code: 404, messages: ['No endpoint at GET /v1/nowhere.'] });
    expect(body.success).toBeNull();
    expect(body.meta).toBeNull();
  });
});

describe('correlation id on the graph', () => {
  it('is sent back on /graphql responses too', async () => {
    const response = await app.request('/graphql', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Correlation-ID': 'graph-7' },
      body: JSON.stringify({ query: '{ __typename }' }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('X-Correlation-ID')).toBe('graph-7');
  });
});
