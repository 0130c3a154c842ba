import type { AnswerCheck } from './answers.ts';
import type { DatasetInfo } from './dataset.ts';
import type { LoadResult } from './http-load.ts';
import type { MachineDescription } from './machine.ts';
import { type LatencyClass, latencyTargetsMs } from './scenarios.ts';
import type { StatementReport } from './statements.ts';

export interface ConcurrencyResult {
  concurrency: number;
  http: LoadResult;
  direct: LoadResult | null;
  /** orgraph requests/s ÷ direct reads/s. */
  ratio: number | null;
  /** PostGraphile v5 on the same rows (GraphQL scenarios it can express), and orgraph req/s ÷ its req/s. */
  peer?: LoadResult | null;
  peerRatio?: number | null;
  peerPeakRssMb?: number | null;
  /** The server's resident set at the end of this measurement, and its peak since it started (MiB). */
  serverRssMb: number;
  serverPeakRssMb: number;
}

export interface ScenarioResult {
  name: string;
  transport: 'rest' | 'graphql';
  description: string;
  latencyClass: LatencyClass;
  growthChecked: boolean;
  statements: StatementReport | null;
  /** What the direct reads are: the domain's functions, or minimal SQL written by hand (GraphQL scenarios). */
  directKind?: 'domain' | 'hand-written SQL';
  /** orgraph's answers compared with PostGraphile's and the direct reads', before timing. */
  answers?: AnswerCheck | null;
  /** Why PostGraphile's generated schema cannot ask for this scenario's rows. */
  peerUnsupported?: string | null;
  runs: ConcurrencyResult[];
}

export interface ScaleResult {
  startedAt: string;
  finishedAt: string;
  scale: number;
  dataset: DatasetInfo;
  machine: MachineDescription;
  settings: { durationSeconds: number; warmupSeconds: number; concurrency: number[]; serverPoolMax: number };
  serverPeakRssMb: number;
  peerPeakRssMb?: number | null;
  loadAverageAtEnd: number[];
  scenarios: ScenarioResult[];
}

const fixed = (value: number, digits = 1) => value.toFixed(digits);

function range(value: { min: number; max: number } | undefined): string {
  if (!value || !Number.isFinite(value.min)) return '-';
  return value.min === value.max ? String(value.min) : `${value.min}-${value.max}`;
}

/**
 * Direct CPU per read ÷ the CPU one request costs the machine (service, PostgreSQL and load generator):
 * what the throughput ratio tends to on a CPU-bound machine, and steadier than it when other work runs.
 */
export function cpuRatio(run: ConcurrencyResult): number | null {
  const service = run.http.cpuMsPerRequest;
  const direct = run.direct?.cpuMsPerRequest;
  if (!service || service.process === null || !direct || direct.process === null) return null;
  const serviceTotal = service.process + service.database + (run.http.loadGeneratorCpuMsPerRequest ?? 0);
  return serviceTotal > 0 ? (direct.process + direct.database) / serviceTotal : null;
}

/** The failures and, when there are any, their statuses (e.g. `3 (503)`). */
function errorsOf(load: LoadResult): string {
  if (load.errors === 0) return '0';
  const statuses = Object.keys(load.errorStatuses);
  return statuses.length > 0 ? `${load.errors} (${statuses.join(', ')})` : String(load.errors);
}

/** A latency percentile, or `-` when no request succeeded (the summary is then all zeros). */
function latency(load: LoadResult, percentile: 'p50' | 'p90' | 'p99'): string {
  return load.successes === 0 ? '-' : fixed(load.latencyMs[percentile]);
}

/** Node CPU + database CPU per request, in milliseconds. */
function cpuOf(load: LoadResult): string {
  const cpu = load.cpuMsPerRequest;
  if (!cpu) return '-';
  return `${cpu.process === null ? '-' : fixed(cpu.process, 2)}+${fixed(cpu.database, 2)}`;
}

const columns = [
  'scenario',
  'conc',
  'req/s',
  'p50 ms',
  'p90 ms',
  'p99 ms',
  'errors',
  'CPU ms/req',
  'direct req/s',
  'direct p99',
  'direct CPU',
  'ratio',
  'CPU ratio',
  'PostGraphile req/s',
  'PostGraphile p50',
  'PostGraphile CPU',
  '× PostGraphile',
  'SQL/req',
  'RSS MB',
] as const;

