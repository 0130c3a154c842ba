import { setTimeout as sleep } from 'node:timers/promises';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPlans } from '../../src/auth/plans.ts';
import { createToken, findViewer, revokeToken } from '../../src/auth/tokens.ts';
import { ViewerCache } from '../../src/auth/viewer-cache.ts';
import { loadConfig } from '../../src/config.ts';
import { countStatements, type DatabaseHandle, openDatabase } from '../../src/db/database.ts';
import { createScratchDatabase, type ScratchDatabase } from '../reliability/support/scratch-postgres.ts';
import { TcpProxy } from '../reliability/support/tcp-proxy.ts';

/**
 * The viewer cache on a real PostgreSQL: hits send no statement, and any change to the tokens (a revocation from
 * another connection, a statement by hand) empties it as soon as it commits; while the listening connection is
 * lost, nothing is served from it.
 */
let database: ScratchDatabase;
let handle: DatabaseHandle;
let admin: postgres.Sql;
const plans = loadPlans();

async function until(condition: () => boolean, timeoutMs = 5_000): Promise<number> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error(`not within ${timeoutMs} ms`);
    await sleep(5);
  }
  return Date.now() - started;
}

beforeAll(async () => {
  database = await createScratchDatabase('viewer_cache');
  handle = await openDatabase(loadConfig({ DATABASE_URL: database.url }));
  admin = postgres(database.url, { max: 1, onnotice: () => {} });
}, 60_000);
afterAll(async () => {
  await admin?.end({ timeout: 1 });
  await handle?.close();
  await database?.drop();
});

async function withCache<T>(work: (cache: ViewerCache) => Promise<T>, options = {}): Promise<T> {
  const cache = new ViewerCache(database.url, options);
  await cache.start();
  try {
    return await work(cache);
  } finally {
    await cache.close();
  }
}

describe('the viewer cache', () => {
  it('answers a token seen before without a statement', async () => {
    const { token, record } = await createToken(handle.db, plans, { plan: 'starter' });
    await withCache(async (cache) => {
      expect(cache.active).toBe(true);
      const first = await countStatements(() => findViewer(handle.db, plans, token, cache));
      expect(first.statements).toBe(1);
      expect(first.result).toMatchObject({ tokenId: record.id, plan: { name: 'starter' } });
      const second = await countStatements(() => findViewer(handle.db, plans, token, cache));
      expect(second.statements).toBe(0);
      expect(second.result).toEqual(first.result);
    });
  });

  it('forgets every token when one is revoked elsewhere, and the revoked one is refused', async () => {
    const { token } = await createToken(handle.db, plans, { plan: 'enterprise' });
    const other = await createToken(handle.db, plans, { plan: 'starter' });
    await withCache(async (cache) => {
      await findViewer(handle.db, plans, token, cache);
      await findViewer(handle.db, plans, other.token, cache);
      expect(cache.get(token)).toBeDefined();
      await admin`update api_tokens set revoked_at = now() where id = ${other.record.id}`;
      await until(() => cache.get(token) === undefined, 1_000);
      expect(cache.get(other.token)).toBeUndefined();

      await findViewer(handle.db, plans, token, cache);
      expect(await revokeToken(handle.db, token)).toBe(true);
      await until(() => cache.get(token) === undefined, 1_000);
      expect(await findViewer(handle.db, plans, token, cache)).toBeNull();
    });
  });

  it('does not keep an answer read before a change that committed while it was on its way', async () => {
    const { token } = await createToken(handle.db, plans, { plan: 'starter' });
    await withCache(async (cache) => {
      const version = cache.version;
      await admin`update api_tokens set label = 'touched' where token_hash = 'none'`;
      await until(() => cache.version !== version, 1_000);
      cache.set(token, { tokenId: 'stale', plan: plans.get('starter')! }, version);
      expect(cache.get(token)).toBeUndefined();
    });
  });

  it('serves nothing while its connection is lost, and listens again by itself', async () => {
    const { token } = await createToken(handle.db, plans, { plan: 'starter' });
    await withCache(
      async (cache) => {
        await findViewer(handle.db, plans, token, cache);
        expect(cache.get(token)).toBeDefined();
        await admin`select pg_terminate_backend(pid) from pg_stat_activity
          where application_name = 'orgraph listener' and datname = current_database()`;
        await until(() => !cache.active, 2_000);
        expect(cache.get(token)).toBeUndefined();
        const lookedUp = await countStatements(() => findViewer(handle.db, plans, token, cache));
        expect(lookedUp.statements).toBe(1);

        await until(() => cache.active, 5_000);
        expect(cache.get(token)).toBeUndefined();
        await findViewer(handle.db, plans, token, cache);
        expect(cache.get(token)).toBeDefined();
      },
      { retryMs: 100 },
    );
  });

  it('stops serving when the network goes silent, and listens again once it heals', async () => {
    const proxy = await TcpProxy.start({ host: database.host, port: database.port });
    const url = new URL(database.url);
    url.host = proxy.url;
    const cache = new ViewerCache(url.toString(), { heartbeatMs: 50, heartbeatTimeoutMs: 200, retryMs: 100 });
    try {
      await cache.start();
      const { token } = await createToken(handle.db, plans, { plan: 'starter' });
      await findViewer(handle.db, plans, token, cache);
      expect(cache.get(token)).toBeDefined();
      // No byte through either way: the connection stays open and would never deliver a notification.
      proxy.blackhole();
      await until(() => !cache.active, 2_000);
      expect(cache.get(token)).toBeUndefined();
      await proxy.restore();
      await until(() => cache.active, 5_000);
      await findViewer(handle.db, plans, token, cache);
      expect(cache.get(token)).toBeDefined();
    } finally {
      await cache.close();
      await proxy.close();
    }
  });
});
