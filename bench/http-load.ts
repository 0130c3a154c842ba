import autocannon from 'autocannon';
import type { HttpRequest } from './scenarios.ts';

export interface LatencySummary {
  p50: number;
  p90: number;
  p99: number;
  max: number;
  mean: number;
}

/** One measurement: a closed loop of `concurrency` clients for a while. */
export interface LoadResult {
  concurrency: number;
  seconds: number;
  /** Responses (any status) and failed requests. */
  requests: number;
  requestsPerSecond: number;
  /** Requests answered with a 2xx status (direct reads: that resolved). */
  successes: number;
  /** Latency of successful (2xx) requests, in milliseconds; zeros when none succeeded. */
  latencyMs: LatencySummary;
  /** Non-2xx responses, socket errors and time-outs. */
  errors: number;
  /** Status codes other than 2xx, with their counts. */
  errorStatuses: Record<string, number>;
  /**
   * CPU per request in milliseconds: of the serving process (the server, or the bench process for the
   * direct reads) and of the database's backends. Filled in by the caller, which owns the processes.
   */
  cpuMsPerRequest?: { process: number | null; database: number };
  /** CPU of the load generator (this process) per request, in milliseconds; HTTP runs only. */
  loadGeneratorCpuMsPerRequest?: number;
  /** Every successful request's latency, to merge slices with; dropped before results are written. */
  rawLatencies?: number[];
}

/** One result from several slices of the same measurement (requests add up, percentiles are recomputed). */
export function mergeLoads(parts: readonly LoadResult[]): LoadResult {
  const first = parts[0];
  if (!first) throw new Error('nothing to merge');
  const requests = parts.reduce((sum, part) => sum + part.requests, 0);
  const seconds = parts.reduce((sum, part) => sum + part.seconds, 0);
  const weighted = (value: (part: LoadResult) => number | null | undefined): number | null => {
    let total = 0;
    for (const part of parts) {
      const perRequest = value(part);
      if (perRequest === null || perRequest === undefined) return null;
      total += perRequest * part.requests;
    }
    return Math.round((total / Math.max(requests, 1)) * 100) / 100;
  };
  const errorStatuses: Record<string, number> = {};
  for (const part of parts) {
    for (const [status, count] of Object.entries(part.errorStatuses)) {
      errorStatuses[status] = (errorStatuses[status] ?? 0) + count;
    }
  }
  const latencies = parts.flatMap((part) => part.rawLatencies ?? []);
  const cpuProcess = weighted((part) => part.cpuMsPerRequest?.process);
  const cpuDatabase = weighted((part) => part.cpuMsPerRequest?.database);
  const generator = weighted((part) => part.loadGeneratorCpuMsPerRequest);
  return {
    concurrency: first.concurrency,
    seconds,
    requests,
    requestsPerSecond: requests / seconds,
    successes: latencies.length,
    latencyMs: summarise(latencies),
    errors: parts.reduce((sum, part) => sum + part.errors, 0),
    errorStatuses,
    ...(cpuDatabase === null ? {} : { cpuMsPerRequest: { process: cpuProcess, database: cpuDatabase } }),
    ...(generator === null ? {} : { loadGeneratorCpuMsPerRequest: generator }),
  };
}

/** Percentiles of a list of latencies (nearest rank); the list is sorted in place. */
export function summarise(latencies: number[]): LatencySummary {
  latencies.sort((a, b) => a - b);
  const at = (fraction: number) =>
    latencies.length === 0
      ? 0
      : latencies[Math.min(latencies.length - 1, Math.ceil(fraction * latencies.length) - 1)]!;
  const total = latencies.reduce((sum, value) => sum + value, 0);
  return {
    p50: at(0.5),
    p90: at(0.9),
    p99: at(0.99),
    max: latencies.at(-1) ?? 0,
    mean: latencies.length === 0 ? 0 : total / latencies.length,
  };
}

export interface HttpLoadOptions {
  baseUrl: string;
  token: string;
  concurrency: number;
  seconds: number;
  /** The request number `index`; called once per request so the samples rotate. */
  request: (index: number) => HttpRequest;
  /** Where the rotation starts, so the warm-up and the measurement do not read the same rows. */
  firstIndex?: number;
}

/**
 * Drives the server with autocannon: `concurrency` keep-alive connections, each sending its next request
 * as soon as the last one is answered. Latencies are recorded per response (autocannon's own histogram
 * rounds to whole milliseconds).
 */
export async function loadHttp(options: HttpLoadOptions): Promise<LoadResult> {
  let next = options.firstIndex ?? 0;
  const latencies: number[] = [];
  const errorStatuses: Record<string, number> = {};
  let responses = 0;
  const headers = {
    Authorization: `Bearer ${options.token}`,
    Accept: 'application/json',
    'Content-Type': 'application/json',
  };

  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: options.baseUrl,
        connections: options.concurrency,
        duration: options.seconds,
        pipelining: 1,
        timeout: 10,
        headers,
        requests: [
          {
            setupRequest: (request: autocannon.Request) => {
              const wanted = options.request(next);
              next += 1;
              return { ...request, method: wanted.method, path: wanted.path, body: wanted.body ?? '' };
            },
          },
        ],
      },
      (error, finished) => (error ? reject(error) : resolve(finished)),
    );
    instance.on('response', (_client, statusCode: number, _bytes: number, responseTime: number) => {
      responses += 1;
      if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
      else errorStatuses[statusCode] = (errorStatuses[statusCode] ?? 0) + 1;
    });
  });

  const failed = result.errors + result.timeouts;
  const seconds = result.duration;
  return {
    concurrency: options.concurrency,
    seconds,
    requests: responses + failed,
    requestsPerSecond: (responses + failed) / seconds,
    successes: latencies.length,
    latencyMs: summarise([...latencies]),
    rawLatencies: latencies,
    errors: Object.values(errorStatuses).reduce((sum, count) => sum + count, 0) + failed,
    errorStatuses,
  };
}
