import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPlans } from '../../src/auth/plans.ts';
import { loadConfig } from '../../src/config.ts';
import { openDatabase, queryRows } from '../../src/db/database.ts';
import { migrateDatabase } from '../../src/db/migrate.ts';
import { listenTo } from '../../src/db/notifications.ts';
import { createScratchDatabase, type ScratchDatabase } from '../reliability/support/scratch-postgres.ts';
import { runCli } from '../support/cli.ts';
import { needsPgbouncer } from './support/needs-pgbouncer.ts';
import { type Pgbouncer, startPgbouncer } from './support/pgbouncer.ts';

/**
 * orgraph behind a stock PgBouncer in each pool mode: what goes in the startup message, the statement timeout,
 * how a pooler is recognised and what start-up says when the settings do not fit it, and migrations from two
 * instances at once.
 */
const present = needsPgbouncer();
let database: ScratchDatabase;
const bouncers: Partial<Record<'transaction' | 'session', Pgbouncer>> = {};

beforeAll(async () => {
  if (!present) return;
  database = await createScratchDatabase('pooler_settings');
  bouncers.transaction = await startPgbouncer(database.url, 'transaction');
  bouncers.session = await startPgbouncer(database.url, 'session');
}, 60_000);
afterAll(async () => {
  await bouncers.transaction?.stop();
  await bouncers.session?.stop();
  await database?.drop();
});

// Long enough for any plain statement on a busy machine, far shorter than the pg_sleep(5) that must be cut.
const open = (env: NodeJS.ProcessEnv) => openDatabase(loadConfig({ STATEMENT_TIMEOUT_MS: '1500', ...env }));

/** The PostgreSQL error code `work` fails with (Drizzle wraps the driver's error); undefined when it succeeds. */
async function failureCode(work: () => Promise<unknown>): Promise<string | undefined> {
  try {
    await work();
    return undefined;
  } catch (error) {
    const failure = error as { code?: string; cause?: { code?: string } };
    return failure.code ?? failure.cause?.code;
  }
}

describe.each(['transaction', 'session'] as const)('through PgBouncer in %s mode', (mode) => {
  it('applies the statement timeout to a statement and to a transaction', async () => {
    const handle = await open({
      DATABASE_URL: bouncers[mode]!.through(database.url),
      DATABASE_DIRECT_URL: database.url,
      DATABASE_POOLER: mode,
    });
    try {
      expect(handle.driver.kind === 'postgres' && handle.driver.topology.pooler).toBe(mode);
      const alone = await failureCode(() => handle.db.execute(sql`select pg_sleep(5)`));
      expect(alone).toBe('57014');
      const inTransaction = await failureCode(() =>
        handle.db.transaction(async (tx) => {
          await tx.execute(sql`select 1`);
          await tx.execute(sql`select pg_sleep(5)`);
        }),
      );
      expect(inTransaction).toBe('57014');
      // The settings hold for the statement's transaction only, and many statements in a row keep working.
      const rows = await Promise.all(
        Array.from({ length: 40 }, (_, index) =>
          queryRows<{ timeout: string; workers: string; n: number }>(
            handle.db,
            sql`select current_setting('statement_timeout') as timeout,
              current_setting('max_parallel_workers_per_gather') as workers, ${index}::int as n`,
          ),
        ),
      );
      expect(rows.map((row) => row[0])).toEqual(
        Array.from({ length: 40 }, (_, index) => ({ timeout: '1500ms', workers: '0', n: index })),
      );
    } finally {
      await handle.close();
    }
  });
});

