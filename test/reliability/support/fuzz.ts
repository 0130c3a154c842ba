import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { expect } from 'vitest';

/**
 * How many generated inputs a fuzz file tries. CI runs the default; `FUZZ_RUNS=200000 npm run test:long` (or
 * `FUZZ_RUNS=… npx vitest run test/reliability`) is the nightly-size run. The value is the total for the REST
 * and GraphQL files together; each takes its share.
 */
export function fuzzRuns(share: number): number {
  const total = Number(process.env.FUZZ_RUNS ?? 10_000);
  if (!Number.isInteger(total) || total < 1)
    throw new Error(`FUZZ_RUNS must be a positive integer, got ${process.env.FUZZ_RUNS}`);
  return Math.max(1, Math.round(total * share));
}

/** Time allowed for `runs` inputs: ten minutes, or 20 ms an input for the long runs. */
export function fuzzTimeoutMs(runs: number): number {
  return Math.max(600_000, runs * 20);
}

/** A fixed seed when FUZZ_SEED is set, to replay a run that found something. */
export function fuzzSeed(): number | undefined {
  return process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;
}

/** Long generated strings would bury a report; a counterexample is shown with each string cut short. */
function abridge(value: unknown): string {
  return JSON.stringify(value, (_key, item) =>
    typeof item === 'string' && item.length > 120 ? `${item.slice(0, 60)}…(${item.length} chars)` : item,
  );
}

/**
 * Runs a property for `numRuns` inputs (from FUZZ_SEED when set) and fails with the first counterexample, its
 * seed and path (to replay it: FUZZ_SEED=<seed>) and the assertion it broke.
 */
export async function assertProperty<Ts extends [unknown, ...unknown[]]>(
  property: fc.IAsyncProperty<Ts>,
  numRuns: number,
): Promise<void> {
  const details = await fc.check(property, { numRuns, seed: fuzzSeed(), endOnFailure: true });
  if (!details.failed) return;
  const cause =
    details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
  throw new Error(
    `Property failed after ${details.numRuns} inputs (FUZZ_SEED=${details.seed}, path ${details.counterexamplePath}).\n` +
      `Input: ${abridge(details.counterexample)}\n${cause.slice(0, 3000)}`,
  );
}

/** Tallies what a fuzz run sent and got, for the line it prints at the end. */
export class FuzzTally {
  inputs = 0;
  readonly statuses = new Map<number, number>();
  serverErrors = 0;

  constructor(readonly name: string) {}

  record(status: number): void {
    this.inputs += 1;
    this.statuses.set(status, (this.statuses.get(status) ?? 0) + 1);
    if (status >= 500) this.serverErrors += 1;
  }

  summary(): string {
    const statuses = [...this.statuses.entries()]
      .sort(([a], [b]) => a - b)
      .map(([status, count]) => `${status}×${count}`)
      .join(' ');
    return `${this.name}: ${this.inputs} inputs, 5xx seen ${this.serverErrors} (statuses ${statuses})`;
  }
}

/**
 * A plan catalogue with the shipped plan names and budgets no fuzz run can spend, so that thousands of requests
 * per token exercise the endpoints rather than the rate limiter (which the access tests cover).
 */
export function writeUnlimitedPlansFile(): string {
  const unlimited = {
    rateLimit: { requests: 1_000_000_000, windowSeconds: 60 },
    graphqlCost: { points: 1_000_000_000, windowSeconds: 60, maxPerQuery: 20_000 },
  };
  const areas = ['organisations', 'people', 'suggestions', 'events', 'searches', 'ownership', 'articles'];
  const file = join(mkdtempSync(join(tmpdir(), 'orgraph-reliability-')), 'plans.json');
  writeFileSync(
    file,
    JSON.stringify({
      starter: { covers: areas.slice(0, 3), ...unlimited },
      professional: { covers: areas.slice(0, 6), ...unlimited },
      enterprise: { covers: areas, ...unlimited },
    }),
  );
  return file;
}

export interface EnvelopeBody {
  status: { code: number; messages: string[] };
  success: unknown;
  meta: unknown;
  correlation_id: string;
}

/** Every `/v1` answer, success or error, is the spec's envelope, consistent with the HTTP status and headers. */
export async function readEnvelope(response: Response, context: string): Promise<EnvelopeBody> {
  const text = await response.text();
  let body: EnvelopeBody;
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error(`${context}: not JSON (${response.status}): ${text.slice(0, 200)}`);
  }
  expect(response.headers.get('content-type'), context).toMatch(/^application\/json/);
  expect(Object.keys(body).sort(), context).toEqual(['correlation_id', 'meta', 'status', 'success']);
  expect(body.status.code, context).toBe(response.status);
  expect(body.correlation_id, context).toBe(response.headers.get('X-Correlation-ID'));
  if (response.status >= 400) {
    expect(body.success, context).toBeNull();
    expect(body.meta, context).toBeNull();
    expect(body.status.messages.length, context).toBeGreaterThan(0);
    for (const message of body.status.messages) expect(message, context).toMatch(/\S/);
  } else {
    expect(body.status.messages, context).toEqual([]);
  }
  if (response.status === 401) expect(response.headers.get('WWW-Authenticate'), context).toMatch(/^Bearer /);
  if (response.status === 429 || response.status === 503) {
    expect(response.headers.get('Retry-After'), context).toMatch(/^\d+$/);
  }
  return body;
}
