import type { Database } from '../src/db/database.ts';
import { type LoadResult, summarise } from './http-load.ts';
import type { DirectContext, Scenario } from './scenarios.ts';

export interface DirectLoadOptions {
  db: Database;
  scenario: Scenario;
  context: DirectContext;
  concurrency: number;
  seconds: number;
  firstIndex?: number;
}

/**
 * The scenario's reads with no HTTP and no GraphQL: `concurrency` loops in this process, each starting
 * its next read when the last one resolves, on a pool the size of the server's. The ceiling the
 * service is compared with.
 */
export async function loadDirect(options: DirectLoadOptions): Promise<LoadResult> {
  const { db, scenario, context } = options;
  let next = options.firstIndex ?? 0;
  let errors = 0;
  const latencies: number[] = [];
  const started = performance.now();
  const deadline = started + options.seconds * 1000;

  const loop = async () => {
    while (performance.now() < deadline) {
      const index = next;
      next += 1;
      const begun = performance.now();
      try {
        await scenario.direct(db, index, context);
        latencies.push(performance.now() - begun);
      } catch {
        errors += 1;
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, loop));
  const seconds = (performance.now() - started) / 1000;
  const requests = latencies.length + errors;
  return {
    concurrency: options.concurrency,
    seconds,
    requests,
    requestsPerSecond: requests / seconds,
    successes: latencies.length,
    latencyMs: summarise([...latencies]),
    rawLatencies: latencies,
    errors,
    errorStatuses: errors > 0 ? { exception: errors } : {},
  };
}
