import { z } from 'zod';

const integer = (fallback: number, min = 0) => z.coerce.number().int().min(min).default(fallback);

/** `CORS_ORIGINS`: a comma-separated allow-list of origins (`https://app.example.com`), each exactly an origin. */
const originList = z
  .string()
  .transform((value) =>
    value
      .split(',')
      .map((origin) => origin.trim())
      .filter(Boolean),
  )
  .pipe(
    z.array(
      z.string().refine((origin) => URL.canParse(origin) && new URL(origin).origin === origin, {
        error: (issue) => `"${String(issue.input)}" is not an origin (scheme://host[:port], no path)`,
      }),
    ),
  )
  .default([]);
/** A PostgreSQL connection string: a URL whose scheme is postgres: or postgresql:. */
const postgresUrl = z
  .string()
  .min(1)
  .refine((value) => URL.canParse(value), {
    message: 'not a URL; expected postgres://user:password@host:5432/database',
  })
  .refine((value) => !URL.canParse(value) || ['postgres:', 'postgresql:'].includes(new URL(value).protocol), {
    message: 'not a PostgreSQL URL (postgres:// or postgresql://); orgraph runs on PostgreSQL only',
  });

/** The environment variable behind each setting, for messages. */
const variables: Record<string, string> = {
  databaseUrl: 'DATABASE_URL',
  databaseReadUrl: 'DATABASE_READ_URL',
  readMaxLagMs: 'DATABASE_READ_MAX_LAG_MS',
  databaseDirectUrl: 'DATABASE_DIRECT_URL',
  databasePooler: 'DATABASE_POOLER',
  dataDir: 'DATA_DIR',
  poolMax: 'DATABASE_POOL_MAX',
  poolWaitMs: 'DATABASE_POOL_WAIT_MS',
  connectTimeoutSeconds: 'DATABASE_CONNECT_TIMEOUT_SECONDS',
  statementTimeoutMs: 'STATEMENT_TIMEOUT_MS',
  countTimeoutMs: 'COUNT_TIMEOUT_MS',
  activityRefreshSeconds: 'ACTIVITY_REFRESH_SECONDS',
  port: 'PORT',
  host: 'HOST',
  plansFile: 'PLANS_FILE',
  redisUrl: 'REDIS_URL',
  rateLimitKeyPrefix: 'RATE_LIMIT_KEY_PREFIX',
  logLevel: 'LOG_LEVEL',
  metricsToken: 'METRICS_TOKEN',
  corsOrigins: 'CORS_ORIGINS',
  trustProxy: 'TRUST_PROXY',
  authFailureLimit: 'AUTH_FAILURE_LIMIT',
};

const configSchema = z.object({
  /** A PostgreSQL connection string; unset means the embedded database under `dataDir`. */
  databaseUrl: postgresUrl.optional(),
  /** A read replica of `databaseUrl`: every read goes there, writes (saved searches) and tokens go to the primary. */
  databaseReadUrl: postgresUrl.optional(),
  /**
   * The longest a request waits for the replica to replay what the primary had when the request arrived; past it
   * the replica counts as lagging and reads go to the primary (src/db/read-routing.ts).
   */
  readMaxLagMs: integer(100, 0),
  /**
   * The same database without a pooler in between, for what needs a session of its own: migrations (their lock),
   * LISTEN (token revocation, subscriptions, webhooks) and the import (temporary tables). Unset: DATABASE_URL.
   */
  databaseDirectUrl: postgresUrl.optional(),
  /**
   * What sits between DATABASE_URL and PostgreSQL: `transaction` or `session` pooling (PgBouncer's pool_mode),
   * `none`, or `auto` (a pooler is recognised by the startup parameters it refuses or ignores; db/topology.ts).
   */
  databasePooler: z.enum(['auto', 'none', 'session', 'transaction']).default('auto'),
  dataDir: z.string().min(1).default('./.data'),
  poolMax: integer(10, 1),
  /** How long a request may wait for a pooled connection before failing with 503. */
  poolWaitMs: integer(2000, 1),
  /** How long opening the database may take (connecting, authenticating, a first answer) before giving up. */
  connectTimeoutSeconds: integer(10, 1),
  statementTimeoutMs: integer(5000, 1),
  /** Past this, list totals fall back to the planner's table-wide estimate. */
  countTimeoutMs: integer(200, 1),
  activityRefreshSeconds: integer(300, 0),
  port: integer(4000, 0),
  host: z.string().min(1).default('127.0.0.1'),
  plansFile: z.string().min(1).optional(),
  /** Shares rate-limit and cost counters between instances; unset means each instance counts in memory. */
  redisUrl: z.string().min(1).optional(),
  /** Namespace of the counters in Redis, so that several deployments (or test runs) can share one Redis. */
  rateLimitKeyPrefix: z.string().min(1).default('orgraph:limits'),
  logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** When set, `/metrics` wants `Authorization: Bearer <metricsToken>`; unset, it is open (it holds no data). */
  metricsToken: z.string().min(16, 'must be at least 16 characters').optional(),
  /** Origins a browser page may call the API from (CORS); empty: no cross-origin access. */
  corsOrigins: originList,
  /**
   * How many proxies in front of the server append to `X-Forwarded-For`; 0 (the default) ignores the header and
   * takes the client address from the socket.
   */
  trustProxy: integer(0, 0),
  /** Failed authentications (a token refused) allowed per client address per minute before 429. */
  authFailureLimit: integer(30, 1),
  /** Lets webhooks go to plain http and to private, loopback and link-local addresses (tests, closed networks). */
  webhookAllowPrivate: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true'),
  /** Seconds to wait before each retry of a failed delivery; after the last, the subscription is failing. */
  webhookRetrySeconds: z
    .string()
    .regex(/^\d+(\.\d+)?(,\d+(\.\d+)?)*$/, 'must be seconds separated by commas, like 5,300,1800')
    .default('5,300,1800,7200,18000,36000,28800')
    .transform((text) => text.split(',').map(Number)),
  /**
   * The delivery worker's safety net: the longest it sleeps without a commit's notification waking it, should one
   * be lost (0: no worker in this process). Retries and lease ends are waited for exactly, not by this.
   */
  webhookPollMs: integer(5000, 0),
});

