import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { loadConfig } from '../src/config.ts';
import { createLogger, useLogger } from '../src/http/observability/logger.ts';
import { type AnswerCheck, checkAnswers, peerFetch } from './answers.ts';
import { startCpuMeter } from './cpu.ts';
import { benchPlansFile, ensureDataset, repositoryRoot, runCli } from './dataset.ts';
import { loadDirect } from './direct.ts';
import { orderDigestOf, peerCursorProbe } from './graph-reads.ts';
import { type HttpLoadOptions, type LoadResult, loadHttp, mergeLoads } from './http-load.ts';
import { describeMachine } from './machine.ts';
import { type BenchOptions, parseOptions } from './options.ts';
import { startPeer } from './peer.ts';
import {
  type ConcurrencyResult,
  renderMarkdown,
  renderTable,
  type ScaleResult,
  type ScenarioResult,
} from './report.ts';
import { unusedStem } from './results-file.ts';
import { sampleDatabase } from './samples.ts';
import { createScenarios, type PeerContext, type PeerScenario } from './scenarios.ts';
import { type BenchServer, buildServer, startServer } from './server.ts';
import { measureStatements, openInProcessApp, saveEventSearch } from './statements.ts';

/** Where the measurement's rotation starts: past the warm-up's, so it does not replay the same rows first. */
const measuredFirstIndex = 50_000;

const round = (value: number) => Math.round(value * 100) / 100;

function perRequest(cpu: { processMs: number | null; databaseMs: number }, requests: number) {
  const share = (ms: number) => round(ms / Math.max(requests, 1));
  return { process: cpu.processMs === null ? null : share(cpu.processMs), database: share(cpu.databaseMs) };
}

function log(line: string) {
  process.stdout.write(`${line}\n`);
}

/** One scale made ready to measure: its dataset, token, samples, answers checked and servers running. */
interface OpenScale {
  scale: number;
  startedAt: string;
  dataset: Awaited<ReturnType<typeof ensureDataset>>;
  machine: Awaited<ReturnType<typeof describeMachine>>;
  config: ReturnType<typeof loadConfig>;
  token: string;
  app: Awaited<ReturnType<typeof openInProcessApp>>;
  context: { countTimeoutMs: number; sql: Awaited<ReturnType<typeof openInProcessApp>>['sql'] };
  scenarios: ReturnType<typeof createScenarios>;
  statementReports: Map<string, Awaited<ReturnType<typeof measureStatements>>>;
  answerChecks: Map<string, AnswerCheck>;
  server: BenchServer;
  peer: BenchServer | undefined;
  peerContext: PeerContext | undefined;
  runs: Map<string, ConcurrencyResult[]>;
  close(): Promise<void>;
}

type Scenario = ReturnType<typeof createScenarios>[number];

function peerScenarioOf(scenario: Scenario, options: BenchOptions): PeerScenario | null {
  return !options.skipPeer && scenario.peer && 'request' in scenario.peer
    ? (scenario.peer as PeerScenario)
    : null;
}

