import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken, isPossibleToken } from '../../src/auth/tokens.ts';
import { loadConfig } from '../../src/config.ts';
import { countStatements } from '../../src/db/database.ts';
import { apiTokensTable } from '../../src/db/schema/access.ts';
import type { AppServices } from '../../src/http/services.ts';
import { createApp } from '../../src/server/app.ts';
import { needs } from '../support/services.ts';
import { openTestApp, type TestApp } from '../support/test-app.ts';

const failureLimit = 5;

let app: TestApp;
let hono: ReturnType<typeof createApp>;
beforeAll(async () => {
  app = await openTestApp({ AUTH_FAILURE_LIMIT: String(failureLimit), TRUST_PROXY: '' });
  hono = createApp(app.services);
});
afterAll(() => app.close());

/** The test app's services under another configuration (the embedded store admits one handle, so it is shared). */
function servicesWith(overrides: NodeJS.ProcessEnv): AppServices {
  const config = loadConfig({ ...process.env, AUTH_FAILURE_LIMIT: String(failureLimit), ...overrides });
  return { ...app.services, config, quotas: undefined };
}

/** A request as the Node server hands it over: from a socket whose remote address is `address`. */
function send(
  path: string,
  options: { address: string; token?: string; headers?: Record<string, string>; init?: RequestInit },
) {
  const headers = new Headers(options.headers);
  if (options.token) headers.set('Authorization', `Bearer ${options.token}`);
  headers.set('Accept', 'application/json');
  const incoming = { socket: { remoteAddress: options.address, remotePort: 40000 }, headers: {} };
  return hono.fetch(new Request(`http://orgraph.test${path}`, { ...options.init, headers }), { incoming });
}

/** A token of the current form (random part and a checksum that matches) that was never issued. */
function unissuedToken(): string {
  const body = `orgr_${randomBytes(32).toString('base64url')}`;
  return `${body}${createHash('sha256').update(body).digest('base64url').slice(0, 6)}`;
}

/** A new address for each test, so that their budgets do not mix. */
const addressOf = () => `198.51.100.${Math.floor(Math.random() * 250) + 1}-${randomUUID().slice(0, 8)}`;

describe('the token checksum', () => {
  it('is on every token created, and refuses a token whose checksum does not match', async () => {
    expect(isPossibleToken(unissuedToken())).toBe(true);
    const token = app.tokens.starter;
    expect(token).toMatch(/^orgr_[A-Za-z0-9_-]{49}$/);
    expect(isPossibleToken(token)).toBe(true);
    const last = token.at(-1)!;
    const altered = `${token.slice(0, -1)}${last === 'A' ? 'B' : 'A'}`;
    expect(isPossibleToken(altered)).toBe(false);
    // Two neighbouring characters of the body swapped: the first pair that differ, so that the token changes.
    const at = [...token].findIndex((char, i) => i >= 5 && i + 1 < token.length - 6 && char !== token[i + 1]);
    const swapped = `${token.slice(0, at)}${token[at + 1]}${token[at]}${token.slice(at + 2)}`;
    expect(swapped).not.toBe(token);
    expect(isPossibleToken(swapped)).toBe(false);
  });

  it('refuses a forged token without a database statement', async () => {
    const forged = `orgr_${'A'.repeat(49)}`;
    expect(isPossibleToken(forged)).toBe(false);
    const { result, statements } = await countStatements(() =>
      app.request('/v1/organisations', { token: forged }),
    );
    expect(result.status).toBe(401);
    expect(statements).toBe(0);
    const looked = await countStatements(() => app.request('/v1/organisations', { token: unissuedToken() }));
    expect(looked.result.status).toBe(401);
    expect(looked.statements).toBe(1);
  });

  it('still accepts a token issued before the checksum', async () => {
    const legacy = `orgr_${randomBytes(32).toString('base64url')}`;
    await app.services.db.insert(apiTokensTable).values({
      id: randomUUID(),
      tokenHash: hashToken(legacy),
      hint: legacy.slice(0, 11),
      label: 'legacy',
      plan: 'starter',
    });
    const { status } = await app.getJson('/v1/organisations?limit=1', legacy);
    expect(status).toBe(200);
  });
});

