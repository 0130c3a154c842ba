import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken, revokeToken } from '../../src/auth/tokens.ts';
import { queryRows } from '../../src/db/database.ts';
import { openTestApp, type TestApp } from '../support/test-app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await openTestApp();
});
afterAll(async () => {
  await app.services.quotas?.close();
  await app.close();
});

/** A well-formed token that was never issued. */
const unknownToken = `orgr_${'A'.repeat(43)}`;

const badCredentials: [string, Record<string, string>][] = [
  ['no Authorization header', {}],
  ['a non-Bearer scheme', { Authorization: `Basic ${Buffer.from('user:pass').toString('base64')}` }],
  ['a malformed token', { Authorization: 'Bearer not-a-token' }],
  ['an unknown token', { Authorization: `Bearer ${unknownToken}` }],
];

describe('REST without a valid token', () => {
  it.each(badCredentials)(
    'answers 401 in the envelope with WWW-Authenticate for %s',
    async (_case, headers) => {
      const response = await app.request('/v1/organisations', { token: null, headers });
      expect(response.status).toBe(401);
      expect(response.headers.get('WWW-Authenticate')).toBe('Bearer realm="orgraph"');
      expect(response.headers.get('RateLimit')).toBeNull();
      const body = await response.json();
      expect(body).toEqual({
        status: { code: 401, messages: [expect.stringMatching(/bearer token/i)] },
        success: null,
        meta: null,
        correlation_id: expect.any(String),
      });
    },
  );

  it('never echoes the token it was sent', async () => {
    const response = await app.request('/v1/organisations', {
      token: null,
      headers: { Authorization: `Bearer ${unknownToken}` },
    });
    const text = await response.text();
    expect(response.status).toBe(401);
    expect(text).not.toContain(unknownToken);
    expect(text).not.toContain(unknownToken.slice(5, 20));
  });

  it('answers 401 on a path that does not exist, so that strangers cannot map the API', async () => {
    const response = await app.request('/v1/nowhere', { token: null });
    expect(response.status).toBe(401);
    expect((await response.json()).status.code).toBe(401);
  });
});

describe('GraphQL without a valid token', () => {
  it.each(badCredentials)('answers a GraphQL-shaped 401 for %s', async (_case, headers) => {
    const response = await app.request('/graphql', {
      method: 'POST',
      token: null,
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: JSON.stringify({ query: '{ __typename }' }),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('WWW-Authenticate')).toBe('Bearer realm="orgraph"');
    expect(await response.json()).toEqual({
      errors: [{ message: expect.stringMatching(/bearer token/i), extensions: { code: 'UNAUTHENTICATED' } }],
    });
  });

  it('answers a GET query the same way', async () => {
    const response = await app.request('/graphql?query=%7B__typename%7D', { token: null });
    expect(response.status).toBe(401);
    expect((await response.json()).errors[0].extensions.code).toBe('UNAUTHENTICATED');
  });

  it('never echoes the token it was sent', async () => {
    const response = await app.request('/graphql', {
      method: 'POST',
      token: null,
      headers: { Authorization: `Bearer ${unknownToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ query: '{ __typename }' }),
    });
    expect(response.status).toBe(401);
    expect(await response.text()).not.toContain(unknownToken);
  });
});

describe('public endpoints', () => {
  it.each([
    ['/healthz', 'application/json'],
    ['/readyz', 'application/json'],
    ['/v1/openapi.json', 'application/json'],
    ['/docs', 'text/html'],
  ])('serves %s without a token', async (path, accept) => {
    const response = await app.request(path, { token: null, headers: { Accept: accept } });
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toContain(accept);
    expect(response.headers.get('RateLimit')).toBeNull();
  });

  it('serves the GraphiQL page to a browser without a token', async () => {
    const response = await app.request('/graphql', { token: null, headers: { Accept: 'text/html' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toContain('text/html');
    expect(await response.text()).toContain('orgraph GraphiQL');
  });
});

describe('revocation', () => {
  it('refuses a revoked token on the very next request, on both transports', async () => {
    const { token, record } = await createToken(app.services.db, app.services.plans, {
      plan: 'starter',
      label: 'access: revocation test',
    });
    expect((await app.graphql('{ __typename }', {}, token)).status).toBe(200);
    expect((await app.getJson('/v1/search/suggestions?query=a', token)).status).toBe(200);

    expect(await revokeToken(app.services.db, record.id)).toBe(true);

    const rest = await app.getJson('/v1/search/suggestions?query=a', token);
    expect(rest.status).toBe(401);
    expect(rest.body.status.messages).toEqual(['The bearer token is unknown, revoked or malformed.']);
    const graph = await app.graphql('{ __typename }', {}, token);
    expect(graph.status).toBe(401);
    expect(graph.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });
});

describe('token storage', () => {
  it('keeps only a SHA-256 hash and a short hint of each token', async () => {
    const { token, record } = await createToken(app.services.db, app.services.plans, {
      plan: 'professional',
      label: 'access: storage test',
    });
    const [row] = await queryRows<Record<string, unknown>>(
      app.services.db,
      sql`select * from api_tokens where id = ${record.id}`,
    );
    expect(row).toBeDefined();
    expect(row!.token_hash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(row!.hint).toBe(token.slice(0, 11));
    // No column holds the secret, whole or in part beyond the hint.
    const stored = JSON.stringify(row);
    expect(stored).not.toContain(token);
    expect(stored).not.toContain(token.slice(11, 30));
  });
});
