import { cpus, loadavg, release, totalmem } from 'node:os';
import postgres from 'postgres';

export interface MachineDescription {
  cpuModel: string;
  cores: number;
  memoryGb: number;
  kernel: string;
  node: string;
  postgres: string;
  /** Postgres settings that shape the numbers. */
  postgresSettings: Record<string, string>;
  /** Load averages (1, 5, 15 min) when the run started: other work on the machine skews the figures. */
  loadAverageAtStart: number[];
}

export async function describeMachine(databaseUrl: string): Promise<MachineDescription> {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    const [{ server_version: version }] = (await sql`show server_version`) as unknown as [
      { server_version: string },
    ];
    const settings = await sql<{ name: string; setting: string; unit: string | null }[]>`
      select name, setting, unit from pg_settings
      where name in ('shared_buffers', 'work_mem', 'max_connections', 'effective_cache_size', 'jit',
                     'max_parallel_workers_per_gather', 'random_page_cost', 'synchronous_commit')
      order by name`;
    return {
      cpuModel: cpus()[0]?.model ?? 'unknown',
      cores: cpus().length,
      memoryGb: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
      kernel: release(),
      node: process.version,
      postgres: version,
      postgresSettings: Object.fromEntries(
        settings.map((row) => [row.name, row.unit ? `${row.setting} (${row.unit})` : row.setting]),
      ),
      loadAverageAtStart: loadavg().map((value) => Math.round(value * 100) / 100),
    };
  } finally {
    await sql.end();
  }
}
