import { existsSync } from 'node:fs';
import { cp } from 'node:fs/promises';
import type { TestProject } from 'vitest/node';
import { isDatabaseEmpty, seedDatabase } from '../../seeds/seed-database.ts';
import { loadPlans } from '../../src/auth/plans.ts';
import { type Config, loadConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/db/database.ts';
import { migrateDatabase } from '../../src/db/migrate.ts';
import { findTestServices } from './test-services.ts';
import { copyStorePerWorker } from './worker-stores.ts';

/**
 * Before any test file runs: finds (or starts) the PostgreSQL server, Redis and Chromium some tests need and hands
 * them to the test files, then migrates the run's database and loads the demo dataset (scale 1) once. On the
 * embedded store that database is a template, copied once per worker, beside a migrated empty store for files that
 * need one of their own (worker-stores.ts). Returns the teardown that stops a PostgreSQL server it started.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const { services, stop } = await findTestServices(process.env);
  project.provide('testServices', services);
  if (services.postgresSource === 'started') {
    console.log(
      `no PostgreSQL on 127.0.0.1:5432: started one for the tests on ${new URL(services.postgresUrl).host}`,
    );
  }
  if (services.redisMissing) console.log(`skipping the tests that need Redis: ${services.redisMissing}`);
  if (services.chromiumMissing) console.log(`skipping the browser tests: ${services.chromiumMissing}`);
  if (services.graphqlToolsMissing) {
    console.log(`skipping the GraphQL Code Generator test: ${services.graphqlToolsMissing}`);
  }
  try {
    const config = loadConfig({ ...process.env, DATA_DIR: process.env.DATA_DIR ?? '.test-data/embedded' });
    if (config.databaseUrl) {
      await migrateAndSeed(config);
      project.provide('embeddedStores', []);
      project.provide('emptyStore', '');
      project.provide('seededStore', '');
    } else {
      // The empty store is made first; the seeded one starts as its copy rather than as a second new store.
      const emptyStore = `${config.dataDir}-empty`;
      await migrateAndSeed({ ...config, dataDir: emptyStore }, { seed: false });
      if (!existsSync(config.dataDir)) await cp(emptyStore, config.dataDir, { recursive: true });
      await migrateAndSeed(config);
      project.provide(
        'embeddedStores',
        await copyStorePerWorker(config.dataDir, project.config.maxWorkers || 1),
      );
      project.provide('emptyStore', emptyStore);
      project.provide('seededStore', config.dataDir);
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return stop;
}

/** Migrates the store `config` names and, unless told not to, loads the demo dataset when it is empty. */
async function migrateAndSeed(config: Config, options: { seed: boolean } = { seed: true }): Promise<void> {
  const handle = await openDatabase(config);
  try {
    await migrateDatabase(handle, loadPlans(config.plansFile).keys());
    if (options.seed && (await isDatabaseEmpty(handle))) {
      const report = await seedDatabase(handle, { scale: 1 });
      console.log(`test database seeded at scale 1 in ${report.seconds.toFixed(1)} s`);
    }
  } finally {
    await handle.close();
  }
}
