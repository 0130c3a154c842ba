import { readFileSync } from 'node:fs';
import { Command, InvalidArgumentError } from 'commander';
import { loadPlans } from '../auth/plans.ts';
import { loadConfig } from '../config.ts';
import { type DatabaseHandle, openDatabase } from '../db/database.ts';
import { migrateDatabase } from '../db/migrate.ts';
import { packageFile } from '../package-files.ts';
import type { AdminRequest, AdminResponse, AdminTokenRow } from '../server/admin-protocol.ts';
import { askRunningServer, converseWithRunningServer } from './admin-client.ts';
import { type CommandStores, registerImportCommands } from './import-commands.ts';
import { seedThroughServer } from './records-through-server.ts';
import { registerResolveCommand } from './resolve-command.ts';

// The server (GraphQL schema, Yoga, the HTTP stack) and the token store load only in the commands that use them,
// so that `import`, `export`, `seed` and `migrate` run without their memory (bench/NOTES.md 38, 60).

const { version } = JSON.parse(readFileSync(packageFile('package.json'), 'utf8')) as { version: string };

const program = new Command('orgraph')
  .description('orgraph: organisations, people, events and articles as a GraphQL graph and a REST /v1 API')
  .version(version, '-V, --version', 'print the version (the package.json version) and exit');

async function withDatabase<T>(work: (handle: DatabaseHandle) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const handle = await openDatabase(config);
  try {
    await migrateDatabase(handle, loadPlans(config.plansFile).keys());
    return await work(handle);
  } finally {
    await handle.close();
  }
}

const runningServer: CommandStores['runningServer'] = async (request) => {
  const config = loadConfig();
  if (config.databaseUrl) return null;
  const conversation = await converseWithRunningServer(config.dataDir, request);
  return conversation ? { conversation, dataDir: config.dataDir } : null;
};

/**
 * A token command: on the embedded store, asked of the server running on it when there is one (the store admits one
 * process); otherwise done on the database directly.
 */
async function tokenCommand<T>(
  request: AdminRequest,
  direct: (handle: DatabaseHandle) => Promise<T>,
  fromServer: (response: AdminResponse & { ok: true }) => T,
): Promise<T> {
  const config = loadConfig();
  if (!config.databaseUrl) {
    const response = await askRunningServer(config.dataDir, request);
    if (response) {
      if (!response.ok) throw new Error(response.error);
      return fromServer(response);
    }
  }
  return withDatabase(direct);
}

/** The token list with a header row, tab-separated so that scripts can cut it; never a token's secret. */
function printTokenRows(rows: AdminTokenRow[]): void {
  if (rows.length === 0) {
    console.error('No tokens yet: `orgraph token create --plan <plan>` makes one.');
    return;
  }
  console.log(['ID', 'TOKEN', 'PLAN', 'STATE', 'CREATED', 'LABEL'].join('\t'));
  for (const row of rows) {
    const state = row.revokedAt ? `revoked ${row.revokedAt}` : 'active';
    console.log([row.id, `${row.hint}…`, row.plan, state, row.createdAt, row.label ?? ''].join('\t'));
  }
}

function reportRevoked(revoked: boolean): void {
  if (!revoked) {
    console.error('No active token matches.');
    process.exitCode = 1;
  } else console.error('Token revoked.');
}

function parseScale(value: string): number {
  const scale = Number(value);
  if (!Number.isFinite(scale) || scale < 0.01 || scale > 1000) {
    throw new InvalidArgumentError('scale must be a number from 0.01 to 1000');
  }
  return scale;
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value.trim()) || port > 65_535) {
    throw new InvalidArgumentError('the port must be a whole number from 0 to 65535 (0: any free port).');
  }
  return port;
}

