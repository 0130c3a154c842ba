/**
 * The GraphQL Code Generator and Relay examples of docs/graphql.md ("GraphQL Code Generator and Relay"), taken from
 * the page itself, compiled by the real compilers against the committed `schema.graphql` with the shipped scalar
 * mapping, and run against a listening orgraph process. Each example is a fenced block marked as run by this file
 * whose first line names its file (`// src/organisations.ts`); the test writes them into a fresh project beside a
 * link to this checkout (`./orgraph`), as a user's project would sit.
 */
import { type SpawnSyncReturns, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  createOperationDescriptor,
  type Environment,
  fetchQuery,
  type GraphQLTaggedNode,
  getRequest,
  getSelector,
  type OperationType,
  type ReaderFragment,
  type SingularReaderSelector,
} from 'relay-runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runGraphqlTool, toolsFolder } from '../../scripts/graphql-tools.ts';
import { scalarTypes } from '../../src/client/graphql-setup/schema-setup.gen.ts';
import { type LiveServer, startLiveServer } from '../browser/live-server.ts';
import { pageBlocks } from '../readme/readme-blocks.ts';
import { needs } from '../support/services.ts';
import { writeStrictTsconfig } from './support/strict-tsconfig.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The blocks of docs/graphql.md this file runs, by the file their first line names. */
function pageExamples(): Map<string, string> {
  const examples = new Map<string, string>();
  for (const block of pageBlocks('docs/graphql.md')) {
    if (block.marker?.kind !== 'run by' || block.marker.file !== 'test/client/graphql-compilers.test.ts')
      continue;
    const [first = '', ...rest] = block.body.split('\n');
    const file = first.match(/^\/\/ (\S+)$/)?.[1];
    if (!file) throw new Error(`docs/graphql.md:${block.line} does not name its file on its first line`);
    examples.set(file, `${rest.join('\n')}\n`);
  }
  return examples;
}

const examples = pageExamples();
const projects: string[] = [];

/** A fresh project holding the named examples, `node_modules` and a link `orgraph` to this checkout. */
function project(name: string, files: string[], nodeModules: string): string {
  const dir = mkdtempSync(join(tmpdir(), `orgraph-${name}-`));
  projects.push(dir);
  symlinkSync(nodeModules, join(dir, 'node_modules'), 'dir');
  symlinkSync(root, join(dir, 'orgraph'), 'dir');
  for (const file of files) {
    const code = examples.get(file);
    if (code === undefined) throw new Error(`docs/graphql.md has no example named ${file}`);
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), code);
  }
  return dir;
}

/** `tsc --strict` over the given files of a project (and everything they import); its output and status. */
function typecheck(dir: string, files: string[]): SpawnSyncReturns<string> {
  const tsconfig = writeStrictTsconfig(dir, files, { allowImportingTsExtensions: true });
  return spawnSync(join(root, 'node_modules/.bin/tsc'), ['-p', tsconfig], {
    encoding: 'utf8',
    timeout: 180_000,
  });
}

let server: LiveServer;

/**
 * A plain GraphQL POST to the live server: the expected values, asked without any client. The test sits idle for
 * seconds while the compilers run, so a kept-alive connection may be closed by the server just as it is reused
 * (undici's "other side closed", or a reset when the close crosses the request); that one failure, before any
 * answer, is retried once on a new connection.
 */
