import { readFile, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import lockfile from 'proper-lockfile';

/**
 * The embedded store admits one process at a time, through a lock directory next to it (`<dataDir>.lock`) whose
 * time stamp its holder keeps fresh; a lock left by a process that died without releasing it (SIGKILL, a crash)
 * goes stale after 10 s. The lock also records its holder (`<dataDir>.lock.owner`: process id and host), so that
 * a restart right after such a death takes the store over at once instead of reporting it in use: a holder on
 * this host whose process no longer exists is gone. Taking over happens under a second lock, so that two processes
 * starting together cannot both take it.
 */
const lockOptions = { stale: 10_000, update: 2_000, realpath: false } as const;

interface Owner {
  pid: number;
  host: string;
}

function isLocked(error: unknown): boolean {
  return (error as { code?: string }).code === 'ELOCKED';
}

/** Stores this process holds: a second open of one of them from the same process is refused like any other. */
const heldHere = new Set<string>();

/** True when the recorded holder is on this host and its process has ended. */
async function ownerIsGone(dataDir: string, ownerFile: string): Promise<boolean> {
  let owner: Owner;
  try {
    owner = JSON.parse(await readFile(ownerFile, 'utf8')) as Owner;
  } catch {
    return false;
  }
  if (owner.host !== hostname() || !Number.isInteger(owner.pid)) return false;
  // Our own id on a lock we do not hold: a previous process that had the same id (a container's usual pid).
  if (owner.pid === process.pid) return !heldHere.has(resolve(dataDir));
  try {
    process.kill(owner.pid, 0);
    return false;
  } catch (error) {
    return (error as { code?: string }).code === 'ESRCH';
  }
}

/** Locks `dataDir` for this process; null when another live process holds it. Resolves to the release. */
export async function lockEmbeddedStore(dataDir: string): Promise<(() => Promise<void>) | null> {
  const ownerFile = `${dataDir}.lock.owner`;
  // A lock of its own name (the library keeps one lock per name): `<dataDir>.takeover.lock`.
  const takeover = await lockfile.lock(`${dataDir}.takeover`, {
    ...lockOptions,
    retries: { retries: 50, minTimeout: 20, maxTimeout: 200 },
  });
  try {
    let release: () => Promise<void>;
    try {
      release = await lockfile.lock(dataDir, lockOptions);
    } catch (error) {
      if (!isLocked(error)) throw error;
      if (!(await ownerIsGone(dataDir, ownerFile))) return null;
      await rm(`${dataDir}.lock`, { recursive: true, force: true });
      try {
        release = await lockfile.lock(dataDir, lockOptions);
      } catch (again) {
        if (isLocked(again)) return null;
        throw again;
      }
    }
    const owner: Owner = { pid: process.pid, host: hostname() };
    await writeFile(ownerFile, JSON.stringify(owner));
    heldHere.add(resolve(dataDir));
    return async () => {
      // The record goes first: a process that finds the lock without it reports the store in use, which it is.
      await rm(ownerFile, { force: true });
      heldHere.delete(resolve(dataDir));
      await release();
    };
  } finally {
    await takeover();
  }
}
