import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findViewer } from '../../src/auth/tokens.ts';
import { loadConfig } from '../../src/config.ts';
import { queryRows } from '../../src/db/database.ts';
import { createGraphqlServer } from '../../src/graphql/yoga.ts';
import { createRequestContext } from '../../src/http/context.ts';
import type { AppServices } from '../../src/http/services.ts';
import { createApp } from '../../src/server/app.ts';
import { openTestApp, type TestApp } from '../support/test-app.ts';

const allowedOrigin = 'https://app.example.com';
const evilOrigin = 'https://evil.example';

let app: TestApp;
/** The same service configured with `CORS_ORIGINS` (the embedded store admits one handle, so it is shared). */
let withCors: Pick<TestApp, 'request'>;
let corsServices: AppServices;
beforeAll(async () => {
  app = await openTestApp({ CORS_ORIGINS: '' });
  corsServices = {
    ...app.services,
    config: { ...app.services.config, corsOrigins: [allowedOrigin, 'https://other.example.com:8443'] },
    quotas: undefined,
  };
  const corsApp = createApp(corsServices);
  withCors = {
    request: async (path, init = {}) => {
      const { token = app.tokens.enterprise, ...rest } = init;
      const headers = new Headers(rest.headers);
      if (token !== null) headers.set('Authorization', `Bearer ${token}`);
      if (!headers.has('Accept')) headers.set('Accept', 'application/json');
      return corsApp.fetch(new Request(`http://orgraph.test${path}`, { ...rest, headers }));
    },
  };
});
afterAll(async () => {
  await corsServices.quotas?.close();
  await app.close();
});

/** A mutation that leaves a trace: the saved search whose label is `marker`. */
function saveMutation(marker: string): string {
  return `mutation { saveEventSearch(query: [{ fieldType: "MoveType", label: "${marker}", value: "${marker}", operator: "EQUAL" }]) { __typename } }`;
}

async function savedWith(marker: string): Promise<number> {
  const rows = await queryRows<{ count: number }>(
    app.services.db,
    sql`select count(*)::int as count from saved_searches where query::text like ${`%${marker}%`}`,
  );
  return rows[0]!.count;
}

describe('GraphQL POST bodies', () => {
  it('runs a JSON POST (the control: the mutation saves)', async () => {
    const marker = `json-${randomUUID()}`;
    const { status, body } = await app.graphql(saveMutation(marker));
    expect(status).toBe(200);
    expect(body.errors).toBeUndefined();
    expect(await savedWith(marker)).toBe(1);
  });

  it('accepts application/graphql+json, with parameters, as JSON too', async () => {
    const response = await app.request('/graphql', {
      method: 'POST',
      headers: { 'Content-Type': 'application/graphql+json; charset=utf-8' },
      body: JSON.stringify({ query: '{ __typename }' }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ data: { __typename: 'Query' } });
  });

  const simpleBodies: [string, (query: string) => RequestInit][] = [
    [
      'application/x-www-form-urlencoded',
      (query) => ({
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ query }).toString(),
      }),
    ],
    [
      'multipart/form-data',
      (query) => {
        const form = new FormData();
        form.set('operations', JSON.stringify({ query }));
        form.set('map', '{}');
        return { body: form };
      },
    ],
    [
      'application/graphql-response+json (a response type)',
      (query) => ({
        headers: { 'Content-Type': 'application/graphql-response+json' },
        body: JSON.stringify({ query }),
      }),
    ],
    [
      'text/plain',
      (query) => ({ headers: { 'Content-Type': 'text/plain' }, body: JSON.stringify({ query }) }),
    ],
    ['no Content-Type', (query) => ({ body: new Blob([JSON.stringify({ query })]) })],
  ];

  it.each(simpleBodies)('refuses a %s POST with 415 before running it', async (_type, bodyOf) => {
    const marker = `form-${randomUUID()}`;
    const response = await app.request('/graphql', { method: 'POST', ...bodyOf(saveMutation(marker)) });
    expect(response.status).toBe(415);
    const body = await response.json();
    expect(body).toEqual({
      errors: [{ message: expect.stringMatching(/JSON/), extensions: { code: 'UNSUPPORTED_MEDIA_TYPE' } }],
    });
    expect(await savedWith(marker)).toBe(0);
  });
});

describe('CORS off (no CORS_ORIGINS)', () => {
  it('reflects no origin and allows no credentials on the graph or REST', async () => {
    for (const path of ['/graphql?query=%7B__typename%7D', '/v1/organisations?limit=1']) {
      const response = await app.request(path, { headers: { Origin: evilOrigin } });
      expect(response.status).toBe(200);
      expect(response.headers.get('Access-Control-Allow-Origin')).toBeNull();
      expect(response.headers.get('Access-Control-Allow-Credentials')).toBeNull();
    }
  });

  it('answers no preflight', async () => {
    const response = await app.request('/graphql', {
      method: 'OPTIONS',
      token: null,
      headers: { Origin: allowedOrigin, 'Access-Control-Request-Method': 'POST' },
    });
    expect(response.status).not.toBe(204);
    expect(response.headers.get('Access-Control-Allow-Origin')).toBeNull();
  });
});

