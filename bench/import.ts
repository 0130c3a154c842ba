import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import postgres from 'postgres';
import { repositoryRoot } from './dataset.ts';
import { unusedStem } from './results-file.ts';

/**
 * `npm run bench -- --import`: the import path at scale 10 on PostgreSQL, as ratios measured in one run.
 * Each round seeds a fresh database (`orgraph seed`), imports that dataset's export into another fresh one, and
 * imports it again unchanged; the rounds interleave so that a slower moment of the machine touches all three.
 * Every figure is the wall time of the CLI process (start, migrations check, work, exit) and its peak RSS.
 */

const targets = { recordsPerSecond: 30_000, seedRatio: 1.5, reimportSpeedup: 3 };

interface Run {
  seconds: number;
  maxRssMiB: number;
  stdout: string;
}

function runTimed(args: string[], env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn('/usr/bin/time', ['-f', '%e %M', process.execPath, 'bin/orgraph.js', ...args], {
      cwd: repositoryRoot,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const match = stderr
        .trim()
        .split('\n')
        .at(-1)
        ?.match(/^([\d.]+) (\d+)$/);
      if (code !== 0 || !match) {
        reject(new Error(`orgraph ${args.join(' ')} exited with ${code}: ${stderr.trim()}`));
        return;
      }
      resolve({ seconds: Number(match[1]), maxRssMiB: Math.round(Number(match[2]) / 1024), stdout });
    });
  });
}

async function recreateDatabase(baseUrl: string, name: string): Promise<string> {
  const url = new URL(baseUrl);
  url.pathname = '/postgres';
  const admin = postgres(url.toString(), { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.unsafe(`create database ${name}`);
  } finally {
    await admin.end();
  }
  url.pathname = `/${name}`;
  return url.toString();
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

export async function runImportBench(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      scale: { type: 'string', default: '10' },
      rounds: { type: 'string', default: '2' },
      out: { type: 'string', default: join(repositoryRoot, 'bench', 'runs') },
    },
    strict: true,
  });
  const scale = Number(values.scale);
  const rounds = Math.max(1, Math.min(5, Number(values.rounds)));
  // The databases are named after DATABASE_URL's (`<name>_seed`, `<name>_target`), so that a bench run on a shared
  // server uses names of its own; without it, `orgraph_imp_bench_*`.
  const baseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/orgraph_imp_bench';
  const baseName = new URL(baseUrl).pathname.replace(/^\//, '') || 'orgraph_imp_bench';
  if (!/^[a-z_][a-z0-9_]*$/.test(baseName) || /^orgraph_bench/.test(baseName)) {
    throw new Error(`DATABASE_URL names ${baseName}: give the import bench a base name of its own`);
  }
  const exportDir = await mkdtemp(join(tmpdir(), 'orgraph-import-bench-'));
  const log = (line: string) => process.stdout.write(`${line}\n`);
  const measured: { seed: Run[]; import: Run[]; reimport: Run[] } = { seed: [], import: [], reimport: [] };
  let records = 0;
  try {
    for (let r = 1; r <= rounds; r += 1) {
      const seedUrl = await recreateDatabase(baseUrl, `${baseName}_seed`);
      await runTimed(['migrate'], { DATABASE_URL: seedUrl });
      const seed = await runTimed(['seed', '--scale', String(scale)], { DATABASE_URL: seedUrl });
      measured.seed.push(seed);
      log(`round ${r}: seed --scale ${scale} ${seed.seconds} s (peak RSS ${seed.maxRssMiB} MiB)`);
      if (r === 1) {
        const exported = await runTimed(['export', '--out', exportDir], { DATABASE_URL: seedUrl });
        log(`  export ${exported.seconds} s (peak RSS ${exported.maxRssMiB} MiB)`);
      }
      const files = (await readdir(exportDir)).map((name) => join(exportDir, name));
      const targetUrl = await recreateDatabase(baseUrl, `${baseName}_target`);
      await runTimed(['migrate'], { DATABASE_URL: targetUrl });
      const rejects = join(exportDir, '..', 'orgraph-import-bench-rejects.ndjson');
      const first = await runTimed(['import', ...files, '--rejects', rejects], { DATABASE_URL: targetUrl });
      const summary = JSON.parse(first.stdout) as { read: number; written: number; rejected: number };
      if (summary.rejected > 0 || summary.written !== summary.read) {
        throw new Error(`the import did not store every record: ${first.stdout}`);
      }
      records = summary.read;
      measured.import.push(first);
      log(
        `  import ${records} records into an empty database ${first.seconds} s (peak RSS ${first.maxRssMiB} MiB)`,
      );
      const again = await runTimed(['import', ...files, '--rejects', rejects], { DATABASE_URL: targetUrl });
      const second = JSON.parse(again.stdout) as { written: number };
      if (second.written !== 0) throw new Error(`the re-import wrote ${second.written} records`);
      measured.reimport.push(again);
      log(`  re-import unchanged ${again.seconds} s (peak RSS ${again.maxRssMiB} MiB)`);
    }
  } finally {
    await rm(exportDir, { recursive: true, force: true });
  }
  const seedSeconds = median(measured.seed.map((run) => run.seconds));
  const importSeconds = median(measured.import.map((run) => run.seconds));
  const reimportSeconds = median(measured.reimport.map((run) => run.seconds));
  const result = {
    scale,
    rounds,
    records,
    seedSeconds,
    importSeconds,
    reimportSeconds,
    recordsPerSecond: Math.round(records / importSeconds),
    importToSeed: round(importSeconds / seedSeconds),
    reimportSpeedup: round(importSeconds / reimportSeconds),
    peakRssMiB: Math.max(
      ...measured.import.map((run) => run.maxRssMiB),
      ...measured.reimport.map((run) => run.maxRssMiB),
    ),
    targets,
    measured,
  };
  log(
    `\nimport at scale ${scale} (median of ${rounds}): ${result.recordsPerSecond} records/s (target ≥ ${targets.recordsPerSecond}), ` +
      `${result.importToSeed}× the seed's time (target ≤ ${targets.seedRatio}), re-import ${result.reimportSpeedup}× faster ` +
      `(target ≥ ${targets.reimportSpeedup}), peak RSS ${result.peakRssMiB} MiB`,
  );
  await mkdir(values.out, { recursive: true });
  const suffix = `-import-scale${scale}.json`;
  const stem = await unusedStem(values.out, new Date().toISOString().slice(0, 10), [suffix]);
  const file = join(values.out, `${stem}${suffix}`);
  await writeFile(
    file,
    `${JSON.stringify({ ...result, measured: { ...measured, seed: measured.seed.map(({ stdout: _, ...run }) => run) } }, null, 2)}\n`,
  );
  log(`Wrote ${file}`);
}