async function serve(options: { seedIfEmpty: boolean; port?: number }): Promise<void> {
  const { startServer } = await import('../server/listen.ts');
  const { logger } = await import('../http/observability/logger.ts');
  const { isDatabaseUnavailable } = await import('../domain/errors.ts');
  const config = { ...loadConfig(), ...(options.port === undefined ? {} : { port: options.port }) };
  const server = await startServer(config, {
    seed: async (handle, seedOptions) => {
      const { seedDatabase } = await import('../../seeds/seed-database.ts');
      return seedDatabase(handle, seedOptions);
    },
    beforeListen: async (services) => {
      if (!options.seedIfEmpty) return;
      const { isDatabaseEmpty, seedDatabase } = await import('../../seeds/seed-database.ts');
      if (!(await isDatabaseEmpty(services.handle))) return;
      console.error('The database is empty: loading the demo dataset (scale 1)…');
      const report = await seedDatabase(services.handle, { scale: 1 });
      console.error(`Demo dataset loaded in ${report.seconds.toFixed(1)} s.`);
    },
  });
  console.error(`orgraph listening on ${server.url} (GraphQL ${server.url}/graphql, REST ${server.url}/v1)`);
  const stop = (signal: string) => {
    console.error(`${signal} received: finishing in-flight requests and closing.`);
    const deadline = setTimeout(() => process.exit(1), 25_000);
    deadline.unref();
    server.shutdown().then(
      () => process.exit(0),
      (error) => {
        logger().error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
  // The PostgreSQL driver leaves unhandled the failure of the array-type lookup it sends by itself on each new
  // connection; a connection lost at that instant must not stop the server. Any other unhandled rejection does.
  process.on('unhandledRejection', (reason) => {
    if (isDatabaseUnavailable(reason)) {
      logger().warn(
        { err: reason },
        'a database connection was lost during a query the driver sent by itself',
      );
      return;
    }
    logger().fatal({ err: reason }, 'unhandled rejection');
    process.exit(1);
  });
}

program
  .command('start')
  .description('Migrate, load the demo dataset when the database is empty, and serve')
  .option('--port <n>', 'the port to listen on, instead of PORT (default 4000; 0: any free port)', parsePort)
  .action((options: { port?: number }) => serve({ seedIfEmpty: true, ...options }));

program
  .command('serve')
  .description('Migrate and serve on HOST:PORT')
  .option('--port <n>', 'the port to listen on, instead of PORT (default 4000; 0: any free port)', parsePort)
  .action((options: { port?: number }) => serve({ seedIfEmpty: false, ...options }));

program
  .command('migrate')
  .description('Apply the database migrations and load the reference data')
  .action(() => withDatabase(async () => console.error('Database migrated.')));

program
  .command('seed')
  .description('Load the deterministic dataset')
  .option('--scale <n>', 'dataset size; 1 is the demo dataset (about 2,000 organisations)', parseScale, 1)
  .option('--reset', 'delete the existing data first', false)
  .action(async (options: { scale: number; reset: boolean }) => {
    const { renderProgressBar, renderProgressLines } = await import('../../seeds/progress.ts');
    const onProgress = process.stderr.isTTY ? renderProgressBar() : renderProgressLines();
    const server = await runningServer({ command: 'seed', scale: options.scale, reset: options.reset });
    const report = server
      ? await seedThroughServer(server.conversation, onProgress)
      : await withDatabase(async (handle) => {
          const { seedDatabase } = await import('../../seeds/seed-database.ts');
          return seedDatabase(handle, { scale: options.scale, reset: options.reset, onProgress });
        });
    console.log(`Seeded scale ${options.scale} in ${report.seconds.toFixed(1)} s:`);
    for (const [table, rows] of Object.entries(report.rows)) console.log(`  ${table.padEnd(26)} ${rows}`);
  });

registerImportCommands(program, { withDatabase, runningServer });
registerResolveCommand(program, { withDatabase, runningServer });

const token = program.command('token').description('Manage API tokens');
token
  .command('create')
  .description('Create a token and print it (only once) on stdout')
  .requiredOption('--plan <plan>', 'the plan the token reaches: starter, professional or enterprise')
  .option('--label <label>', 'a note to recognise the token by')
  .action(async (options: { plan: string; label?: string }) => {
    const token = await tokenCommand(
      {
        command: 'create',
        plan: options.plan,
        ...(options.label === undefined ? {} : { label: options.label }),
      },
      async (handle) => {
        const { createToken } = await import('../auth/tokens.ts');
        return (await createToken(handle.db, loadPlans(loadConfig().plansFile), options)).token;
      },
      (response) => ('token' in response ? response.token : ''),
    );
    console.log(token);
  });
token
  .command('list')
  .description('List tokens (never their secrets)')
  .action(async () => {
    const rows = await tokenCommand(
      { command: 'list' },
      async (handle) =>
        (await (await import('../auth/tokens.ts')).listTokens(handle.db)).map((row) => ({
          ...row,
          createdAt: row.createdAt.toISOString(),
          revokedAt: row.revokedAt ? row.revokedAt.toISOString() : null,
        })),
      (response) => ('tokens' in response ? response.tokens : []),
    );
    printTokenRows(rows);
  });
token
  .command('revoke <idOrToken>')
  .description('Revoke a token by its id (from `token list`) or by the token itself')
  .action(async (idOrToken: string) => {
    const revoked = await tokenCommand(
      { command: 'revoke', idOrToken },
      async (handle) => (await import('../auth/tokens.ts')).revokeToken(handle.db, idOrToken),
      (response) => 'revoked' in response && response.revoked,
    );
    reportRevoked(revoked);
  });

program
  .command('print-schema')
  .description('Print the GraphQL schema (SDL)')
  .action(async () => {
    const { printSchemaSdl } = await import('../graphql/schema.ts');
    process.stdout.write(printSchemaSdl());
  });

await program.parseAsync(process.argv).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
