import postgres from 'postgres';

/** The database named by a setting could not be opened; the message is one sentence naming setting, host and cause. */
export class DatabaseUnreachableError extends Error {
  constructor(
    readonly setting: string,
    readonly host: string,
    readonly reason: string,
  ) {
    super(`Cannot open the database of ${setting} at ${host}: ${reason}.`);
    this.name = 'DatabaseUnreachableError';
  }
}

/**
 * The server took the connection but refused a parameter of its startup message: what a connection pooler such as
 * PgBouncer does with every parameter but client_encoding, DateStyle, TimeZone, standard_conforming_strings and
 * application_name (`unsupported startup parameter: statement_timeout`).
 */
export class StartupParameterRefusedError extends Error {
  constructor(
    readonly setting: string,
    readonly host: string,
    readonly parameter: string,
  ) {
    super(
      `The server of ${setting} at ${host} refused the startup parameter ${parameter} (a pooler such as PgBouncer passes on only client_encoding, DateStyle, TimeZone, standard_conforming_strings and application_name).`,
    );
    this.name = 'StartupParameterRefusedError';
  }
}

const refusedParameter = /unsupported startup parameter:?\s*"?([\w.]+)/i;

export function hostOf(url: URL): string {
  return `${url.hostname || 'localhost'}:${url.port || 5432}`;
}

/** Why a first connection failed, in words a person can act on. */
function describe(error: unknown, url: URL, timeoutSeconds: number): string {
  const failure = error as { code?: string; message?: string; errno?: string };
  const database =
    decodeURIComponent(url.pathname.slice(1)) || decodeURIComponent(url.username) || 'postgres';
  const user = decodeURIComponent(url.username) || 'the current user';
  switch (failure.code) {
    case 'ECONNREFUSED':
      return 'the connection was refused (is PostgreSQL running and listening on that port?)';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `the host name ${url.hostname} could not be resolved`;
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'the host cannot be reached from this machine';
    case 'CONNECT_TIMEOUT':
      return `no connection within ${timeoutSeconds} s (DATABASE_CONNECT_TIMEOUT_SECONDS)`;
    case '3D000':
      return `database "${database}" does not exist (create it: createdb ${database})`;
    case '28P01':
      return `password authentication failed for user "${user}"`;
    case '28000':
      return `the server refused user "${user}" (${failure.message})`;
    case '57P03':
      return 'the server is starting up or shutting down';
    case 'ECONNRESET':
      return 'the server closed the connection (is it a PostgreSQL server?)';
    default:
      return failure.message || String(error);
  }
}

/**
 * Opens one connection to `url` with the startup parameters `connection`, authenticates and asks the server for
 * the values those parameters have in the session (in pg_settings' units), all within `timeoutSeconds`, and throws
 * {@link DatabaseUnreachableError} (or {@link StartupParameterRefusedError}) otherwise. The overall time limit
 * covers a server that accepts the connection and never answers, which the driver's own connect timeout does not.
 * The values tell whether something between (a pooler told to ignore them) dropped a parameter.
 */
export async function checkDatabaseReachable(
  url: string,
  setting: string,
  timeoutSeconds: number,
  connection: Record<string, string> = {},
): Promise<Record<string, string>> {
  const parsed = new URL(url);
  const sql = postgres(url, {
    max: 1,
    connect_timeout: timeoutSeconds,
    onnotice: () => {},
    connection,
    // A pooler in transaction mode cannot keep a prepared statement between two transactions.
    prepare: false,
  });
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new DatabaseUnreachableError(
            setting,
            hostOf(parsed),
            `no answer within ${timeoutSeconds} s (DATABASE_CONNECT_TIMEOUT_SECONDS); the server accepted no connection or never answered`,
          ),
        ),
      timeoutSeconds * 1000,
    );
  });
  try {
    const names = Object.keys(connection);
    const rows = await Promise.race([
      sql.unsafe<{ name: string; value: string }[]>(
        'select name, setting as value from pg_settings where name = any($1::text[])',
        [names],
      ),
      timedOut,
    ]);
    return Object.fromEntries(rows.map((row) => [row.name, row.value]));
  } catch (error) {
    if (error instanceof DatabaseUnreachableError) throw error;
    const refused = refusedParameter.exec((error as Error).message ?? '')?.[1];
    if (refused) throw new StartupParameterRefusedError(setting, hostOf(parsed), refused);
    throw new DatabaseUnreachableError(setting, hostOf(parsed), describe(error, parsed, timeoutSeconds));
  } finally {
    clearTimeout(timer);
    await sql.end({ timeout: 0 }).catch(() => {});
  }
}