/** Seeds the scale if needed, runs the instrumented pass and the answer checks, and starts its servers. */
async function openScale(scale: number, options: BenchOptions): Promise<OpenScale> {
  const startedAt = new Date().toISOString();
  const dataset = await ensureDataset(options.databaseUrl, scale);
  log(
    `\n== scale ${scale}: ${dataset.databaseName}, ${dataset.organisations} organisations` +
      (dataset.seedSeconds === null ? '' : ` (seeded in ${dataset.seedSeconds.toFixed(0)} s)`),
  );
  const machine = await describeMachine(dataset.databaseUrl);
  const env = { DATABASE_URL: dataset.databaseUrl, PLANS_FILE: benchPlansFile };
  const config = loadConfig({ ...process.env, ...env });
  const token = (await runCli(['token', 'create', '--plan', 'enterprise', '--label', 'bench'], env)).trim();
  const samples = await sampleDatabase(dataset.databaseUrl);
  const app = await openInProcessApp(dataset.databaseUrl, () => token);
  const context = { countTimeoutMs: config.countTimeoutMs, sql: app.sql };
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  let peer: BenchServer | undefined;
  const close = async () => {
    await server?.stop();
    await peer?.stop();
    await app.close();
    await runCli(['token', 'revoke', token], env).catch(() => {});
  };

  try {
    const queryId = await saveEventSearch(app, samples);
    const scenarios = createScenarios({ samples, queryId }).filter(
      (scenario) => options.only.length === 0 || options.only.includes(scenario.name),
    );
    if (scenarios.length === 0) throw new Error(`no scenario is named ${options.only.join(', ')}`);

    // The instrumented pass runs before the server starts, so nothing else competes for the database.
    const statementReports = new Map<string, Awaited<ReturnType<typeof measureStatements>>>();
    for (const scenario of scenarios) {
      const report = await measureStatements(app, scenario, context);
      statementReports.set(scenario.name, report);
      if (report.failures > 0)
        log(`  ! ${scenario.name}: ${report.failures} failed requests: ${report.firstFailure}`);
    }

    // PostGraphile v5 on the same database, with a pool of the server's size; answers compared before timing.
    let peerContext: PeerContext | undefined;
    if (scenarios.some((scenario) => peerScenarioOf(scenario, options))) {
      peer = await startPeer(dataset.databaseUrl, config.poolMax);
      const probe = (await peerFetch(peer.baseUrl, {
        method: 'POST',
        path: '/graphql',
        body: JSON.stringify({ query: peerCursorProbe }),
      })) as { data: { organisations: { edges: { cursor: string }[] } } };
      peerContext = { organisationOrderDigest: orderDigestOf(probe.data.organisations.edges[0]!.cursor) };
    }
    const answerChecks = new Map<string, AnswerCheck>();
    for (const scenario of scenarios) {
      const check = await checkAnswers(
        app,
        scenario,
        context,
        peer && peerContext && peerScenarioOf(scenario, options)
          ? { baseUrl: peer.baseUrl, context: peerContext }
          : null,
      );
      if (!check) continue;
      answerChecks.set(scenario.name, check);
      log(
        `  answers ${scenario.name}: PostGraphile ${check.peerMatched ?? '-'}/${check.samples}, direct ${check.directMatched ?? '-'}/${check.samples}` +
          (check.firstDifference ? `; first difference: ${check.firstDifference}` : ''),
      );
    }

    server = await startServer(dataset.databaseUrl);
    return {
      scale,
      startedAt,
      dataset,
      machine,
      config,
      token,
      app,
      context,
      scenarios,
      statementReports,
      answerChecks,
      server,
      peer,
      peerContext,
      runs: new Map(),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** What one scale's measurement of a scenario at a concurrency gathers, slice by slice. */
interface Gathering {
  open: OpenScale;
  scenario: Scenario;
  http: Omit<HttpLoadOptions, 'seconds'>;
  peerHttp: Omit<HttpLoadOptions, 'seconds'> | null;
  reads: Omit<Parameters<typeof loadDirect>[0], 'seconds'>;
  httpSlices: LoadResult[];
  peerSlices: LoadResult[];
  directSlices: LoadResult[];
}

function gatheringOf(
  open: OpenScale,
  scenario: Scenario,
  concurrency: number,
  options: BenchOptions,
): Gathering {
  const peerScenario = peerScenarioOf(scenario, options);
  const peer = open.peer;
  const peerContext = open.peerContext;
  return {
    open,
    scenario,
    http: {
      baseUrl: open.server.baseUrl,
      token: open.token,
      concurrency,
      request: scenario.request,
    },
    peerHttp:
      peerScenario && peer && peerContext
        ? {
            baseUrl: peer.baseUrl,
            token: open.token,
            concurrency,
            request: (index: number) => peerScenario.request(index, peerContext),
          }
        : null,
    reads: { db: open.app.db, scenario, context: open.context, concurrency },
    httpSlices: [],
    peerSlices: [],
    directSlices: [],
  };
}

/** One slice of a scale's measurement: orgraph, then PostGraphile, then the direct reads. */
async function measureSlice(g: Gathering, seconds: number, firstIndex: number, options: BenchOptions) {
  const { open } = g;
  const serverMeter = startCpuMeter(open.server.pid, open.dataset.databaseName);
  const generatorBefore = process.cpuUsage();
  const part = await loadHttp({ ...g.http, seconds, firstIndex });
  part.cpuMsPerRequest = perRequest(serverMeter.stop(), part.requests);
  // The load generator shares the cores with the server and PostgreSQL; its cost is reported too.
  const generator = process.cpuUsage(generatorBefore);
  part.loadGeneratorCpuMsPerRequest = round(
    (generator.user + generator.system) / 1000 / Math.max(part.requests, 1),
  );
  g.httpSlices.push(part);
  if (g.peerHttp && open.peer) {
    const peerMeter = startCpuMeter(open.peer.pid, open.dataset.databaseName);
    const peerPart = await loadHttp({ ...g.peerHttp, seconds, firstIndex });
    peerPart.cpuMsPerRequest = perRequest(peerMeter.stop(), peerPart.requests);
    g.peerSlices.push(peerPart);
  }
  if (!options.skipDirect) {
    const directMeter = startCpuMeter(process.pid, open.dataset.databaseName);
    const directPart = await loadDirect({ ...g.reads, seconds, firstIndex });
    directPart.cpuMsPerRequest = perRequest(directMeter.stop(), directPart.requests);
    g.directSlices.push(directPart);
  }
}

/** Merges a scale's slices into its result at the concurrency, and prints its line. */
function finishGathering(g: Gathering, options: BenchOptions): ConcurrencyResult {
  const { open } = g;
  const { concurrency } = g.http;
  const measured = mergeLoads(g.httpSlices);
  const direct = options.skipDirect ? null : mergeLoads(g.directSlices);
  const peerLoad = g.peerSlices.length > 0 ? mergeLoads(g.peerSlices) : null;
  const peerRatio =
    peerLoad && peerLoad.requestsPerSecond > 0
      ? measured.requestsPerSecond / peerLoad.requestsPerSecond
      : null;
  const serverRssMb = open.server.rssMb();
  const ratio =
    direct && direct.requestsPerSecond > 0 ? measured.requestsPerSecond / direct.requestsPerSecond : null;
  log(
    `  ${`${g.scenario.name} @${open.scale}`.padEnd(34)} c=${String(concurrency).padStart(2)}  ` +
      `${measured.requestsPerSecond.toFixed(0).padStart(5)} req/s  p99 ${measured.latencyMs.p99.toFixed(1).padStart(6)} ms  ` +
      `errors ${measured.errors}  cpu ${measured.cpuMsPerRequest?.process ?? '-'}+${measured.cpuMsPerRequest?.database} ms` +
      (direct
        ? `  | direct ${direct.requestsPerSecond.toFixed(0).padStart(5)}/s p99 ${direct.latencyMs.p99.toFixed(1)} ms  ratio ${ratio?.toFixed(2)}  cpu ${direct.cpuMsPerRequest?.process ?? '-'}+${direct.cpuMsPerRequest?.database} ms`
        : '') +
      (peerLoad
        ? `  | PostGraphile ${peerLoad.requestsPerSecond.toFixed(0).padStart(5)}/s p99 ${peerLoad.latencyMs.p99.toFixed(1)} ms errors ${peerLoad.errors}  ×${peerRatio?.toFixed(2)}  cpu ${peerLoad.cpuMsPerRequest?.process ?? '-'}+${peerLoad.cpuMsPerRequest?.database} ms`
        : '') +
      `  | client ${measured.loadGeneratorCpuMsPerRequest} ms  | RSS ${serverRssMb.toFixed(0)} MiB`,
  );
  return {
    concurrency,
    http: measured,
    direct,
    ratio: ratio === null ? null : round(ratio),
    peer: peerLoad,
    peerRatio: peerRatio === null ? null : round(peerRatio),
    peerPeakRssMb: open.peer && peerLoad ? round(open.peer.peakRssMb()) : null,
    serverRssMb: round(serverRssMb),
    serverPeakRssMb: round(open.server.peakRssMb()),
  };
}

/**
 * Measures one scenario at one concurrency on every open scale at once: each scale warmed up, then the slices
 * taken in turn, scale after scale, so that a slower spell of the shared machine falls on every scale alike and
 * the growth between them is a ratio measured in one interleaved run.
 */
async function measureInterleaved(
  opens: OpenScale[],
  name: string,
  concurrency: number,
  options: BenchOptions,
) {
  const gatherings = opens.flatMap((open) => {
    const scenario = open.scenarios.find((candidate) => candidate.name === name);
    return scenario ? [gatheringOf(open, scenario, concurrency, options)] : [];
  });
  for (const g of gatherings) {
    await loadHttp({ ...g.http, seconds: options.warmupSeconds });
    if (g.peerHttp) await loadHttp({ ...g.peerHttp, seconds: options.warmupSeconds });
    if (!options.skipDirect) await loadDirect({ ...g.reads, seconds: options.warmupSeconds });
  }
  // HTTP and direct take turns in two slices each, so a burst of other work on the machine falls on both.
  const slices = options.skipDirect ? 1 : 2;
  const seconds = options.durationSeconds / slices;
  for (let slice = 0; slice < slices; slice += 1) {
    for (const g of gatherings) await measureSlice(g, seconds, measuredFirstIndex + slice * 10_007, options);
  }
  for (const g of gatherings) {
    const runs = g.open.runs.get(name) ?? [];
    runs.push(finishGathering(g, options));
    g.open.runs.set(name, runs);
  }
}

/** A scale's result, once every scenario was measured on it. */
function resultOf(open: OpenScale, options: BenchOptions): ScaleResult {
  const results: ScenarioResult[] = open.scenarios.map((scenario) => ({
    name: scenario.name,
    transport: scenario.transport,
    description: scenario.description,
    latencyClass: scenario.latencyClass,
    growthChecked: scenario.growthChecked,
    statements: open.statementReports.get(scenario.name) ?? null,
    directKind: scenario.directKind ?? 'domain',
    answers: open.answerChecks.get(scenario.name) ?? null,
    peerUnsupported: scenario.peer && 'unsupported' in scenario.peer ? scenario.peer.unsupported : null,
    runs: open.runs.get(scenario.name) ?? [],
  }));
  return {
    startedAt: open.startedAt,
    finishedAt: new Date().toISOString(),
    scale: open.scale,
    dataset: open.dataset,
    machine: open.machine,
    settings: {
      durationSeconds: options.durationSeconds,
      warmupSeconds: options.warmupSeconds,
      concurrency: options.concurrency,
      serverPoolMax: open.config.poolMax,
    },
    serverPeakRssMb: round(open.server.peakRssMb()),
    peerPeakRssMb: open.peer ? round(open.peer.peakRssMb()) : null,
    loadAverageAtEnd: loadavg().map(round),
    scenarios: results,
  };
}

/** Formats written JSON the way the repository's formatter wants it, so `biome check` stays clean. */
async function formatJson(files: string[]): Promise<void> {
  await promisify(execFile)(
    join(repositoryRoot, 'node_modules/.bin/biome'),
    ['format', '--write', ...files],
    {
      cwd: repositoryRoot,
    },
  ).catch(() => {});
}

async function main() {
  if (process.argv[2] === '--import') {
    const { runImportBench } = await import('./import.ts');
    return runImportBench(process.argv.slice(3));
  }
  if (process.argv.includes('--resolve')) {
    const { runResolveBench } = await import('./resolve.ts');
    return runResolveBench(process.argv.slice(2));
  }
  if (process.argv.includes('--follow')) {
    const { runFollowBench } = await import('./follow.ts');
    return runFollowBench(process.argv.slice(2));
  }
  const options = parseOptions(process.argv.slice(2));
  useLogger(createLogger({ level: 'warn' }));
  const started = performance.now();
  log('Compiling the server (npm run build)...');
  await buildServer();
  // Every scale is made ready first, then measured scenario by scenario with the scales interleaved.
  const opens: OpenScale[] = [];
  const results: ScaleResult[] = [];
  try {
    for (const scale of options.scales) opens.push(await openScale(scale, options));
    log('');
    for (const name of opens[0]!.scenarios.map((scenario) => scenario.name)) {
      for (const concurrency of options.concurrency)
        await measureInterleaved(opens, name, concurrency, options);
    }
    for (const open of opens) {
      const result = resultOf(open, options);
      results.push(result);
      log(`\nScale ${open.scale}:\n${renderTable(result)}`);
    }
  } finally {
    for (const open of opens) await open.close();
  }

  await mkdir(options.outDir, { recursive: true });
  const date = await unusedStem(options.outDir, results[0]!.startedAt.slice(0, 10), [
    '.md',
    ...results.map((result) => `-scale${result.scale}.json`),
  ]);
  const written: string[] = [];
  for (const result of results) {
    const file = join(options.outDir, `${date}-scale${result.scale}.json`);
    await writeFile(file, `${JSON.stringify(result, null, 2)}\n`);
    written.push(file);
  }
  await formatJson(written);
  const markdown = renderMarkdown(results);
  const markdownFile = join(options.outDir, `${date}.md`);
  await writeFile(markdownFile, markdown);
  log(
    `\n${markdown.slice(markdown.indexOf('## Targets') >= 0 ? markdown.indexOf('## Targets') : markdown.length)}`,
  );
  log(
    `Wrote ${[...written, markdownFile].join(', ')} in ${((performance.now() - started) / 60_000).toFixed(1)} min.`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
