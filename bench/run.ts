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
import { type LoadResult, loadHttp, mergeLoads } from './http-load.ts';
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

async function runScale(scale: number, options: BenchOptions): Promise<ScaleResult> {
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
    const peerScenarioOf = (scenario: (typeof scenarios)[number]) =>
      !options.skipPeer && scenario.peer && 'request' in scenario.peer
        ? (scenario.peer as PeerScenario)
        : null;
    let peerContext: PeerContext | undefined;
    if (scenarios.some((scenario) => peerScenarioOf(scenario))) {
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
        peer && peerContext && peerScenarioOf(scenario)
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
    const running = server;
    const runningPeer = peer;
    const results: ScenarioResult[] = [];
    for (const scenario of scenarios) {
      const runs: ConcurrencyResult[] = [];
      for (const concurrency of options.concurrency) {
        const http = { baseUrl: running.baseUrl, token, concurrency, request: scenario.request };
        const reads = { db: app.db, scenario, context, concurrency };
        const peerScenario = peerScenarioOf(scenario);
        const peerHttp =
          peerScenario && runningPeer && peerContext
            ? {
                baseUrl: runningPeer.baseUrl,
                token,
                concurrency,
                request: (index: number) => peerScenario.request(index, peerContext!),
              }
            : null;
        await loadHttp({ ...http, seconds: options.warmupSeconds });
        if (peerHttp) await loadHttp({ ...peerHttp, seconds: options.warmupSeconds });
        if (!options.skipDirect) await loadDirect({ ...reads, seconds: options.warmupSeconds });
        // HTTP and direct take turns in two slices each, so a burst of other work on the machine falls on both.
        const slices = options.skipDirect ? 1 : 2;
        const seconds = options.durationSeconds / slices;
        const httpSlices: LoadResult[] = [];
        const directSlices: LoadResult[] = [];
        const peerSlices: LoadResult[] = [];
        for (let slice = 0; slice < slices; slice += 1) {
          const firstIndex = measuredFirstIndex + slice * 10_007;
          const serverMeter = startCpuMeter(running.pid, dataset.databaseName);
          const generatorBefore = process.cpuUsage();
          const part = await loadHttp({ ...http, seconds, firstIndex });
          part.cpuMsPerRequest = perRequest(serverMeter.stop(), part.requests);
          // The load generator shares the cores with the server and PostgreSQL; its cost is reported too.
          const generator = process.cpuUsage(generatorBefore);
          part.loadGeneratorCpuMsPerRequest = round(
            (generator.user + generator.system) / 1000 / Math.max(part.requests, 1),
          );
          httpSlices.push(part);
          if (peerHttp && runningPeer) {
            const peerMeter = startCpuMeter(runningPeer.pid, dataset.databaseName);
            const peerPart = await loadHttp({ ...peerHttp, seconds, firstIndex });
            peerPart.cpuMsPerRequest = perRequest(peerMeter.stop(), peerPart.requests);
            peerSlices.push(peerPart);
          }
          if (!options.skipDirect) {
            const directMeter = startCpuMeter(process.pid, dataset.databaseName);
            const directPart = await loadDirect({ ...reads, seconds, firstIndex });
            directPart.cpuMsPerRequest = perRequest(directMeter.stop(), directPart.requests);
            directSlices.push(directPart);
          }
        }
        const measured = mergeLoads(httpSlices);
        const direct = options.skipDirect ? null : mergeLoads(directSlices);
        const peerLoad = peerSlices.length > 0 ? mergeLoads(peerSlices) : null;
        const peerRatio =
          peerLoad && peerLoad.requestsPerSecond > 0
            ? measured.requestsPerSecond / peerLoad.requestsPerSecond
            : null;
        const serverRssMb = running.rssMb();
        const serverPeakRssMb = running.peakRssMb();
        const ratio =
          direct && direct.requestsPerSecond > 0
            ? measured.requestsPerSecond / direct.requestsPerSecond
            : null;
        runs.push({
          concurrency,
          http: measured,
          direct,
          ratio: ratio === null ? null : round(ratio),
          peer: peerLoad,
          peerRatio: peerRatio === null ? null : round(peerRatio),
          peerPeakRssMb: runningPeer && peerLoad ? round(runningPeer.peakRssMb()) : null,
          serverRssMb: round(serverRssMb),
          serverPeakRssMb: round(serverPeakRssMb),
        });
        log(
          `  ${scenario.name.padEnd(28)} c=${String(concurrency).padStart(2)}  ` +
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
      }
      results.push({
        name: scenario.name,
        transport: scenario.transport,
        description: scenario.description,
        latencyClass: scenario.latencyClass,
        growthChecked: scenario.growthChecked,
        statements: statementReports.get(scenario.name) ?? null,
        directKind: scenario.directKind ?? 'domain',
        answers: answerChecks.get(scenario.name) ?? null,
        peerUnsupported: scenario.peer && 'unsupported' in scenario.peer ? scenario.peer.unsupported : null,
        runs,
      });
    }
    const serverPeakRssMb = round(running.peakRssMb());
    return {
      startedAt,
      finishedAt: new Date().toISOString(),
      scale,
      dataset,
      machine,
      settings: {
        durationSeconds: options.durationSeconds,
        warmupSeconds: options.warmupSeconds,
        concurrency: options.concurrency,
        serverPoolMax: config.poolMax,
      },
      serverPeakRssMb,
      peerPeakRssMb: runningPeer ? round(runningPeer.peakRssMb()) : null,
      loadAverageAtEnd: loadavg().map(round),
      scenarios: results,
    };
  } finally {
    await server?.stop();
    await peer?.stop();
    await app.close();
    await runCli(['token', 'revoke', token], env).catch(() => {});
  }
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
  if (process.argv.includes('--follow')) {
    const { runFollowBench } = await import('./follow.ts');
    return runFollowBench(process.argv.slice(2));
  }
  const options = parseOptions(process.argv.slice(2));
  useLogger(createLogger({ level: 'warn' }));
  const started = performance.now();
  log('Compiling the server (npm run build)...');
  await buildServer();
  const results: ScaleResult[] = [];
  for (const scale of options.scales) {
    const result = await runScale(scale, options);
    results.push(result);
    log(`\nScale ${scale}:\n${renderTable(result)}`);
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
