import { connect } from 'node:net';
import postgres from 'postgres';
import type { DatabaseDriver } from './database.ts';
import { poolerSafeParameters } from './topology.ts';

/**
 * A single connection for bulk work (the seed, an import), to the topology's session URL (DATABASE_DIRECT_URL
 * when set: its temporary tables must outlive a transaction, which a transaction pooler does not allow), with
 * session settings of its own in `settings` (application name, statement timeout, planner settings). They go in
 * the startup message where no pooler refuses them, and otherwise in a first statement for the session (a session
 * pooler keeps the session). postgres.js leaves Nagle's algorithm on, and COPY ends with a tiny CopyDone message
 * that then waits for the server's delayed ACK on every statement, which would dominate a load (bench/NOTES.md
 * 60). A TCP socket with `noDelay` removes the wait (unix sockets do not have it).
 */
export function openBulkConnection(
  driver: Extract<DatabaseDriver, { kind: 'postgres' }>,
  settings: Record<string, string | number>,
): postgres.Sql {
  const target = driver.topology.session;
  const parsed = postgres(target.url).options;
  const host = parsed.host[0] ?? 'localhost';
  const port = parsed.port[0] ?? 5432;
  const passed = Object.fromEntries(
    Object.entries(settings).filter(([name]) => target.startupSettings || name in poolerSafeParameters),
  );
  const options = {
    host: parsed.host,
    port: parsed.port,
    path: parsed.path || undefined,
    database: parsed.database,
    user: parsed.user,
    // Typed as null in ParsedOptions, but it holds the password (or a function returning it).
    pass: (parsed as unknown as { pass: unknown }).pass,
    ssl: parsed.ssl,
    max: 1,
    onnotice: () => {},
    connection: { ...poolerSafeParameters, ...passed },
    // postgres.js's documented custom-socket hook (absent from its types): it expects a connected socket.
    socket: parsed.path
      ? undefined
      : () =>
          new Promise((resolve, reject) => {
            const socket = connect({ host, port, noDelay: true });
            socket.once('connect', () => resolve(socket));
            socket.once('error', reject);
          }),
  };
  const sql = postgres(options as unknown as postgres.Options<Record<string, never>>);
  const rest = Object.entries(settings).filter(([name]) => !(name in passed));
  if (rest.length > 0) {
    // Sent ahead of every other statement on the one connection; should it fail, so does the connection's
    // first statement of the caller, which reports the error.
    sql
      .unsafe('select set_config(name, value, false) from unnest($1::text[], $2::text[]) as s(name, value)', [
        rest.map(([name]) => name),
        rest.map(([, value]) => String(value)),
      ])
      .catch(() => {});
  }
  return sql;
}
