import { isDatabaseEmpty, seedDatabase } from '../../seeds/seed-database.ts';
import { loadPlans } from '../../src/auth/plans.ts';
import { loadConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/db/database.ts';
import { migrateDatabase } from '../../src/db/migrate.ts';

/** Migrates the test database and loads the demo dataset (scale 1) once, before any test file runs. */
export default async function setup(): Promise<void> {
  const config = loadConfig({ ...process.env, DATA_DIR: process.env.DATA_DIR ?? '.test-data/embedded' });
  const handle = await openDatabase(config);
  try {
    await migrateDatabase(handle, loadPlans(config.plansFile).keys());
    if (await isDatabaseEmpty(handle)) {
      const report = await seedDatabase(handle, { scale: 1 });
      console.log(`test database seeded at scale 1 in ${report.seconds.toFixed(1)} s`);
    }
  } finally {
    await handle.close();
  }
}
