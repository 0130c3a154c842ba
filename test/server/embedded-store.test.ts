import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { EmbeddedStoreLockedError, openDatabase, queryRows } from '../../src/db/database.ts';

const directories: string[] = [];
afterAll(async () => {
  for (const directory of directories) await rm(directory, { recursive: true, force: true });
});

describe('the embedded store', () => {
  it('refuses a second opener with a clear error and leaves the data untouched', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'orgraph-lock-'));
    directories.push(dataDir);
    const config = loadConfig({ DATA_DIR: dataDir });
    const first = await openDatabase(config);
    await first.db.execute(sql`create table marker (value text)`);
    await first.db.execute(sql`insert into marker values ('kept')`);

    const second = openDatabase(config);
    await expect(second).rejects.toBeInstanceOf(EmbeddedStoreLockedError);
    await expect(second).rejects.toThrow(/in use by another orgraph process/);

    expect(await queryRows(first.db, sql`select value from marker`)).toEqual([{ value: 'kept' }]);
    await first.close();

    const reopened = await openDatabase(config);
    expect(await queryRows(reopened.db, sql`select value from marker`)).toEqual([{ value: 'kept' }]);
    await reopened.close();
  });
});