export type Config = z.infer<typeof configSchema>;

/** Reads the configuration from environment variables; an invalid value stops the process with a clear message. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = configSchema.safeParse({
    databaseUrl: env.DATABASE_URL || undefined,
    databaseReadUrl: env.DATABASE_READ_URL || undefined,
    readMaxLagMs: env.DATABASE_READ_MAX_LAG_MS || undefined,
    databaseDirectUrl: env.DATABASE_DIRECT_URL || undefined,
    databasePooler: env.DATABASE_POOLER || undefined,
    dataDir: env.DATA_DIR || undefined,
    poolMax: env.DATABASE_POOL_MAX || undefined,
    poolWaitMs: env.DATABASE_POOL_WAIT_MS || undefined,
    connectTimeoutSeconds: env.DATABASE_CONNECT_TIMEOUT_SECONDS || undefined,
    statementTimeoutMs: env.STATEMENT_TIMEOUT_MS || undefined,
    countTimeoutMs: env.COUNT_TIMEOUT_MS || undefined,
    activityRefreshSeconds: env.ACTIVITY_REFRESH_SECONDS || undefined,
    port: env.PORT || undefined,
    host: env.HOST || undefined,
    plansFile: env.PLANS_FILE || undefined,
    redisUrl: env.REDIS_URL || undefined,
    rateLimitKeyPrefix: env.RATE_LIMIT_KEY_PREFIX || undefined,
    logLevel: env.LOG_LEVEL || undefined,
    metricsToken: env.METRICS_TOKEN || undefined,
    corsOrigins: env.CORS_ORIGINS || undefined,
    trustProxy: env.TRUST_PROXY || undefined,
    authFailureLimit: env.AUTH_FAILURE_LIMIT || undefined,
    webhookAllowPrivate: env.WEBHOOK_ALLOW_PRIVATE || undefined,
    webhookRetrySeconds: env.WEBHOOK_RETRY_SECONDS || undefined,
    webhookPollMs: env.WEBHOOK_POLL_MS || undefined,
  });
  if (parsed.success && parsed.data.databaseReadUrl && !parsed.data.databaseUrl) {
    throw new Error(
      'Invalid configuration: DATABASE_READ_URL needs DATABASE_URL (the primary) to be set too.',
    );
  }
  if (parsed.success && parsed.data.databaseDirectUrl && !parsed.data.databaseUrl) {
    throw new Error(
      'Invalid configuration: DATABASE_DIRECT_URL needs DATABASE_URL (the pooled connection) to be set too.',
    );
  }
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const key = issue.path.join('.');
      return `${variables[key] ?? key}: ${issue.message}`;
    });
    throw new Error(`Invalid configuration: ${problems.join('; ')}`);
  }
  return parsed.data;
}
