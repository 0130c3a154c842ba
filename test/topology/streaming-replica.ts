import { execFile as execFileCallback, execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chown, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import postgres from 'postgres';

const execFile = promisify(execFileCallback);

/**
 * A primary and its streaming replica, both throwaway: a primary made with `initdb` in a temporary directory, and
 * a replica of it made with `pg_basebackup -R`, each on a free loopback port. A cluster of its own rather than a
 * copy of the machine's server: a base backup copies every database of a cluster, and the machine's may be large.
 */
export interface StreamingReplica {
  primaryUrl: string;
  replicaUrl: string;
  /** Stops the replica (fast shutdown: its sessions are ended, as by an operator or a crash of the host). */
  stopReplica(): Promise<void>;
  startReplica(): Promise<void>;
  pauseReplay(): Promise<void>;
  resumeReplay(): Promise<void>;
  close(): Promise<void>;
}

const tools = ['initdb', 'pg_ctl', 'pg_basebackup', 'postgres'] as const;

/** The directory of PostgreSQL's server binaries (PG_BINDIR, else Debian's newest), or why there is none. */
export function findServerBinaries(
  env: NodeJS.ProcessEnv = process.env,
): { dir: string } | { missing: string } {
  const candidates: string[] = [];
  if (env.PG_BINDIR) candidates.push(env.PG_BINDIR);
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    const versions = readdirSync(debian).sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((version) => join(debian, version, 'bin')));
  }
  try {
    candidates.push(execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim());
  } catch {}
  const dir = candidates.find((candidate) => tools.every((tool) => existsSync(join(candidate, tool))));
  return dir
    ? { dir }
    : {
        missing:
          `no PostgreSQL server binaries (${tools.join(', ')}) in ${candidates.join(', ') || 'PG_BINDIR or /usr/lib/postgresql'}; ` +
          'install postgresql (Debian) or set PG_BINDIR',
      };
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

/** Starts the pair; every step is bounded in time, and a failure stops what was started. */
export async function startStreamingReplica(binaries: string): Promise<StreamingReplica> {
  const directory = await mkdtemp(join(tmpdir(), 'orgraph-replica-'));
  // PostgreSQL refuses to run as root: as root, it runs as the `postgres` user.
  let ids: { uid: number; gid: number } | undefined;
  if (userInfo().uid === 0) {
    ids = {
      uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' })),
      gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' })),
    };
    await chown(directory, ids.uid, ids.gid);
  }
  const run = (tool: string, args: string[], timeoutMs = 30_000) =>
    execFile(join(binaries, tool), args, {
      ...ids,
      cwd: directory,
      timeout: timeoutMs,
      env: { LC_ALL: 'C' },
    });
  const dirs = { primary: join(directory, 'primary'), replica: join(directory, 'replica') };
  const ports = { primary: await freePort(), replica: await freePort() };
  const serverOptions = (port: number) =>
    `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${directory} -c fsync=off ` +
    '-c max_connections=40 -c shared_buffers=16MB';
  const pgCtl = (role: 'primary' | 'replica', action: 'start' | 'stop') =>
    action === 'start'
      ? run('pg_ctl', [
          'start',
          '-w',
          '-t',
          '30',
          '-D',
          dirs[role],
          '-l',
          join(directory, `${role}.log`),
          '-o',
          serverOptions(ports[role]),
        ])
      : run('pg_ctl', ['stop', '-w', '-t', '30', '-m', 'fast', '-D', dirs[role]]);

  const urlOf = (port: number) => `postgres://postgres@127.0.0.1:${port}/postgres`;
  let started: ('primary' | 'replica')[] = [];
  const stopAll = async () => {
    for (const role of started.reverse()) await pgCtl(role, 'stop').catch(() => {});
    started = [];
    await rm(directory, { recursive: true, force: true });
  };
  try {
    // initdb's pg_hba.conf with trust lets 127.0.0.1 in for replication too.
    await run('initdb', [
      '-D',
      dirs.primary,
      '-U',
      'postgres',
      '-A',
      'trust',
      '--no-locale',
      '-E',
      'UTF8',
      '-N',
    ]);
    await pgCtl('primary', 'start');
    started.push('primary');
    await run('pg_basebackup', [
      '-h',
      '127.0.0.1',
      '-p',
      String(ports.primary),
      '-U',
      'postgres',
      '-D',
      dirs.replica,
      '-R',
      '-X',
      'stream',
      '-c',
      'fast',
      '-N',
    ]);
    await pgCtl('replica', 'start');
    started.push('replica');
  } catch (error) {
    const logs = await Promise.all(
      ['primary', 'replica'].map((role) => readFile(join(directory, `${role}.log`), 'utf8').catch(() => '')),
    );
    await stopAll();
    throw new Error(
      `Could not make a streaming replica: ${(error as Error).message}\n${logs.join('\n').slice(-2000)}`,
    );
  }

  const onReplica = async (statement: string) => {
    const sql = postgres(urlOf(ports.replica), { max: 1, connect_timeout: 5, onnotice: () => {} });
    try {
      await sql.unsafe(statement);
    } finally {
      await sql.end({ timeout: 1 });
    }
  };
  return {
    primaryUrl: urlOf(ports.primary),
    replicaUrl: urlOf(ports.replica),
    async stopReplica() {
      await pgCtl('replica', 'stop');
      started = started.filter((role) => role !== 'replica');
    },
    async startReplica() {
      await pgCtl('replica', 'start');
      started.push('replica');
    },
    pauseReplay: () => onReplica('select pg_wal_replay_pause()'),
    resumeReplay: () => onReplica('select pg_wal_replay_resume()'),
    close: stopAll,
  };
}