function rowsOf(result: ScaleResult): string[][] {
  return result.scenarios.flatMap((scenario) =>
    scenario.runs.map((run) => [
      scenario.name,
      String(run.concurrency),
      fixed(run.http.requestsPerSecond, 0),
      latency(run.http, 'p50'),
      latency(run.http, 'p90'),
      latency(run.http, 'p99'),
      errorsOf(run.http),
      cpuOf(run.http),
      run.direct ? fixed(run.direct.requestsPerSecond, 0) : '-',
      run.direct ? latency(run.direct, 'p99') : '-',
      run.direct ? cpuOf(run.direct) : '-',
      run.ratio === null ? '-' : fixed(run.ratio, 2),
      cpuRatio(run) === null ? '-' : fixed(cpuRatio(run)!, 2),
      run.peer ? fixed(run.peer.requestsPerSecond, 0) : scenario.peerUnsupported ? 'n/a' : '-',
      run.peer ? latency(run.peer, 'p50') : '-',
      run.peer ? cpuOf(run.peer) : '-',
      run.peerRatio === null || run.peerRatio === undefined ? '-' : fixed(run.peerRatio, 2),
      range(scenario.statements?.statements),
      fixed(run.serverPeakRssMb, 0),
    ]),
  );
}

/** A fixed-width table for the terminal. */
export function renderTable(result: ScaleResult): string {
  const rows = [columns.map(String), ...rowsOf(result)];
  const widths = columns.map((_, index) => Math.max(...rows.map((row) => row[index]!.length)));
  return rows
    .map((row) =>
      row
        .map((cell, index) => (index === 0 ? cell.padEnd(widths[index]!) : cell.padStart(widths[index]!)))
        .join('  '),
    )
    .join('\n');
}

export function renderMarkdownTable(result: ScaleResult): string {
  const header = `| ${columns.join(' | ')} |`;
  const rule = `| ${columns.map((_, index) => (index === 0 ? '---' : '---:')).join(' | ')} |`;
  return [header, rule, ...rowsOf(result).map((row) => `| ${row.join(' | ')} |`)].join('\n');
}

export interface TargetCheck {
  target: string;
  subject: string;
  measured: string;
  met: boolean;
}

const reference = { scale: 100, concurrency: 16 };

function runAt(scenario: ScenarioResult, concurrency: number) {
  return scenario.runs.find((run) => run.concurrency === concurrency);
}

/**
 * Whether the largest response needed no more statements than some smaller one did. Counts vary for
 * reasons other than rows (a count reused from a moment ago, a page without moves needing no person
 * lookups); what must not happen is more rows costing more statements.
 */
function statementsBounded(report: StatementReport): boolean {
  const samples = report.perRequest ?? [];
  if (samples.length < 2) return true;
  const most = Math.max(...samples.map((sample) => sample.bytes));
  const largest = samples.filter((sample) => sample.bytes === most);
  const others = samples.filter((sample) => sample.bytes < most);
  if (others.length === 0) return true;
  return (
    Math.min(...largest.map((sample) => sample.statements)) <=
    Math.max(...others.map((sample) => sample.statements))
  );
}