describe('recognising a pooler', () => {
  it('takes a server that refuses the startup parameters for a transaction pooler, given a direct URL', async () => {
    const handle = await open({
      DATABASE_URL: bouncers.transaction!.through(database.url),
      DATABASE_DIRECT_URL: database.url,
    });
    try {
      expect(handle.driver.kind === 'postgres' && handle.driver.topology).toMatchObject({
        pooler: 'transaction',
        prepare: false,
        session: { url: database.url, startupSettings: true },
      });
      expect(await failureCode(() => handle.db.execute(sql`select pg_sleep(5)`))).toBe('57014');
    } finally {
      await handle.close();
    }
  });

  it('takes PostgreSQL itself for no pooler, with the settings in the startup message', async () => {
    const handle = await open({ DATABASE_URL: database.url });
    try {
      expect(handle.driver.kind === 'postgres' && handle.driver.topology.pooler).toBe('none');
      expect(await failureCode(() => handle.db.execute(sql`select pg_sleep(5)`))).toBe('57014');
    } finally {
      await handle.close();
    }
  });

  it('fails start-up with one sentence naming the refused parameter and what to set', async () => {
    const pooled = bouncers.transaction!.through(database.url);
    const failure = (env: NodeJS.ProcessEnv) =>
      runCli(['migrate'], {
        DATABASE_URL: pooled,
        DATABASE_DIRECT_URL: '',
        DATABASE_POOLER: '',
        ...env,
      }).then(
        () => '(exit 0)',
        (error: { stderr: string; code: number }) => `${error.code}: ${error.stderr.trim()}`,
      );
    const [declaredNone, noDirect, declaredNoDirect, directPooled] = await Promise.all([
      failure({ DATABASE_POOLER: 'none' }),
      failure({}),
      failure({ DATABASE_POOLER: 'transaction' }),
      failure({ DATABASE_POOLER: 'transaction', DATABASE_DIRECT_URL: pooled }),
    ]);
    expect(declaredNone).toMatch(
      /^1: The server of DATABASE_URL at 127\.0\.0\.1:\d+ refused or ignored the startup parameter statement_timeout, as a connection pooler such as PgBouncer does, but DATABASE_POOLER=none: set DATABASE_POOLER=transaction or session/,
    );
    expect(noDirect).toMatch(
      /^1: The server of DATABASE_URL .* refused or ignored the startup parameter statement_timeout, .*set DATABASE_DIRECT_URL to the database without the pooler/,
    );
    expect(declaredNoDirect).toMatch(/^1: DATABASE_POOLER=transaction needs DATABASE_DIRECT_URL/);
    expect(directPooled).toMatch(
      /^1: The server of DATABASE_DIRECT_URL at 127\.0\.0\.1:\d+ refused the startup parameter statement_timeout: DATABASE_DIRECT_URL must reach PostgreSQL without a pooler\.$/,
    );
    for (const message of [declaredNone, noDirect, declaredNoDirect, directPooled]) {
      expect(message.split('\n')).toHaveLength(1);
    }
  }, 60_000);
});

describe('migrations', () => {
  it('two instances starting at once on a fresh database both migrate, one after the other', async () => {
    const fresh = await createScratchDatabase('pooler_migrate_fresh', { migrated: false });
    try {
      const env = (url: string) => ({
        DATABASE_URL: bouncers.transaction!.through(url),
        DATABASE_DIRECT_URL: url,
        DATABASE_POOLER: 'transaction',
      });
      const handles = await Promise.all([open(env(fresh.url)), open(env(fresh.url))]);
      try {
        const results = await Promise.allSettled(
          handles.map((handle) => migrateDatabase(handle, loadPlans().keys())),
        );
        expect(results.map((result) => result.status)).toEqual(['fulfilled', 'fulfilled']);
        const [applied] = await queryRows<{ n: number }>(
          handles[0]!.db,
          sql`select count(*)::int as n from drizzle.__drizzle_migrations`,
        );
        const [plans] = await queryRows<{ n: number }>(
          handles[0]!.db,
          sql`select count(*)::int as n from plans`,
        );
        expect(applied!.n).toBeGreaterThan(0);
        expect(plans!.n).toBe([...loadPlans().keys()].length);
      } finally {
        await Promise.all(handles.map((handle) => handle.close()));
      }
    } finally {
      await fresh.drop();
    }
  }, 120_000);
});

describe('through PgBouncer in session mode without DATABASE_DIRECT_URL', () => {
  it('migrates, listens and imports through DATABASE_URL alone', async () => {
    const fresh = await createScratchDatabase('pooler_session_only', { migrated: false });
    const files = await mkdtemp(join(tmpdir(), 'orgraph-pooler-session-'));
    const env = {
      DATABASE_URL: bouncers.session!.through(fresh.url),
      DATABASE_POOLER: 'session',
      DATABASE_DIRECT_URL: '',
    };
    const handle = await open(env);
    try {
      expect(handle.driver.kind === 'postgres' && handle.driver.topology.session).toEqual({
        url: env.DATABASE_URL,
        startupSettings: false,
      });
      await migrateDatabase(handle, loadPlans().keys());

      let heard = 0;
      const stop = await listenTo(handle, 'orgraph_pooler_test', () => {
        heard += 1;
      });
      try {
        await handle.db.execute(sql`select pg_notify('orgraph_pooler_test', '')`);
        for (let waited = 0; heard === 0 && waited < 5_000; waited += 20) {
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        expect(heard).toBe(1);
      } finally {
        await stop();
      }

      const reference = randomUUID();
      const path = join(files, 'one.ndjson');
      await writeFile(
        path,
        JSON.stringify({
          type: 'organisation',
          reference,
          name: 'Session Pooled',
          status: 'active',
          verified: true,
          confidence: 80,
          totals: { employees: 3 },
        }),
      );
      await runCli(['import', path, '--rejects', `${path}.rejects`, '--progress', 'none'], env);
      const [stored] = await queryRows<{ n: number }>(
        handle.db,
        sql`select count(*)::int as n from organisations where reference = ${reference}`,
      );
      expect(stored!.n).toBe(1);
    } finally {
      await handle.close();
      await rm(files, { recursive: true, force: true });
      await fresh.drop();
    }
  }, 120_000);
});