describe('CORS_ORIGINS', () => {
  it.each(['/graphql', '/v1/organisations'])(
    'answers the preflight of an allowed origin on %s',
    async (path) => {
      const response = await withCors.request(path, {
        method: 'OPTIONS',
        token: null,
        headers: {
          Origin: allowedOrigin,
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'authorization, content-type',
        },
      });
      expect(response.status).toBe(204);
      expect(response.headers.get('Access-Control-Allow-Origin')).toBe(allowedOrigin);
      expect(response.headers.get('Access-Control-Allow-Methods')?.split(',')).toEqual(['GET', 'POST']);
      expect(response.headers.get('Access-Control-Allow-Headers')).toMatch(/Authorization/);
      expect(response.headers.get('Access-Control-Allow-Headers')).toMatch(/Content-Type/);
      expect(response.headers.get('Access-Control-Allow-Credentials')).toBeNull();
      expect(response.headers.get('Vary')).toMatch(/Origin/);
    },
  );

  it('names an allowed origin on its responses, without credentials', async () => {
    const graph = await withCors.request('/graphql', {
      method: 'POST',
      headers: { Origin: allowedOrigin, 'Content-Type': 'application/json' },
      body: JSON.stringify({ query: '{ __typename }' }),
    });
    expect(graph.status).toBe(200);
    expect(graph.headers.get('Access-Control-Allow-Origin')).toBe(allowedOrigin);
    expect(graph.headers.get('Access-Control-Allow-Credentials')).toBeNull();
    expect(graph.headers.get('Access-Control-Expose-Headers')).toMatch(/X-Correlation-ID/);
    const rest = await withCors.request('/v1/organisations?limit=1', {
      headers: { Origin: 'https://other.example.com:8443' },
    });
    expect(rest.status).toBe(200);
    expect(rest.headers.get('Access-Control-Allow-Origin')).toBe('https://other.example.com:8443');
  });

  it('gives another origin neither a preflight nor its name back', async () => {
    const preflight = await withCors.request('/graphql', {
      method: 'OPTIONS',
      token: null,
      headers: { Origin: evilOrigin, 'Access-Control-Request-Method': 'POST' },
    });
    expect(preflight.status).not.toBe(204);
    expect(preflight.headers.get('Access-Control-Allow-Origin')).toBeNull();
    const get = await withCors.request('/graphql?query=%7B__typename%7D', {
      headers: { Origin: evilOrigin },
    });
    expect(get.status).toBe(200);
    expect(get.headers.get('Access-Control-Allow-Origin')).toBeNull();
    expect(get.headers.get('Access-Control-Allow-Credentials')).toBeNull();
  });

  it('refuses a configuration entry that is not an origin', () => {
    expect(() => loadConfig({ CORS_ORIGINS: 'https://app.example.com/path' })).toThrow(/CORS|corsOrigins/);
    expect(() => loadConfig({ CORS_ORIGINS: '*' })).toThrow(/corsOrigins/);
    expect(loadConfig({ CORS_ORIGINS: 'https://a.example, http://b.example:8080' }).corsOrigins).toEqual([
      'https://a.example',
      'http://b.example:8080',
    ]);
  });
});

describe('CSRF prevention in the graph', () => {
  it('runs a GET only when it carries a header a page cannot send cross-origin without a preflight', async () => {
    const yoga = createGraphqlServer(app.services.quotas!);
    const viewer = await findViewer(app.services.db, app.services.plans, app.tokens.enterprise);
    const context = () =>
      createRequestContext({
        db: app.services.db,
        primaryDb: app.services.db,
        config: app.services.config,
        plans: app.services.plans,
        viewer,
        correlationId: randomUUID(),
        closing: app.services.closing,
      });
    const get = (headers: Record<string, string>) =>
      yoga.fetch(
        new Request('http://orgraph.test/graphql?query=%7B__typename%7D', {
          headers: { Accept: 'application/json', ...headers },
        }),
        context(),
      );
    const simple = await get({});
    expect(simple.status).toBe(403);
    expect((await simple.json()).errors[0].message).toMatch(/CSRF/);
    const withToken = await get({ Authorization: `Bearer ${app.tokens.enterprise}` });
    expect(withToken.status).toBe(200);
    expect(await withToken.json()).toMatchObject({ data: { __typename: 'Query' } });
    const withHeader = await get({ 'X-GraphQL-Yoga-CSRF': '1' });
    expect(withHeader.status).toBe(200);
  });
});
