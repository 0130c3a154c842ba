import type { Config } from '../config.ts';
import { checkDatabaseReachable, hostOf, StartupParameterRefusedError } from './connect-check.ts';

/** What sits between DATABASE_URL and PostgreSQL: PgBouncer's pool modes, or nothing. */
export type PoolerMode = 'none' | 'session' | 'transaction';

/** Where the work that needs a session of its own connects (migrations, LISTEN, the import). */
export interface SessionTarget {
  url: string;
  /** Whether its settings may go in the startup message (no pooler there to refuse them). */
  startupSettings: boolean;
}

export interface Topology {
  pooler: PoolerMode;
  /** Why: declared by DATABASE_POOLER, or what the server did with a startup parameter. */
  reason: string;
  /** Protocol-level prepared statements: a transaction pooler cannot keep them between transactions. */
  prepare: boolean;
  session: SessionTarget;
}

/**
 * The startup parameters every pooler passes on (PgBouncer tracks these per client and restores them on each
 * server connection it lends); anything else in the startup message makes it refuse the connection.
 */
export const poolerSafeParameters: Record<string, string> = { application_name: 'orgraph', TimeZone: 'UTC' };

/**
 * The settings every request's statements run with: in the startup message without a pooler, and in each
 * transaction (`set_config(..., true)`) through one, where a session's settings would reach another client.
 */
export function requestSettings(config: Pick<Config, 'statementTimeoutMs'>): Record<string, string> {
  return {
    statement_timeout: String(config.statementTimeoutMs),
    // Many small concurrent queries: extra workers per query cost more CPU than they save in time, and a count
    // that runs into its time limit would burn the limit three times over.
    max_parallel_workers_per_gather: '0',
  };
}

/** The database settings cannot work together; the message is one sentence saying what to set. */
export class PoolerConfigurationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PoolerConfigurationError';
  }
}

const needsDirect =
  'migrations, LISTEN (token revocation, subscriptions, webhooks) and imports need a session of their own';

/**
 * Tells how DATABASE_URL reaches PostgreSQL, checking each URL with one connection (connect-check.ts). Declared by
 * DATABASE_POOLER, or recognised (`auto`): a server that refuses the request settings as startup parameters, or
 * drops them (PgBouncer's `ignore_startup_parameters`), is a pooler, taken to pool transactions, the mode that
 * breaks the most. Behind a transaction pooler without DATABASE_DIRECT_URL start-up fails, naming what to set.
 */
export async function resolveTopology(config: Config & { databaseUrl: string }): Promise<Topology> {
  const url = config.databaseUrl;
  const host = hostOf(new URL(url));
  const timeout = config.connectTimeoutSeconds;
  const settings = requestSettings(config);
  let pooler: PoolerMode;
  let reason: string;
  if (config.databasePooler === 'session' || config.databasePooler === 'transaction') {
    await checkDatabaseReachable(url, 'DATABASE_URL', timeout, poolerSafeParameters);
    pooler = config.databasePooler;
    reason = `DATABASE_POOLER=${pooler}`;
  } else {
    let dropped: string | undefined;
    try {
      const values = await checkDatabaseReachable(url, 'DATABASE_URL', timeout, {
        ...poolerSafeParameters,
        ...settings,
      });
      if (values.statement_timeout !== settings.statement_timeout) dropped = 'statement_timeout';
    } catch (error) {
      if (!(error instanceof StartupParameterRefusedError)) throw error;
      dropped = error.parameter;
    }
    if (dropped === undefined) {
      pooler = 'none';
      reason = 'no startup parameter refused';
    } else {
      const happened = `The server of DATABASE_URL at ${host} refused or ignored the startup parameter ${dropped}, as a connection pooler such as PgBouncer does`;
      if (config.databasePooler === 'none') {
        throw new PoolerConfigurationError(
          `${happened}, but DATABASE_POOLER=none: set DATABASE_POOLER=transaction or session (and DATABASE_DIRECT_URL to the database without the pooler).`,
        );
      }
      if (!config.databaseDirectUrl) {
        throw new PoolerConfigurationError(
          `${happened}, and through a pooler ${needsDirect}: set DATABASE_DIRECT_URL to the database without the pooler (and DATABASE_POOLER=transaction or session).`,
        );
      }
      pooler = 'transaction';
      reason = `startup parameter ${dropped} refused or ignored`;
    }
  }
  if (pooler === 'transaction' && !config.databaseDirectUrl) {
    throw new PoolerConfigurationError(
      `DATABASE_POOLER=transaction needs DATABASE_DIRECT_URL: through a transaction pooler ${needsDirect}; set it to the database without the pooler.`,
    );
  }
  if (config.databaseDirectUrl) {
    try {
      await checkDatabaseReachable(config.databaseDirectUrl, 'DATABASE_DIRECT_URL', timeout, {
        ...poolerSafeParameters,
        ...settings,
      });
    } catch (error) {
      if (!(error instanceof StartupParameterRefusedError)) throw error;
      throw new PoolerConfigurationError(
        `The server of DATABASE_DIRECT_URL at ${error.host} refused the startup parameter ${error.parameter}: DATABASE_DIRECT_URL must reach PostgreSQL without a pooler.`,
      );
    }
  }
  return {
    pooler,
    reason,
    prepare: pooler !== 'transaction',
    session: config.databaseDirectUrl
      ? { url: config.databaseDirectUrl, startupSettings: true }
      : { url, startupSettings: pooler === 'none' },
  };
}
