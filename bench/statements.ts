import type postgres from 'postgres';
import { loadPlans } from '../src/auth/plans.ts';
import { loadConfig } from '../src/config.ts';
import { countStatements, type Database, openDatabase } from '../src/db/database.ts';
import type { AppServices } from '../src/http/services.ts';
import { createApp } from '../src/server/app.ts';
import { benchPlansFile } from './dataset.ts';
import type { Samples } from './samples.ts';
import { type DirectContext, type HttpRequest, type Scenario, threeChipSearch } from './scenarios.ts';

export interface Range {
  min: number;
  max: number;
}

/** What one short in-process pass finds out about a scenario: its SQL per request, and that it answers right. */
export interface StatementReport {
  samples: number;
  /** Statements per request through the whole app (token lookup included). */
  statements: Range;
  /** Statements per request of the direct reads. */
  directStatements: Range;
  /** Size of the response bodies: how much the rows varied while the statements did (or did not). */
  responseBytes: Range;
  /** Each request's response size and statements, in the order sent. */
  perRequest: { bytes: number; statements: number }[];
  /** Requests answered with a non-2xx status or GraphQL errors. */
  failures: number;
  firstFailure?: string;
}

export interface InProcessApp {
  db: Database;
  /** The `postgres` driver under `db`, for the hand-written reads. */
  sql: postgres.Sql;
  fetch(request: HttpRequest): Promise<Response>;
  close(): Promise<void>;
}

/** The whole service inside this process (no port), as the tests run it, on the bench database. */
export async function openInProcessApp(databaseUrl: string, token: () => string): Promise<InProcessApp> {
  const config = loadConfig({ ...process.env, DATABASE_URL: databaseUrl, PLANS_FILE: benchPlansFile });
  const plans = loadPlans(config.plansFile);
  const handle = await openDatabase(config);
  const services: AppServices = {
    config,
    handle,
    db: handle.db,
    plans,
    readiness: { accepting: true },
    closing: new AbortController().signal,
  };
  const app = createApp(services);
  if (handle.driver.kind !== 'postgres') throw new Error('the bench runs on PostgreSQL (DATABASE_URL)');
  return {
    db: handle.db,
    sql: handle.driver.client,
    async fetch(request) {
      return app.fetch(
        new Request(`http://orgraph.bench${request.path}`, {
          method: request.method,
          headers: {
            Authorization: `Bearer ${token()}`,
            Accept: 'application/json',
            'Content-Type': 'application/json',
          },
          ...(request.body === undefined ? {} : { body: request.body }),
        }),
      );
    },
    async close() {
      await services.quotas?.close();
      await handle.close();
    },
  };
}

/** Saves the events scenario's three-chip search through the app and returns its queryId. */
export async function saveEventSearch(app: InProcessApp, samples: Samples): Promise<string> {
  const saved = await app.fetch({
    method: 'POST',
    path: '/v1/search/events',
    body: JSON.stringify({ query: threeChipSearch(samples) }),
  });
  const body = (await saved.json()) as { success?: { queryId?: string } };
  const queryId = body.success?.queryId;
  if (!queryId) throw new Error(`saving the event search failed: ${JSON.stringify(body)}`);
  return queryId;
}

const widen = (range: Range, value: number): Range => ({
  min: Math.min(range.min, value),
  max: Math.max(range.max, value),
});

/** Why a response is not a success, or null when it is one. */
function failureOf(scenario: Scenario, status: number, body: string): string | null {
  if (status < 200 || status >= 300) return `HTTP ${status}: ${body.slice(0, 300)}`;
  if (scenario.transport === 'graphql') {
    const parsed = JSON.parse(body) as { data?: unknown; errors?: { message: string }[] };
    if (parsed.errors?.length) return `GraphQL error: ${parsed.errors[0]!.message}`;
    if (!parsed.data) return 'GraphQL response without data';
  }
  return null;
}

/**
 * Sends `samples` requests of the scenario through the in-process app, one at a time, counting the SQL
 * statements each sends; then does the same for the direct reads.
 */
export async function measureStatements(
  app: InProcessApp,
  scenario: Scenario,
  context: DirectContext,
  samples = 12,
): Promise<StatementReport> {
  const empty = { min: Number.POSITIVE_INFINITY, max: 0 };
  let statements = empty;
  let directStatements = empty;
  let responseBytes = empty;
  let failures = 0;
  let firstFailure: string | undefined;
  const perRequest: StatementReport['perRequest'] = [];
  for (let index = 0; index < samples; index += 1) {
    const counted = await countStatements(async () => {
      const response = await app.fetch(scenario.request(index));
      return { status: response.status, body: await response.text() };
    });
    statements = widen(statements, counted.statements);
    responseBytes = widen(responseBytes, Buffer.byteLength(counted.result.body));
    perRequest.push({ bytes: Buffer.byteLength(counted.result.body), statements: counted.statements });
    const failure = failureOf(scenario, counted.result.status, counted.result.body);
    if (failure) {
      failures += 1;
      firstFailure ??= failure;
    }
    const direct = await countStatements(() => scenario.direct(app.db, index, context));
    directStatements = widen(directStatements, direct.statements);
  }
  return {
    samples,
    statements,
    directStatements,
    responseBytes,
    perRequest,
    failures,
    ...(firstFailure ? { firstFailure } : {}),
  };
}
