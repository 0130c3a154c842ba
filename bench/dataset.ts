import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';

export const repositoryRoot = fileURLToPath(new URL('..', import.meta.url));
export const benchPlansFile = fileURLToPath(new URL('./plans.json', import.meta.url));

/** What the bench knows of a database's dataset: the scale it was seeded at and how long that took. */
export interface DatasetInfo {
  databaseUrl: string;
  databaseName: string;
  scale: number;
  organisations: number;
  /** Wall time of `orgraph seed --scale N --reset` when the bench seeded this database (then or earlier). */
  seedSeconds: number | null;
  seededAt: string | null;
  /** True when this run seeded it. */
  seededNow: boolean;
}

/** `<base database>_s<scale>` on the same server, e.g. orgraph_bench_s100. */
export function databaseUrlFor(baseUrl: string, scale: number): string {
  const url = new URL(baseUrl);
  const base = decodeURIComponent(url.pathname.replace(/^\//, '')) || 'orgraph_bench';
  url.pathname = `/${base}_s${String(scale).replace('.', '_')}`;
  return url.toString();
}

function databaseNameOf(url: string): string {
  return decodeURIComponent(new URL(url).pathname.replace(/^\//, ''));
}

/** Runs the orgraph CLI (as `npx orgraph` would) and returns its standard output. */
export function runCli(
  args: string[],
  env: NodeJS.ProcessEnv,
  options: { echo?: boolean } = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['bin/orgraph.js', ...args], {
      cwd: repositoryRoot,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (options.echo) process.stdout.write(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (options.echo) process.stderr.write(chunk);
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve(stdout);
      else
        reject(new Error(`orgraph ${args.join(' ')} exited with ${code}: ${stderr.trim() || stdout.trim()}`));
    });
  });
}

async function createDatabaseIfMissing(databaseUrl: string): Promise<void> {
  const maintenance = new URL(databaseUrl);
  maintenance.pathname = '/postgres';
  const admin = postgres(maintenance.toString(), { max: 1, onnotice: () => {} });
  try {
    const name = databaseNameOf(databaseUrl);
    const [existing] = await admin`select 1 as present from pg_database where datname = ${name}`;
    if (!existing) await admin.unsafe(`create database "${name.replaceAll('"', '""')}"`);
  } finally {
    await admin.end();
  }
}

/**
 * Makes sure `orgraph_bench_s<scale>` holds the dataset of that scale: migrated, and seeded when it is empty,
 * at another scale, or changed since the bench recorded it (a table `bench_dataset` keeps the scale, the
 * organisation count and the seeding time).
 */
export async function ensureDataset(baseUrl: string, scale: number): Promise<DatasetInfo> {
  const databaseUrl = databaseUrlFor(baseUrl, scale);
  await createDatabaseIfMissing(databaseUrl);
  const env = { DATABASE_URL: databaseUrl, PLANS_FILE: benchPlansFile };
  await runCli(['migrate'], env);

  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    await sql`create table if not exists bench_dataset (
      scale real not null, organisations integer not null, seed_seconds real, seeded_at timestamptz not null
    )`;
    const [recorded] = await sql<
      { scale: number; organisations: number; seed_seconds: number | null; seeded_at: Date }[]
    >`
      select scale, organisations, seed_seconds, seeded_at from bench_dataset limit 1`;
    const [{ count }] = (await sql`select count(*)::int as count from organisations`) as unknown as [
      { count: number },
    ];
    if (recorded && recorded.scale === scale && recorded.organisations === count && count > 0) {
      return {
        databaseUrl,
        databaseName: databaseNameOf(databaseUrl),
        scale,
        organisations: count,
        seedSeconds: recorded.seed_seconds,
        seededAt: recorded.seeded_at.toISOString(),
        seededNow: false,
      };
    }

    console.log(`Seeding ${databaseNameOf(databaseUrl)} at scale ${scale} (found ${count} organisations)...`);
    const started = performance.now();
    await runCli(['seed', '--scale', String(scale), '--reset'], env, { echo: true });
    const seedSeconds = (performance.now() - started) / 1000;
    const [{ count: seeded }] = (await sql`select count(*)::int as count from organisations`) as unknown as [
      { count: number },
    ];
    const seededAt = new Date();
    await sql.begin(async (tx) => {
      await tx`delete from bench_dataset`;
      await tx`insert into bench_dataset (scale, organisations, seed_seconds, seeded_at)
        values (${scale}, ${seeded}, ${seedSeconds}, ${seededAt})`;
    });
    return {
      databaseUrl,
      databaseName: databaseNameOf(databaseUrl),
      scale,
      organisations: seeded,
      seedSeconds,
      seededAt: seededAt.toISOString(),
      seededNow: true,
    };
  } finally {
    await sql.end();
  }
}
