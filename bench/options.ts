import { parseArgs } from 'node:util';

export interface BenchOptions {
  /** Dataset scales to run, in order; each gets its own database `<base>_s<scale>`. */
  scales: number[];
  /** Seconds of measurement per scenario and concurrency, for HTTP and for the direct reads each. */
  durationSeconds: number;
  /** Seconds of load before each measurement, discarded. */
  warmupSeconds: number;
  concurrency: number[];
  /** Scenario names to run; all when empty. */
  only: string[];
  /** The base connection string; the database name gets `_s<scale>` appended. */
  databaseUrl: string;
  /** Skip the direct-driver comparison. */
  skipDirect: boolean;
  /** Skip PostGraphile v5, the peer of the GraphQL scenarios. */
  skipPeer: boolean;
  /** Where the JSON and markdown results go. */
  outDir: string;
  quick: boolean;
}

export const defaultDatabaseUrl = 'postgres://postgres@127.0.0.1:5432/orgraph_bench';

const usage = `npm run bench -- [options]

  --scales 100,10        dataset scales (database <base>_s<scale>, seeded when empty or at another scale)
  --duration 5           seconds measured per scenario and concurrency (HTTP, and again direct)
  --warmup 2             seconds of discarded load before each measurement
  --concurrency 1,16,64  concurrent requests (connections) to measure at
  --only a,b             only these scenarios (names as printed in the table)
  --skip-direct          do not run the direct-driver comparison
  --skip-peer            do not run PostGraphile v5 beside the GraphQL scenarios
  --out bench/runs       where results are written (ignored by git)
  --quick                smoke run: scale 1, concurrency 4, 1 s each (flags given explicitly still win)

  DATABASE_URL names the base database (default ${defaultDatabaseUrl}).`;

function numbers(text: string, flag: string): number[] {
  const values = text.split(',').map((part) => Number(part.trim()));
  if (values.length === 0 || values.some((value) => !Number.isFinite(value) || value <= 0)) {
    throw new Error(`${flag} wants positive numbers separated by commas; got "${text}"`);
  }
  return values;
}

export function parseOptions(argv: string[], env: NodeJS.ProcessEnv = process.env): BenchOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      scales: { type: 'string' },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      concurrency: { type: 'string' },
      only: { type: 'string', multiple: true },
      'skip-direct': { type: 'boolean', default: false },
      'skip-peer': { type: 'boolean', default: false },
      out: { type: 'string' },
      quick: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log(usage);
    process.exit(0);
  }
  const quick = values.quick ?? false;
  const scales = numbers(values.scales ?? (quick ? '1' : '100,10'), '--scales');
  const concurrency = numbers(values.concurrency ?? (quick ? '4' : '1,16,64'), '--concurrency').map(
    Math.round,
  );
  const [durationSeconds = 5] = numbers(values.duration ?? (quick ? '1' : '5'), '--duration');
  const [warmupSeconds = 2] = numbers(values.warmup ?? (quick ? '0.5' : '2'), '--warmup');
  return {
    scales,
    durationSeconds,
    warmupSeconds,
    concurrency,
    only: (values.only ?? []).flatMap((entry) => entry.split(',').map((name) => name.trim())).filter(Boolean),
    databaseUrl: env.DATABASE_URL || defaultDatabaseUrl,
    skipDirect: values['skip-direct'] ?? false,
    skipPeer: values['skip-peer'] ?? false,
    outDir: values.out ?? 'bench/runs',
    quick,
  };
}
