import { defineConfig } from 'vitest/config';

const onPostgres = Boolean(process.env.DATABASE_URL);

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'seeds/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    // The embedded database admits one process at a time; a real Postgres takes files in parallel.
    fileParallelism: onPostgres,
    maxWorkers: onPostgres ? 2 : 1,
    testTimeout: 30_000,
    hookTimeout: 180_000,
    env: onPostgres ? {} : { DATA_DIR: process.env.DATA_DIR ?? '.test-data/embedded' },
  },
});