describe('failed authentications per client address', () => {
  it('answers 429 with Retry-After once an address has spent its failures, and a repeated token without a lookup', async () => {
    const address = addressOf();
    const revoked = unissuedToken();
    for (let attempt = 0; attempt < failureLimit; attempt += 1) {
      const response = await send('/v1/organisations', {
        address,
        token: attempt === 0 ? revoked : unissuedToken(),
      });
      expect(response.status).toBe(401);
    }
    // New tokens are looked up (one statement each) and refused 429; the token refused before costs nothing.
    const fresh = await countStatements(async () => {
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 20; attempt += 1) {
        statuses.push((await send('/v1/organisations', { address, token: unissuedToken() })).status);
      }
      return statuses;
    });
    expect(new Set(fresh.result)).toEqual(new Set([429]));
    expect(fresh.statements).toBe(20);
    const repeated = await countStatements(async () => {
      const statuses: number[] = [];
      let last: Response | undefined;
      for (let attempt = 0; attempt < 200; attempt += 1) {
        last = await send('/v1/organisations', { address, token: revoked });
        statuses.push(last.status);
      }
      return { statuses, last: last! };
    });
    expect(new Set(repeated.result.statuses)).toEqual(new Set([429]));
    expect(repeated.statements).toBe(0);
    const retryAfter = Number(repeated.result.last.headers.get('Retry-After'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    const body = await repeated.result.last.json();
    expect(body.status).toEqual({ code: 429, messages: [expect.stringMatching(/refused tokens.*retry in/)] });

    // Another address goes on: its refusals are its own.
    const elsewhere = addressOf();
    expect((await send('/v1/organisations', { address: elsewhere, token: revoked })).status).toBe(401);
  });

  it('serves a valid token from an address that other callers have throttled', async () => {
    const address = addressOf();
    for (let attempt = 0; attempt < failureLimit + 3; attempt += 1) {
      await send('/v1/organisations', { address, token: unissuedToken() });
    }
    expect((await send('/v1/organisations', { address, token: unissuedToken() })).status).toBe(429);
    // Interleaved with the bad ones, every good request is served, and the bad ones stay refused.
    for (let round = 0; round < 5; round += 1) {
      const good = await send('/v1/organisations?limit=1', { address, token: app.tokens.starter });
      expect(good.status).toBe(200);
      expect((await good.json()).success).toHaveLength(1);
      expect((await send('/v1/organisations', { address, token: unissuedToken() })).status).toBe(429);
    }
    // A valid token sent by hand with its last character changed is a forged one: refused, still 429.
    const forged = `${app.tokens.starter.slice(0, -1)}${app.tokens.starter.endsWith('A') ? 'B' : 'A'}`;
    expect((await send('/v1/organisations', { address, token: forged })).status).toBe(429);
  });

  it('counts forged tokens, and answers the graph GraphQL-shaped', async () => {
    const address = addressOf();
    const graphql = (token: string) =>
      send('/graphql', {
        address,
        token,
        headers: { 'Content-Type': 'application/json' },
        init: { method: 'POST', body: JSON.stringify({ query: '{ __typename }' }) },
      });
    for (let attempt = 0; attempt < failureLimit; attempt += 1) {
      expect((await graphql(`orgr_${'B'.repeat(49)}`)).status).toBe(401);
    }
    const refused = await graphql(unissuedToken());
    expect(refused.status).toBe(429);
    expect(refused.headers.get('Retry-After')).toMatch(/^\d+$/);
    expect(await refused.json()).toEqual({
      errors: [{ message: expect.stringMatching(/refused tokens/), extensions: { code: 'RATE_LIMITED' } }],
    });
  });

  it('does not count requests without a token, nor good tokens', async () => {
    const address = addressOf();
    for (let attempt = 0; attempt < failureLimit * 2; attempt += 1) {
      expect((await send('/v1/organisations', { address })).status).toBe(401);
      expect((await send('/v1/organisations?limit=1', { address, token: app.tokens.starter })).status).toBe(
        200,
      );
    }
    expect((await send('/v1/organisations', { address, token: unissuedToken() })).status).toBe(401);
  });

  it('ignores X-Forwarded-For unless TRUST_PROXY says how many proxies append to it', async () => {
    const address = addressOf();
    for (let attempt = 0; attempt < failureLimit + 1; attempt += 1) {
      await send('/v1/organisations', {
        address,
        token: unissuedToken(),
        headers: { 'X-Forwarded-For': `203.0.113.${attempt}` },
      });
    }
    const spoofed = await send('/v1/organisations', {
      address,
      token: unissuedToken(),
      headers: { 'X-Forwarded-For': '203.0.113.200' },
    });
    expect(spoofed.status).toBe(429);

    const proxied = servicesWith({ TRUST_PROXY: '1' });
    try {
      const behindProxy = createApp(proxied);
      const proxy = addressOf();
      const viaProxy = (client: string, token: string) =>
        behindProxy.fetch(
          new Request('http://orgraph.test/v1/organisations', {
            headers: { Authorization: `Bearer ${token}`, 'X-Forwarded-For': `10.9.9.9, ${client}` },
          }),
          { incoming: { socket: { remoteAddress: proxy }, headers: {} } },
        );
      const client = `192.0.2.${Math.floor(Math.random() * 250) + 1}`;
      for (let attempt = 0; attempt < failureLimit; attempt += 1) {
        expect((await viaProxy(client, unissuedToken())).status).toBe(401);
      }
      expect((await viaProxy(client, unissuedToken())).status).toBe(429);
      // The proxy's other clients are their own addresses.
      expect((await viaProxy(`${client}0`, unissuedToken())).status).toBe(401);
    } finally {
      await proxied.quotas?.close();
    }
  });
});

describe('failed authentications shared through Redis', () => {
  needs('redis');
  it('counts the failures of one address on every instance', async () => {
    const env = {
      REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
      RATE_LIMIT_KEY_PREFIX: `orgraph_hd_test:${randomUUID()}`,
    };
    // Two instances: two apps, each with its own counters' connection to one Redis.
    const first = servicesWith(env);
    const second = servicesWith(env);
    try {
      const address = addressOf();
      const apps = new Map([first, second].map((instance) => [instance, createApp(instance)]));
      const via = (instance: AppServices, token: string) =>
        apps.get(instance)!.fetch(
          new Request('http://orgraph.test/v1/organisations', {
            headers: { Authorization: `Bearer ${token}` },
          }),
          { incoming: { socket: { remoteAddress: address }, headers: {} } },
        );
      expect(first.quotas?.store).toBe('redis');
      for (let attempt = 0; attempt < failureLimit; attempt += 1) {
        expect((await via(attempt % 2 ? first : second, unissuedToken())).status).toBe(401);
      }
      expect((await via(first, unissuedToken())).status).toBe(429);
      expect((await via(second, unissuedToken())).status).toBe(429);
      // Throttled on both, the address's good tokens are still served by both.
      expect((await via(first, app.tokens.starter)).status).toBe(200);
      expect((await via(second, app.tokens.starter)).status).toBe(200);
    } finally {
      await first.quotas?.close();
      await second.quotas?.close();
    }
  });
});
