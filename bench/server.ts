import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { benchPlansFile, repositoryRoot } from './dataset.ts';

/** Memory of a process from /proc: the current resident set and its high-water mark, in MiB. */
interface MemorySample {
  rssMb: number;
  peakRssMb: number;
}

function readMemory(pid: number): MemorySample | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (field: string) => Number(status.match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'))?.[1] ?? 0);
    return { rssMb: kib('VmRSS') / 1024, peakRssMb: kib('VmHWM') / 1024 };
  } catch {
    return null;
  }
}

/** A process's memory, sampled from /proc every 250 ms until `stop`, so the high-water mark between reads is kept. */
export interface MemorySampler {
  /** Reads now (the interval's first read is 250 ms after the sampler starts). */
  sample(): void;
  /** The current resident set, read now, in MiB. */
  rssMb(): number;
  /** The peak resident set since the process started (VmHWM), read now, in MiB. */
  peakRssMb(): number;
  /** Reads a last time and stops. */
  stop(): void;
}

export function memorySampler(pid: number): MemorySampler {
  let peak = 0;
  let current = 0;
  const sample = () => {
    const memory = readMemory(pid);
    if (!memory) return;
    current = memory.rssMb;
    peak = Math.max(peak, memory.peakRssMb);
  };
  const timer = setInterval(sample, 250);
  timer.unref();
  return {
    sample,
    rssMb: () => {
      sample();
      return current;
    },
    peakRssMb: () => {
      sample();
      return peak;
    },
    stop: () => {
      sample();
      clearInterval(timer);
    },
  };
}

export interface BenchServer {
  baseUrl: string;
  pid: number;
  /** The server's peak resident set since it started (VmHWM), in MiB. */
  peakRssMb(): number;
  /** The server's current resident set, in MiB. */
  rssMb(): number;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** The compiled server, as production runs it (`npm run build`): no TypeScript loader in the process. */
const compiledCli = 'dist/src/cli/main.js';

/**
 * The Node flags of the production command (docs/operating.md, "The compiled build and memory"): without an
 * explicit heap limit V8 sizes the heap from the machine's memory and the server grows far past what is live
 * (bench/NOTES.md 15).
 */
export const productionNodeFlags = ['--max-old-space-size=512'];

/** Compiles the sources (`npm run build`), so the server measured is the current code. */
export async function buildServer(): Promise<void> {
  await promisify(execFile)(
    process.execPath,
    ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'],
    {
      cwd: repositoryRoot,
    },
  );
}

/**
 * Starts the compiled `orgraph serve` (see {@link buildServer}) as its own process with production settings on a free loopback port, and
 * waits until /readyz answers 200. Memory is sampled from /proc every 250 ms until it stops.
 */
export async function startServer(
  databaseUrl: string,
  extraEnv: NodeJS.ProcessEnv = {},
  /** Another checkout with its own build, to measure its code beside this one's. */
  root = repositoryRoot,
): Promise<BenchServer> {
  const port = await freePort();
  // Node flags for the server alone (heap sizes, --cpu-prof), as command-line flags: NODE_OPTIONS refuses some.
  const extraFlags = process.env.BENCH_SERVER_NODE_OPTIONS?.split(/\s+/).filter(Boolean) ?? [];
  const child: ChildProcess = spawn(
    process.execPath,
    [...productionNodeFlags, ...extraFlags, compiledCli, 'serve'],
    {
      cwd: root,
      env: {
        ...process.env,
        NODE_ENV: 'production',
        LOG_LEVEL: 'warn',
        HOST: '127.0.0.1',
        PORT: String(port),
        DATABASE_URL: databaseUrl,
        PLANS_FILE: benchPlansFile,
        ...extraEnv,
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  const pid = child.pid;
  if (!pid) throw new Error('the server process did not start');
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });

  const memory = memorySampler(pid);

  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (exited) throw new Error('the server exited before it was ready');
    try {
      const response = await fetch(`${baseUrl}/readyz`);
      if (response.ok) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      child.kill('SIGTERM');
      throw new Error('the server was not ready within 120 s');
    }
    await sleep(200);
  }
  memory.sample();

  return {
    baseUrl,
    pid,
    peakRssMb: memory.peakRssMb,
    rssMb: memory.rssMb,
    async stop() {
      memory.stop();
      if (exited) return;
      const done = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      const timeout = sleep(15_000).then(() => {
        if (!exited) child.kill('SIGKILL');
      });
      await Promise.race([done, timeout]);
    },
  };
}
