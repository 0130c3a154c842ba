import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { type DatabaseHandle, openDatabase, queryRows } from '../../src/db/database.ts';
import { serverUrl } from '../reliability/support/scratch-postgres.ts';

/** The settings every pooled PostgreSQL connection starts with reach the server, whatever their value. */
let handle: DatabaseHandle;

beforeAll(async () => {
  handle = await openDatabase(
    loadConfig({ DATABASE_URL: serverUrl.toString(), STATEMENT_TIMEOUT_MS: '4321' }),
  );
});
afterAll(async () => {
  await handle?.close();
});

describe('a pooled PostgreSQL connection', () => {
  it('runs without parallel workers, in UTC, under the statement timeout, named orgraph', async () => {
    const [settings] = await queryRows<Record<string, string>>(
      handle.db,
      sql`select current_setting('max_parallel_workers_per_gather') as workers,
        current_setting('TimeZone') as zone,
        current_setting('statement_timeout') as timeout,
        current_setting('application_name') as name`,
    );
    expect(settings).toEqual({ workers: '0', zone: 'UTC', timeout: '4321ms', name: 'orgraph' });
  });
});
