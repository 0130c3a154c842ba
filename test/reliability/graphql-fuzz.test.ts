import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/database.ts';
import { schema } from '../../src/graphql/schema.ts';
import { graphqlBodyLimitBytes } from '../../src/http/limits/limit-body-size.ts';
import { openTestApp, type TestApp } from '../support/test-app.ts';
import {
  assertProperty,
  FuzzTally,
  fuzzRuns,
  fuzzTimeoutMs,
  writeUnlimitedPlansFile,
} from './support/fuzz.ts';
import {
  damaged,
  type GeneratedOperation,
  generatedOperations,
  type KnownValues,
} from './support/graphql-documents.ts';
import { hostileText, wellFormed } from './support/hostile.ts';

/** Share of FUZZ_RUNS this file tries (the REST file takes the rest). */
const runs = fuzzRuns(0.3);

let app: TestApp;
const tally = new FuzzTally('GraphQL fuzz');
const known: KnownValues = { uuids: [], nodeIds: [] };

beforeAll(async () => {
  app = await openTestApp({ PLANS_FILE: writeUnlimitedPlansFile() });
  const sample = async (table: string, type: string) => {
    const rows = await queryRows<{ reference: string }>(
      app.services.db,
      sql`select reference::text as reference from ${sql.identifier(table)} order by reference limit 2`,
    );
    for (const { reference } of rows) {
      known.uuids.push(reference);
      known.nodeIds.push(Buffer.from(`${type}:${reference}`).toString('base64'));
    }
  };
  await sample('organisations', 'Organisation');
  await sample('profiles', 'Profile');
  await sample('articles', 'Article');
  await sample('events', 'MoveEvent');
});
const slowest: [number, string][] = [];
afterAll(async () => {
  console.log(tally.summary());
  if (process.env.FUZZ_TIMINGS) {
    slowest.sort((a, b) => b[0] - a[0]);
    const total = slowest.reduce((sum, [ms]) => sum + ms, 0);
    console.log(
      `total ${total.toFixed(0)} ms; slowest:\n${slowest
        .slice(0, 15)
        .map(([ms, q]) => `${ms.toFixed(0)} ms ${q}`)
        .join('\n')}`,
    );
  }
  await app?.close();
});

/** How the operation travels: the ways clients send GraphQL, and ways they get it wrong. */
type Transport =
  | 'post'
  | 'unacceptable'
  | 'get'
  | 'graphql-response'
  | 'text-plain'
  | 'malformed-json'
  | 'wrong-shape'
  | 'batch'
  | 'oversized';

interface GraphqlCase {
  operation: GeneratedOperation;
  transport: Transport;
  who: 'enterprise' | 'starter' | 'none' | 'garbage';
  junk: string;
}

function graphqlCases(): fc.Arbitrary<GraphqlCase> {
  const operation = generatedOperations(schema, known).chain((generated) =>
    fc.oneof({ arbitrary: fc.constant(generated), weight: 6 }, { arbitrary: damaged(generated), weight: 1 }),
  );
  return fc.record({
    operation,
    transport: fc.constantFrom<Transport>(
      ...(Array(14).fill('post') as Transport[]),
      'get',
      'get',
      'graphql-response',
      'graphql-response',
      'text-plain',
      'unacceptable',
      'malformed-json',
      'wrong-shape',
      'batch',
      'oversized',
    ),
    who: fc.constantFrom<GraphqlCase['who']>(
      ...(Array(12).fill('enterprise') as 'enterprise'[]),
      'starter',
      'none',
      'garbage',
    ),
    junk: hostileText,
  });
}

