import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chown, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

/** Where Debian's package puts the binary (outside a non-root PATH), else the PATH's. */
function findBinary(): string | undefined {
  if (process.env.PGBOUNCER_PATH) return process.env.PGBOUNCER_PATH;
  if (existsSync('/usr/sbin/pgbouncer')) return '/usr/sbin/pgbouncer';
  try {
    return execFileSync('sh', ['-c', 'command -v pgbouncer'], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

export const pgbouncerBinary = findBinary();

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

export interface Pgbouncer {
  /** `server`'s URL with PgBouncer's host and port instead: the same database, through the pooler. */
  through(url: string): string;
  /** Everything PgBouncer logged so far. */
  log(): Promise<string>;
  stop(): Promise<void>;
}

/**
 * Runs a PgBouncer of its own on a free loopback port in front of the PostgreSQL server of `serverUrl`, its
 * configuration in a temporary directory: `pool_mode` as asked, every database of the server, and PgBouncer's
 * stock settings otherwise, so startup parameters it does not track are refused, as a stock installation does
 * (unless named in `ignoreStartupParameters`, the workaround operators reach for, for measuring the old behaviour).
 * As root it runs as the `postgres` user (PgBouncer refuses to run as root).
 */
export async function startPgbouncer(
  serverUrl: string,
  poolMode: 'transaction' | 'session',
  options: { ignoreStartupParameters?: string[] } = {},
): Promise<Pgbouncer> {
  if (!pgbouncerBinary) throw new Error('PgBouncer is not installed');
  const server = new URL(serverUrl);
  const directory = await mkdtemp(join(tmpdir(), `orgraph-pgbouncer-${poolMode}-`));
  const port = await freePort();
  const user = decodeURIComponent(server.username) || 'postgres';
  const password = decodeURIComponent(server.password);
  const asRoot = userInfo().uid === 0;
  await writeFile(join(directory, 'users.txt'), `"${user}" "${password}"\n`);
  await writeFile(
    join(directory, 'pgbouncer.ini'),
    [
      '[databases]',
      `* = host=${server.hostname} port=${server.port || 5432}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${join(directory, 'users.txt')}`,
      `pool_mode = ${poolMode}`,
      ...(options.ignoreStartupParameters
        ? [`ignore_startup_parameters = ${options.ignoreStartupParameters.join(',')}`]
        : []),
      `logfile = ${join(directory, 'pgbouncer.log')}`,
      ...(asRoot ? ['user = postgres'] : []),
      '',
    ].join('\n'),
  );
  if (asRoot) {
    const ids = ['-u', '-g'].map((flag) =>
      Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' })),
    );
    await chown(directory, ids[0]!, ids[1]!);
    for (const file of ['users.txt', 'pgbouncer.ini']) await chown(join(directory, file), ids[0]!, ids[1]!);
  }
  const child: ChildProcess = spawn(pgbouncerBinary, [join(directory, 'pgbouncer.ini')], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let output = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const log = () => readFile(join(directory, 'pgbouncer.log'), 'utf8').catch(() => output);
  // Listening within 10 s, or the start failed.
  const deadline = Date.now() + 10_000;
  while (!(await log()).includes('listening on 127.0.0.1')) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`PgBouncer did not start:\n${output}\n${await log()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    through(url) {
      const pooled = new URL(url);
      pooled.hostname = '127.0.0.1';
      pooled.port = String(port);
      return pooled.toString();
    },
    log,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGINT');
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      await rm(directory, { recursive: true, force: true });
    },
  };
}