/** The issue's targets, checked against the scale-100 run at concurrency 16 (and scale 10 for growth). */
export function checkTargets(results: readonly ScaleResult[]): TargetCheck[] {
  const checks: TargetCheck[] = [];
  const main = results.find((result) => result.scale === reference.scale);
  if (!main) return checks;
  const small = results.find((result) => result.scale === 10);

  for (const scenario of main.scenarios) {
    const run = runAt(scenario, reference.concurrency);
    if (!run) continue;
    if (run.peerRatio !== null && run.peerRatio !== undefined) {
      // Issue 16: the graph at 1.5× PostGraphile v5, REST's single record at 2×.
      const peerFloor = scenario.transport === 'rest' ? 2 : 1.5;
      checks.push({
        target: `throughput ≥ ${peerFloor}× PostGraphile v5`,
        subject: scenario.name,
        measured: `${fixed(run.peerRatio, 2)}× (answers: ${scenario.answers?.peerMatched ?? '-'}/${scenario.answers?.samples ?? '-'} equal)`,
        met: run.peerRatio >= peerFloor && scenario.answers?.peerMatched === scenario.answers?.samples,
      });
    }
    if (run.ratio !== null) {
      const floor = scenario.transport === 'rest' ? 0.5 : 0.4;
      checks.push({
        target: `throughput ≥ ${floor * 100}% of direct`,
        subject: scenario.name,
        measured: `${fixed(run.ratio * 100, 0)}% (CPU ratio ${cpuRatio(run) === null ? '-' : `${fixed(cpuRatio(run)! * 100, 0)}%`})`,
        met: run.ratio >= floor,
      });
    }
    const limit = latencyTargetsMs[scenario.latencyClass];
    checks.push({
      target: `p99 < ${limit} ms (${scenario.latencyClass})`,
      subject: scenario.name,
      measured: run.http.successes === 0 ? 'no request succeeded' : `${fixed(run.http.latencyMs.p99)} ms`,
      met: run.http.successes > 0 && run.http.latencyMs.p99 < limit,
    });
    if (scenario.statements) {
      checks.push({
        target: 'SQL statements per request do not grow with rows',
        subject: scenario.name,
        measured: `${range(scenario.statements.statements)} over responses of ${range(scenario.statements.responseBytes)} bytes`,
        met: statementsBounded(scenario.statements),
      });
    }
    if (small && scenario.growthChecked) {
      const before = small.scenarios.find((candidate) => candidate.name === scenario.name);
      const beforeRun = before && runAt(before, reference.concurrency);
      if (beforeRun) {
        const growth = run.http.latencyMs.p99 / Math.max(beforeRun.http.latencyMs.p99, 0.001);
        checks.push({
          target: 'p99 growth scale 10 → 100 ≤ 2×',
          subject: scenario.name,
          measured: `${fixed(beforeRun.http.latencyMs.p99)} → ${fixed(run.http.latencyMs.p99)} ms (${fixed(growth, 2)}×)`,
          met: growth <= 2,
        });
      }
    }
  }
  const large = results.find((result) => result.scale === 1000);
  if (large) {
    for (const row of growthRows(main, large)) {
      if (!row.checked || row.concurrency !== reference.concurrency) continue;
      checks.push({
        target: `growth scale 100 → 1000: p50 ≤ ${growthTargets.p50}×, p99 ≤ ${growthTargets.p99}×`,
        subject: row.scenario,
        measured: `p50 ${fixed(row.p50.growth, 2)}×, p99 ${fixed(row.p99.growth, 2)}×`,
        met: row.p50.growth <= growthTargets.p50 && row.p99.growth <= growthTargets.p99,
      });
    }
  }
  const peak = Math.max(...results.map((result) => result.serverPeakRssMb));
  checks.push({
    target: 'server peak RSS < 300 MB',
    subject: 'whole run',
    measured: `${fixed(peak, 0)} MiB`,
    met: peak < 300,
  });
  if (main.dataset.seedSeconds !== null) {
    checks.push({
      target: 'seed --scale 100 < 5 min',
      subject: main.dataset.databaseName,
      measured: `${fixed(main.dataset.seedSeconds, 0)} s`,
      met: main.dataset.seedSeconds < 300,
    });
  }
  return checks;
}

export interface GrowthRow {
  scenario: string;
  concurrency: number;
  p50: { smaller: number; larger: number; growth: number };
  p99: { smaller: number; larger: number; growth: number };
  /** Whether the growth targets apply: every list, search and page read (single records must stay flat anyway). */
  checked: boolean;
}

/** The latency growth targets from one scale to the next (issue 26): p50 at most 2×, p99 at most 3×. */
export const growthTargets = { p50: 2, p99: 3 };

/**
 * The growth column: for every scenario and concurrency measured at both scales, p50 at the larger scale ÷ p50
 * at the smaller, and p99 likewise. Runs without a successful request are left out.
 */
export function growthRows(smaller: ScaleResult, larger: ScaleResult): GrowthRow[] {
  const rows: GrowthRow[] = [];
  for (const scenario of larger.scenarios) {
    const before = smaller.scenarios.find((candidate) => candidate.name === scenario.name);
    if (!before) continue;
    for (const run of scenario.runs) {
      const beforeRun = runAt(before, run.concurrency);
      if (!beforeRun || run.http.successes === 0 || beforeRun.http.successes === 0) continue;
      const ratio = (percentile: 'p50' | 'p99') => ({
        smaller: beforeRun.http.latencyMs[percentile],
        larger: run.http.latencyMs[percentile],
        growth: run.http.latencyMs[percentile] / Math.max(beforeRun.http.latencyMs[percentile], 0.001),
      });
      rows.push({
        scenario: scenario.name,
        concurrency: run.concurrency,
        p50: ratio('p50'),
        p99: ratio('p99'),
        checked: scenario.latencyClass !== 'single',
      });
    }
  }
  return rows;
}

