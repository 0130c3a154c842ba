import { configDefaults, defineConfig } from 'vitest/config';

const onPostgres = Boolean(process.env.DATABASE_URL);

/**
 * Files whose store is fixed whatever the run's database is: the embedded store's own commands (DATABASE_URL=''), and
 * the topology of PgBouncer, replicas and instances around the machine's PostgreSQL server. Each runs in the one run
 * whose database it tests: on PostgreSQL they would repeat the embedded run's work, and the reverse.
 */
const embeddedStoreFiles = [
  'test/readme/tour.test.ts',
  'test/resolve/cli.test.ts',
  'test/server/cli-manners.test.ts',
  'test/server/embedded-store.test.ts',
  'test/server/records-commands-running.test.ts',
  'test/server/token-commands-running.test.ts',
];
const postgresServerFiles = ['test/topology/**'];

/** Test files that replace a module with `vi.mock`: they need a module graph of their own. */
const mockingFiles = ['test/import/known-lines.test.ts', 'test/import/stale.test.ts'];

export default defineConfig({
  // graphql 16 ships CommonJS (`main`) and ESM (`module`) builds. Node loads the CommonJS one for every import, so
  // the libraries (Pothos, Yoga) build the schema with it; Vite would hand our sources the ESM one, and graphql's
  // `isListType`/`instanceof` checks then fail across the two copies ("from another module or realm").
  resolve: { alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }] },
  test: {
    globalSetup: ['test/support/global-setup.ts'],
    // Two files at a time, on either database: the embedded one admits one process at a time, so there each worker
    // gets its own copy of the seeded store (test/support/worker-stores.ts).
    setupFiles: ['test/support/worker-store-setup.ts'],
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 180_000,
    // One JSON line per request would bury the test output; LOG_LEVEL=info shows them.
    env: {
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
      ...(onPostgres ? {} : { DATA_DIR: process.env.DATA_DIR ?? '.test-data/embedded' }),
    },
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          include: ['src/**/*.test.ts', 'seeds/**/*.test.ts', 'bench/**/*.test.ts', 'test/**/*.test.ts'],
          // Vitest's own exclusions too (node_modules anywhere, as bench/peer's), which a list of our own replaces.
          exclude: [
            ...configDefaults.exclude,
            ...mockingFiles,
            ...(onPostgres ? embeddedStoreFiles : postgresServerFiles),
          ],
          // A worker imports the sources once for all its files instead of once per file: importing the app took
          // more time than the tests of a typical REST or GraphQL file. Each file still opens its own handles.
          isolate: false,
        },
      },
      { extends: true, test: { name: 'isolated', include: mockingFiles } },
    ],
  },
});
