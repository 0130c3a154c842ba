import { connect } from 'node:net';
import postgres from 'postgres';

/**
 * A single connection to the server `pool` talks to, for bulk work (the seed, an import), with session settings
 * of its own in `settings` (application name, statement timeout, planner settings). postgres.js leaves Nagle's
 * algorithm on, and COPY ends with a tiny CopyDone message that then waits for the server's delayed ACK on every
 * statement, which would dominate a load (bench/NOTES.md 60). A TCP socket with `noDelay` removes the wait (unix
 * sockets do not have it).
 */
export function openBulkConnection(
  pool: postgres.Sql,
  settings: Record<string, string | number>,
): postgres.Sql {
  const parsed = pool.options;
  const host = parsed.host[0] ?? 'localhost';
  const port = parsed.port[0] ?? 5432;
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
    connection: { ...parsed.connection, ...settings },
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
  return postgres(options as unknown as postgres.Options<Record<string, never>>);
}