async function ask<Data>(query: string, variables: Record<string, unknown> = {}): Promise<Data> {
  const post = () =>
    fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${server.token}` },
      body: JSON.stringify({ query, variables }),
    });
  const response = await post().catch((error: unknown) => {
    const cause = error instanceof Error ? (error.cause as { code?: string } | undefined) : undefined;
    if (cause?.code !== 'UND_ERR_SOCKET' && cause?.code !== 'ECONNRESET') throw error;
    return post();
  });
  const body = (await response.json()) as { data?: Data; errors?: unknown };
  expect(body.errors).toBeUndefined();
  return body.data!;
}

beforeAll(async () => {
  server = await startLiveServer();
}, 180_000);
afterAll(async () => {
  for (const dir of projects) rmSync(dir, { recursive: true, force: true });
  if (server) expect(await server.stop()).toBe(0);
});

describe('GraphQL Code Generator on the docs example', () => {
  // The CLI needs Node ≥ 22.15: it runs from scripts/graphql-tools (`npm run tools:setup`) on such a Node, and the
  // project's node_modules is that folder's, so the CLI and its client preset share one `graphql`.
  const toolsReady = needs('graphql-tools');
  let dir: string;
  beforeAll(() => {
    if (!toolsReady) return;
    dir = project('codegen', ['codegen.ts', 'src/organisations.ts'], join(toolsFolder, 'node_modules'));
  }, 60_000);

  it('generates typed documents with the shipped scalar mapping', () => {
    const codegen = runGraphqlTool('@graphql-codegen/cli/esm/bin.js', ['--config', 'codegen.ts'], {
      cwd: dir,
    });
    expect(codegen.status, `${codegen.stdout}${codegen.stderr}`).toBe(0);
    const types = readFileSync(join(dir, 'src/gql/graphql.ts'), 'utf8');
    // UUID is a string, not `any` or `unknown`, and the status enum is a closed union of the schema's values.
    expect(types).toMatch(/export type OrganisationsPageQuery = .*reference: string, name: string/);
    expect(types).toMatch(/export type OrganisationStatus =/);
    expect(types).not.toMatch(/\bany\b/);
  }, 300_000);

  it('compiles the output and the docs program under tsc --strict', () => {
    expect(existsSync(join(dir, 'src/gql/index.ts'))).toBe(true);
    const tsc = typecheck(dir, ['src/organisations.ts']);
    expect(`${tsc.stdout}${tsc.stderr}`).toBe('');
    expect(tsc.status).toBe(0);
  }, 200_000);

  it('pages through the organisations against the server with the typed query', async () => {
    const program = (await import(pathToFileURL(join(dir, 'src/organisations.ts')).href)) as {
      organisationNames(baseUrl: string, token: string, first: number, pages: number): Promise<string[]>;
    };
    const expected = await ask<{ organisations: { edges: { node: { name: string } }[] } }>(
      '{ organisations(first: 6) { edges { node { name } } } }',
    );
    const names = expected.organisations.edges.map((edge) => edge.node.name);
    expect(names).toHaveLength(6);
    expect(await program.organisationNames(server.url, server.token, 2, 3)).toEqual(names);
  }, 60_000);
});

interface EventsFragmentData {
  events: {
    totalCount: { value: number } | null;
    pageInfo: { hasNextPage: boolean; endCursor: string | null };
    edges: { node: { id: string; eventType: string; publishDate: string } }[];
  } | null;
}

describe('the Relay compiler and runtime on the docs example', () => {
  let dir: string;
  beforeAll(() => {
    dir = project(
      'relay',
      ['relay.config.json', 'src/environment.ts', 'src/OrganisationEvents.ts'],
      join(root, 'node_modules'),
    );
  });

  const artifact = async <Node>(name: string): Promise<Node> =>
    (
      (await import(pathToFileURL(join(dir, `src/__generated__/${name}.graphql.ts`)).href)) as {
        default: Node;
      }
    ).default;

  it("takes the shipped scalar mapping as customScalarTypes and compiles the docs' documents", () => {
    const config = JSON.parse(readFileSync(join(dir, 'relay.config.json'), 'utf8'));
    expect(config.customScalarTypes).toEqual(scalarTypes);
    const compiler = spawnSync(join(root, 'node_modules/.bin/relay-compiler'), [], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...process.env, NO_COLOR: '1' },
    });
    expect(compiler.status, `${compiler.stdout}${compiler.stderr}`).toBe(0);
    const fragment = readFileSync(
      join(dir, 'src/__generated__/OrganisationEvents_organisation.graphql.ts'),
      'utf8',
    );
    // DateTime arrives typed as the mapping says, and the pagination query goes through node(id:).
    expect(fragment).toMatch(/readonly publishDate: string;/);
    const pagination = readFileSync(
      join(dir, 'src/__generated__/OrganisationEventsPaginationQuery.graphql.ts'),
      'utf8',
    );
    expect(pagination).toMatch(/node\(id: \$id\)/);
  }, 150_000);

  it('compiles the docs modules under tsc --strict', () => {
    const tsc = typecheck(dir, ['src/environment.ts', 'src/OrganisationEvents.ts']);
    expect(`${tsc.stdout}${tsc.stderr}`).toBe('');
    expect(tsc.status).toBe(0);
  }, 200_000);

  it('runs the query, then pages the connection through node(id:) and reads both pages in the fragment', async () => {
    const listed = await ask<{
      organisations: { edges: { node: { reference: string; events: { edges: unknown[] } | null } }[] };
    }>('{ organisations(first: 30) { edges { node { reference events(first: 3) { edges { cursor } } } } } }');
    const reference = listed.organisations.edges.find((edge) => (edge.node.events?.edges.length ?? 0) >= 3)
      ?.node.reference;
    expect(reference, 'an organisation with at least 3 events among the first 30').toBeDefined();
    const expected = await ask<{
      organisation: {
        id: string;
        name: string;
        events: { totalCount: { value: number }; edges: { node: { id: string; eventType: string } }[] };
      };
    }>(
      'query ($ref: UUID!) { organisation(reference: $ref) { id name events(first: 4) { totalCount { value } edges { node { id eventType } } } } }',
      { ref: reference },
    );
    const expectedIds = expected.organisation.events.edges.map((edge) => edge.node.id);

    const { createEnvironment } = (await import(pathToFileURL(join(dir, 'src/environment.ts')).href)) as {
      createEnvironment(url: string, token: string): Environment;
    };
    const environment = createEnvironment(`${server.url}/graphql`, server.token);
    const query = await artifact<GraphQLTaggedNode>('OrganisationEventsQuery');
    const variables = { reference };
    environment.retain(createOperationDescriptor(getRequest(query), variables));
    const data = (await fetchQuery<OperationType>(environment, query, variables).toPromise()) as {
      organisation: { id: string; name: string };
    };
    expect(data.organisation.id).toBe(expected.organisation.id);
    expect(data.organisation.name).toBe(expected.organisation.name);

    const fragment = await artifact<ReaderFragment>('OrganisationEvents_organisation');
    const readEvents = () =>
      (
        environment.lookup(getSelector(fragment, data.organisation) as SingularReaderSelector)
          .data as unknown as EventsFragmentData
      ).events!;
    const firstPage = readEvents();
    expect(firstPage.edges.map((edge) => edge.node.id)).toEqual(expectedIds.slice(0, 2));
    expect(firstPage.totalCount?.value).toBe(expected.organisation.events.totalCount.value);
    expect(firstPage.pageInfo.hasNextPage).toBe(true);

    const pagination = await artifact<GraphQLTaggedNode>('OrganisationEventsPaginationQuery');
    const next = { id: data.organisation.id, count: 2, cursor: firstPage.pageInfo.endCursor };
    environment.retain(createOperationDescriptor(getRequest(pagination), next));
    await fetchQuery<OperationType>(environment, pagination, next).toPromise();

    const bothPages = readEvents();
    expect(bothPages.edges.map((edge) => edge.node.id)).toEqual(expectedIds.slice(0, 4));
    expect(bothPages.edges.map((edge) => edge.node.eventType)).toEqual(
      expected.organisation.events.edges.map((edge) => edge.node.eventType),
    );
    expect(bothPages.pageInfo.hasNextPage).toBe(expected.organisation.events.totalCount.value > 4);
  }, 60_000);
});
