import { readdirSync, readFileSync } from 'node:fs';

// CPU time is a steadier measure than latency on a shared machine: other work slows a request down but
// does not make it burn more CPU. Read from /proc, so Linux only; elsewhere the figures are null.

const ticksPerSecond = 100;

/** User plus system CPU of a process (all its threads), in milliseconds; null when it is gone. */
export function processCpuMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces; the fields after its closing parenthesis are fixed.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) / ticksPerSecond) * 1000;
  } catch {
    return null;
  }
}

/** CPU of every PostgreSQL backend serving `database`, by process id. */
export function databaseBackendsCpuMs(database: string): Map<number, number> {
  const backends = new Map<number, number>();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return backends;
  }
  const marker = ` ${database} `;
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const command = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (!command.startsWith('postgres: ') || !command.includes(marker)) continue;
      const cpu = processCpuMs(Number(entry));
      if (cpu !== null) backends.set(Number(entry), cpu);
    } catch {
      // The process ended while being read.
    }
  }
  return backends;
}

export interface CpuMeter {
  /** CPU used since the meter started, in milliseconds: the given process and the database's backends. */
  stop(): { processMs: number | null; databaseMs: number };
}

/**
 * Measures the CPU a process (the server, or this process for the direct reads) and the database's
 * backends spend between start and stop. Backends that start meanwhile count from zero.
 */
export function startCpuMeter(pid: number, database: string): CpuMeter {
  const processBefore = processCpuMs(pid);
  const backendsBefore = databaseBackendsCpuMs(database);
  return {
    stop() {
      const processAfter = processCpuMs(pid);
      let databaseMs = 0;
      for (const [backend, cpu] of databaseBackendsCpuMs(database)) {
        databaseMs += cpu - (backendsBefore.get(backend) ?? 0);
      }
      return {
        processMs: processBefore === null || processAfter === null ? null : processAfter - processBefore,
        databaseMs,
      };
    },
  };
}