function requestOf({ operation, transport, who, junk }: GraphqlCase): {
  path: string;
  init: RequestInit & { token: string | null };
} {
  const token = who === 'enterprise' ? app.tokens.enterprise : who === 'starter' ? app.tokens.starter : null;
  const headers = new Headers({ 'Content-Type': 'application/json' });
  if (who === 'garbage') headers.set('Authorization', 'Bearer orgr_notatoken');
  const payload = { query: operation.query, variables: operation.variables };
  switch (transport) {
    case 'get': {
      const params = new URLSearchParams({
        query: wellFormed(operation.query),
        variables: JSON.stringify(operation.variables),
      });
      return { path: `/graphql?${params}`, init: { method: 'GET', token } };
    }
    case 'graphql-response':
      headers.set('Accept', 'application/graphql-response+json');
      return { path: '/graphql', init: { method: 'POST', headers, token, body: JSON.stringify(payload) } };
    case 'unacceptable':
      headers.set('Accept', 'application/xml');
      return { path: '/graphql', init: { method: 'POST', headers, token, body: JSON.stringify(payload) } };
    case 'text-plain':
      headers.set('Content-Type', 'text/plain');
      return { path: '/graphql', init: { method: 'POST', headers, token, body: JSON.stringify(payload) } };
    case 'malformed-json':
      return {
        path: '/graphql',
        init: { method: 'POST', headers, token, body: JSON.stringify(payload).slice(0, -1) + junk },
      };
    case 'wrong-shape': {
      const shapes = [
        { query: 42 },
        { query: operation.query, variables: 'x' },
        { query: null },
        [],
        'query',
        { variables: {} },
        { query: operation.query, operationName: junk },
        { query: operation.query, extensions: junk },
      ];
      const shape = shapes[junk.length % shapes.length];
      return { path: '/graphql', init: { method: 'POST', headers, token, body: JSON.stringify(shape) } };
    }
    case 'batch':
      return {
        path: '/graphql',
        init: { method: 'POST', headers, token, body: JSON.stringify([payload, payload]) },
      };
    case 'oversized': {
      const padded = { ...payload, variables: { ...operation.variables, padding: 'x'.repeat(110 * 1024) } };
      return { path: '/graphql', init: { method: 'POST', headers, token, body: JSON.stringify(padded) } };
    }
    default:
      return { path: '/graphql', init: { method: 'POST', headers, token, body: JSON.stringify(payload) } };
  }
}

interface GraphqlBody {
  data?: Record<string, unknown> | null;
  errors?: { message: string; extensions?: { code?: string } }[];
}

/** Codes that mean the server, not the request, failed: the graph's counterpart of a 5xx. */
const serverFailureCodes = new Set(['INTERNAL_SERVER_ERROR']);

async function send(input: GraphqlCase): Promise<void> {
  const { path, init } = requestOf(input);
  const bodyBytes = typeof init.body === 'string' ? Buffer.byteLength(init.body) : 0;
  const started = performance.now();
  const response = await app.request(path, init);
  const text = await response.text();
  const elapsed = performance.now() - started;
  if (process.env.FUZZ_TIMINGS) slowest.push([elapsed, input.operation.query.slice(0, 400)]);
  const context = `${input.transport} as ${input.who} → ${response.status}: ${text.slice(0, 400)}`;
  let body: GraphqlBody;
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error(`not JSON: ${context}`);
  }
  const failed =
    response.status >= 500 ||
    (body.errors ?? []).some(
      (error) =>
        serverFailureCodes.has(error.extensions?.code ?? '') || error.message === 'Unexpected error.',
    );
  tally.record(failed && response.status < 500 ? 500 : response.status);
  expect(failed, context).toBe(false);
  expect([200, 400, 401, 405, 406, 413, 415], context).toContain(response.status);
  if (response.status === 406) expect(input.transport, context).toBe('unacceptable');
  if (response.status === 415) expect(input.transport, context).toBe('text-plain');
  if (response.status === 405) expect(input.transport, context).toBe('get');
  if (response.status === 401) {
    expect(['none', 'garbage'], context).toContain(input.who);
    expect(response.headers.get('WWW-Authenticate'), context).toMatch(/^Bearer /);
  }
  // The body limit applies to authenticated requests, to exactly the bodies over it; a body that is not JSON is
  // refused (415) before its size is looked at.
  if (input.transport === 'text-plain') expect(response.status, context).not.toBe(413);
  else if (input.who === 'enterprise' || input.who === 'starter') {
    expect(response.status === 413, context).toBe(bodyBytes > graphqlBodyLimitBytes);
  }
  if (Array.isArray(body)) return; // a batch is answered per operation, each checked the same way below
  expect(body.data !== undefined || body.errors !== undefined, context).toBe(true);
  for (const error of body.errors ?? []) expect(error.message, context).toMatch(/\S/);
  if (!body.errors) expect(body.data, context).not.toBeNull();
  // Every root connection given a valid `first`/`last` returns at most that many edges.
  for (const [key, size] of Object.entries(input.operation.pageSizes)) {
    const edges = (body.data?.[key] as { edges?: unknown[] } | null | undefined)?.edges;
    if (edges) expect(edges.length, context).toBeLessThanOrEqual(size);
  }
}

describe('the graph under generated documents and variables', () => {
  it(
    `never fails as the server's fault, and answers every request as GraphQL (${runs} inputs)`,
    async () => {
      await assertProperty(fc.asyncProperty(graphqlCases(), send), runs);
      expect(tally.serverErrors).toBe(0);
    },
    fuzzTimeoutMs(runs),
  );

  it('still answers afterwards', async () => {
    const { status, body } = await app.graphql<{ organisation: { reference: string } }>(
      'query ($reference: UUID!) { organisation(reference: $reference) { reference } }',
      { reference: known.uuids[0] },
    );
    expect(status).toBe(200);
    expect(body.data?.organisation.reference).toBe(known.uuids[0]);
  });
});
