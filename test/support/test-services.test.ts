import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { graphqlToolsMissing, lockDigest, stampFile } from '../../scripts/graphql-tools.ts';
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
    await expect(
      findTestServices({ ...missing, ORGRAPH_TEST_REQUIRE_SERVICES: '1' }, '/nonexistent/tools'),
    ).rejects.toThrow(
      /^ORGRAPH_TEST_REQUIRE_SERVICES=1, and: Redis at redis:\/\/127\.0\.0\.1:1 is unreachable .*; Chromium is not at \/nonexistent\/chromium.*; the GraphQL tools are not installed in \/nonexistent\/tools; run `npm run tools:setup`/,
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

describe('the GraphQL tools (scripts/graphql-tools), which the tests never install', () => {
  const folder = mkdtempSync(join(tmpdir(), 'orgraph-tools-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));
  writeFileSync(join(folder, 'package-lock.json'), '{"lockfileVersion":3}');

  it('are missing until set up, then again when the lock changes, each time with the step that sets them up', () => {
    expect(graphqlToolsMissing(folder)).toBe(
      `the GraphQL tools are not installed in ${folder}; run \`npm run tools:setup\` once (it needs the npm registry)`,
    );
    mkdirSync(join(folder, 'node_modules'));
    writeFileSync(stampFile(folder), JSON.stringify({ lock: lockDigest(folder), node: process.execPath }));
    expect(graphqlToolsMissing(folder)).toBeUndefined();
    writeFileSync(join(folder, 'package-lock.json'), '{"lockfileVersion":3,"packages":{}}');
    expect(graphqlToolsMissing(folder)).toMatch(
      /were installed from another package-lock\.json; run `npm run tools:setup`/,
    );
  });
});