/** A markdown table of `growthRows`, with whether each checked row meets `growthTargets`. */
export function renderGrowthTable(smaller: ScaleResult, larger: ScaleResult): string {
  const rows = growthRows(smaller, larger);
  const header = `| scenario | conc | p50 ms at ${smaller.scale} / ${larger.scale} | p50 growth | p99 ms at ${smaller.scale} / ${larger.scale} | p99 growth | within ${growthTargets.p50}× / ${growthTargets.p99}× |`;
  return [
    header,
    '| --- | ---: | ---: | ---: | ---: | ---: | --- |',
    ...rows.map((row) => {
      const met = row.p50.growth <= growthTargets.p50 && row.p99.growth <= growthTargets.p99;
      return `| ${row.scenario} | ${row.concurrency} | ${fixed(row.p50.smaller)} / ${fixed(row.p50.larger)} | ${fixed(row.p50.growth, 2)}× | ${fixed(row.p99.smaller)} / ${fixed(row.p99.larger)} | ${fixed(row.p99.growth, 2)}× | ${row.checked ? (met ? 'yes' : 'NO') : 'not a target'} |`;
    }),
  ].join('\n');
}

/** The growth sections of a report: each pair of consecutive scales measured, smaller first. */
export function renderGrowth(results: readonly ScaleResult[]): string {
  const sorted = [...results].sort((a, b) => a.scale - b.scale);
  const sections: string[] = [];
  for (let i = 1; i < sorted.length; i += 1) {
    const smaller = sorted[i - 1]!;
    const larger = sorted[i]!;
    sections.push(
      `## Growth from scale ${smaller.scale} to ${larger.scale}`,
      '',
      'p50 at the larger scale ÷ p50 at the smaller, and p99 likewise; the targets apply to the list, search and page reads.',
      '',
      renderGrowthTable(smaller, larger),
      '',
    );
  }
  return sections.join('\n');
}

/** Per GraphQL scenario (and any other compared with PostGraphile): what its direct reads are, whether the answers matched, what PostGraphile cannot ask. */
function answerLines(result: ScaleResult): string[] {
  const lines = result.scenarios.flatMap((scenario) => {
    if (scenario.transport !== 'graphql' && !scenario.answers) return [];
    const parts = [`direct reads: ${scenario.directKind ?? 'domain'}`];
    const answers = scenario.answers;
    if (answers) {
      if (answers.peerMatched !== null)
        parts.push(`PostGraphile's answers equal to orgraph's: ${answers.peerMatched}/${answers.samples}`);
      if (answers.directMatched !== null)
        parts.push(`direct answers equal: ${answers.directMatched}/${answers.samples}`);
      if (answers.firstDifference) parts.push(`first difference: ${answers.firstDifference}`);
    }
    if (scenario.peerUnsupported) parts.push(`not asked of PostGraphile: ${scenario.peerUnsupported}`);
    return [`- ${scenario.name}: ${parts.join('; ')}.`];
  });
  return lines.length > 0 ? [...lines, ''] : [];
}

function describeMachineLine(machine: MachineDescription): string {
  return `${machine.cores} × ${machine.cpuModel}, ${machine.memoryGb} GB, Linux ${machine.kernel}, Node ${machine.node}, PostgreSQL ${machine.postgres} on the same machine`;
}

/** The markdown report of a run: the machine, one table per scale, and the targets. */
export function renderMarkdown(results: readonly ScaleResult[]): string {
  const first = results[0];
  if (!first) return '';
  const lines = [
    `# orgraph benchmark, ${first.startedAt.slice(0, 10)}`,
    '',
    `Machine: ${describeMachineLine(first.machine)}. Load average at start: ${first.machine.loadAverageAtStart.join(', ')}.`,
    `Each measurement: ${first.settings.warmupSeconds} s warm-up, then ${first.settings.durationSeconds} s; server pool ${first.settings.serverPoolMax} connections; the direct reads use a pool of the same size.`,
    '',
  ];
  for (const result of results) {
    lines.push(
      `## Scale ${result.scale} (${result.dataset.organisations.toLocaleString('en-GB')} organisations)`,
      '',
      renderMarkdownTable(result),
      '',
      `Server peak RSS over the run: ${fixed(result.serverPeakRssMb, 0)} MiB` +
        (result.peerPeakRssMb ? `; PostGraphile's: ${fixed(result.peerPeakRssMb, 0)} MiB` : '') +
        `. Load average at end: ${result.loadAverageAtEnd.join(', ')}.`,
      '',
      ...answerLines(result),
    );
  }
  const growth = renderGrowth(results);
  if (growth) lines.push(growth);
  const checks = checkTargets(results);
  if (checks.length > 0) {
    lines.push(
      `## Targets (scale ${reference.scale}, concurrency ${reference.concurrency})`,
      '',
      '| target | subject | measured | met |',
      '| --- | --- | --- | --- |',
      ...checks.map(
        (check) => `| ${check.target} | ${check.subject} | ${check.measured} | ${check.met ? 'yes' : 'NO'} |`,
      ),
      '',
    );
  }
  return `${lines.join('\n')}\n`;
}
