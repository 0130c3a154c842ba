import postgres from 'postgres';
import { describe, expect, it } from 'vitest';
import { testServices } from './services.ts';
import { findTestServices, startThrowawayPostgres } from './test-services.ts';

describe('the services the tests use', () => {
  const missing = {
    DATABASE_URL: testServices.postgresUrl,
    REDIS_URL: 'redis://127.0.0.1:1',
    CHROMIUM_PATH: '/nonexistent/chromium',
  };

  it('reports a missing Redis and Chromium with their reasons, for their tests to be skipped', async () => {
    const { services, stop } = await findTestServices(missing);
    await stop();
    expect(services.postgresSource).toBe('DATABASE_URL');
    expect(services.redisMissing).toMatch(
      /^Redis at redis:\/\/127\.0\.0\.1:1 is unreachable \(connect ECONNREFUSED/,
    );
    expect(services.chromiumMissing).toBe(
      'Chromium is not at /nonexistent/chromium; install it (apt-get install chromium) or set CHROMIUM_PATH',
    );
  });

  it('fails instead under ORGRAPH_TEST_REQUIRE_SERVICES=1', async () => {
    await expect(findTestServices({ ...missing, ORGRAPH_TEST_REQUIRE_SERVICES: '1' })).rejects.toThrow(
      /^ORGRAPH_TEST_REQUIRE_SERVICES=1, and: Redis at redis:\/\/127\.0\.0\.1:1 is unreachable .*; Chromium is not at \/nonexistent\/chromium/,
    );
  });

  it('starts a PostgreSQL server of its own that answers, and stops it', { timeout: 120_000 }, async () => {
    const started = await startThrowawayPostgres();
    const url = new URL(started.url);
    expect(url.hostname).toBe('127.0.0.1');
    const sql = postgres(started.url, { max: 1, onnotice: () => {} });
    try {
      const [row] = await sql<{ version: string }[]>`select current_setting('server_version') as version`;
      expect(row?.version).toMatch(/^\d+\.\d+/);
    } finally {
      await sql.end({ timeout: 1 });
      await started.stop();
    }
    const after = postgres(started.url, { max: 1, connect_timeout: 2, onnotice: () => {} });
    await expect(after`select 1`).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    await after.end({ timeout: 0 });
  });
});
