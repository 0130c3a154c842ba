import { rm } from 'node:fs/promises';
import { loadPlans } from '../../src/auth/plans.ts';
import { loadConfig } from '../../src/config.ts';
import { type DatabaseHandle, openDatabase } from '../../src/db/database.ts';
import { migrateDatabase } from '../../src/db/migrate.ts';
import { createScratchDatabase } from '../reliability/support/scratch-postgres.ts';
import { temporaryEmptyStore } from './worker-stores.ts';

export interface ScratchStore {
  handle: DatabaseHandle;
  /** Closes the store and removes it. */
  close(): Promise<void>;
}

/**
 * A migrated, empty store of the test's own on the run's database: a scratch database on PostgreSQL when
 * DATABASE_URL is set, a copy of the run's migrated empty store in a temporary directory on the embedded one. For
 * tests that write records.
 */
export async function openScratchStore(label: string): Promise<ScratchStore> {
  if (process.env.DATABASE_URL) {
    const scratch = await createScratchDatabase(label);
    const handle = await openDatabase(loadConfig({ DATABASE_URL: scratch.url }));
    return {
      handle,
      async close() {
        await handle.close();
        await scratch.drop();
      },
    };
  }
  const directory = await temporaryEmptyStore(label);
  const handle = await openDatabase(loadConfig({ DATABASE_URL: '', DATA_DIR: directory }));
  await migrateDatabase(handle, loadPlans().keys());
  return {
    handle,
    async close() {
      await handle.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
