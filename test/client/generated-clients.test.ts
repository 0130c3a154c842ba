import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createClient as generateHeyApi } from '@hey-api/openapi-ts';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApp, type TestApp } from '../support/test-app.ts';
import { writeStrictTsconfig } from './support/strict-tsconfig.ts';
import { typedProgramSource } from './support/typed-program.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const operationIds = [
  'listOrganisations',
  'getOrganisation',
  'listOrganisationPeople',
  'getOrganisationOwnership',
  'listProfiles',
  'getProfile',
  'listProfileArticles',
  'listProfileOwnership',
  'getArticle',
  'getEvent',
  'listEvents',
  'saveEventSearch',
  'listSuggestions',
];

let app: TestApp;
let dir: string;

interface Outcome {
  statuses: Record<string, number>;
  events: string[];
  currentOrganisation?: string | null;
}
interface Program {
  runOpenapiFetch(baseUrl: string, token: string, fetch: typeof globalThis.fetch): Promise<Outcome>;
  runHeyApi(baseUrl: string, token: string, fetch: typeof globalThis.fetch): Promise<Outcome>;
}

/** A fetch that hands each request to the in-process service, as a network would. */
const inProcessFetch: typeof globalThis.fetch = async (input, init) => {
  const request = new Request(input, init);
  const url = new URL(request.url);
  const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.text();
  return app.request(`${url.pathname}${url.search}`, {
    method: request.method,
    headers: request.headers,
    body,
    token: null,
  });
};

beforeAll(async () => {
  app = await openTestApp();
  dir = mkdtempSync(join(tmpdir(), 'orgraph-clients-'));
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
  const document = (await (await app.request('/v1/openapi.json', { token: null })).json()) as OpenAPI3;
  writeFileSync(join(dir, 'openapi.json'), JSON.stringify(document));
  writeFileSync(join(dir, 'openapi-typescript.ts'), astToString(await openapiTS(document)));
  mkdirSync(join(dir, 'hey'));
  await generateHeyApi({
    input: join(dir, 'openapi.json'),
    output: join(dir, 'hey'),
    plugins: ['@hey-api/client-fetch', '@hey-api/typescript', '@hey-api/sdk'],
    logs: { level: 'silent', file: false },
  });
  writeFileSync(join(dir, 'program.ts'), typedProgramSource);
  writeStrictTsconfig(dir, ['program.ts']);
}, 120_000);
afterAll(async () => {
  await app.services.quotas?.close();
  await app.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('clients generated from the served document by tools nobody here wrote', () => {
  it('compile a program calling all thirteen operations under tsc --strict, with no cast and no any', () => {
    const code = typedProgramSource.replace(/^import .*$/gm, '').replace(/\/\*[\s\S]*?\*\//g, '');
    expect(code).not.toMatch(/\bany\b/);
    expect(code).not.toMatch(/\bas (?!const\b)[A-Za-z{[]/);
    expect(typedProgramSource).not.toMatch(/@ts-(ignore|expect-error|nocheck)/);
    for (const operationId of operationIds) expect(typedProgramSource).toContain(`hey.${operationId}(`);
    const tsc = spawnSync(join(root, 'node_modules/.bin/tsc'), ['-p', join(dir, 'tsconfig.json')], {
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(`${tsc.stdout}${tsc.stderr}`).toBe('');
    expect(tsc.status).toBe(0);
  }, 130_000);

  it('run against the service: every operation answers, and event data narrows on event_type', async () => {
    const program = (await import(pathToFileURL(join(dir, 'program.ts')).href)) as Program;
    for (const run of [program.runOpenapiFetch, program.runHeyApi]) {
      const outcome = await run('http://orgraph.test', app.tokens.enterprise, inProcessFetch);
      expect(Object.keys(outcome.statuses).sort()).toEqual([...operationIds].sort());
      for (const [operation, status] of Object.entries(outcome.statuses)) {
        expect(status, operation).toBe(operation === 'saveEventSearch' ? 201 : 200);
      }
    }
    // The openapi-fetch run lists `published_after=2000-01-01&limit=200` and describes each row by its type.
    const { body } = await app.getJson<{ success: { event_type: string }[] }>(
      '/v1/events?published_after=2000-01-01&limit=200',
    );
    const { events } = await program.runOpenapiFetch(
      'http://orgraph.test',
      app.tokens.enterprise,
      inProcessFetch,
    );
    expect(events.length).toBeGreaterThan(0);
    expect(events.map((line) => line.split(':')[0])).toEqual(body.success.map((event) => event.event_type));
  }, 60_000);
});
