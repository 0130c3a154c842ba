import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LiveServer, startLiveServer } from '../browser/live-server.ts';
import { pageBlock } from '../readme/readme-blocks.ts';

/**
 * `@orgraph/client` as a project outside this repository gets it: `npm pack` (which builds it), `npm install` of the
 * tarball into an empty project (offline: the package has no dependencies, so nothing else is fetched), then the
 * client example of docs/rest.md plus a few lines of our own type-checked under `--strict` against the installed
 * package and run, compiled, against `orgraph serve` on loopback over the demo dataset. The values it prints are
 * compared with what the server answers the test directly.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));
const run = promisify(execFile);
const limits = { timeout: 240_000, maxBuffer: 16 * 1024 * 1024 };

const installBlock = pageBlock('docs/rest.md', 'Installing the client', 'npm pack').body;
const exampleBlock = pageBlock(
  'docs/rest.md',
  'The typed client (`@orgraph/client`)',
  "from '@orgraph/client'",
).body;

let server: LiveServer;
let work: string;
beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'orgraph-client-package-'));
  server = await startLiveServer();
}, 120_000);
afterAll(async () => {
  if (work) rmSync(work, { recursive: true, force: true });
  if (server) expect(await server.stop()).toBe(0);
});

/** A direct `/v1` GET with the server's token, as the test's own reference. */
async function getV1<Body>(path: string): Promise<Body> {
  const response = await fetch(`${server.url}${path}`, {
    headers: { Authorization: `Bearer ${server.token}` },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Body;
}

/** What the program adds after the docs example: an error, the setup subpath, and a type that must not be `any`. */
const ownLines = `
import { OrgraphApiError, type Organisation } from '@orgraph/client';
import { possibleTypes, scalarTypes } from '@orgraph/client/graphql-setup';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import type { DocumentNode } from 'graphql';

/** Documents typed by GraphQL Code Generator, and graphql's own parsed ones, fit the client's structural types. */
export function fromOtherTools(generated: TypedDocumentNode<{ organisation: { name: string } | null }, { reference: string }>, parsed: DocumentNode) {
  return [orgraph.graphql(generated, { reference: '' }), orgraph.graphql(parsed)];
}

const record: Organisation = organisation;
let missing = 0;
try {
  await orgraph.getOrganisation('00000000-0000-4000-8000-000000000000');
} catch (error) {
  if (error instanceof OrgraphApiError) missing = error.status;
}
// @ts-expect-error -- a typed record has no such field; were the declarations lost, this line would compile.
console.log(record.no_such_field);
console.log(JSON.stringify({ missing, eventTypes: possibleTypes.Event, uuid: scalarTypes.UUID }));
`;

describe('@orgraph/client from outside the repository', () => {
  it('packs, installs offline, type-checks the docs example under --strict and runs it against a server', async () => {
    // The two install commands of docs/rest.md, run as written (with a place for the tarball and the lines of
    // output kept quiet).
    const [pack, install] = installBlock.split('\n').map((line) => line.replace(/\s+#.*$/, ''));
    expect(pack).toBe('npm pack ./packages/client');
    expect(install).toBe('npm install /path/to/orgraph-client-0.1.0.tgz');
    await run('npm', [...(pack as string).split(' ').slice(1), '--pack-destination', work], {
      cwd: root,
      ...limits,
    });
    const tarballs = readdirSync(work).filter((file) => file.endsWith('.tgz'));
    expect(tarballs).toEqual(['orgraph-client-0.1.0.tgz']);
    const tarball = join(work, tarballs[0] as string);
    const { stdout: listing } = await run('tar', ['-tzf', tarball]);
    const files = listing.trim().split('\n').sort();
    expect(files).toContain('package/dist/index.js');
    expect(files).toContain('package/dist/index.d.ts');
    expect(files).toContain('package/dist/THIRD-PARTY-LICENSES.txt');
    expect(files.filter((file) => !file.startsWith('package/dist/'))).toEqual(['package/package.json']);

    const project = join(work, 'project');
    await run('mkdir', [project]);
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: 'outside', private: true, type: 'module' }),
    );
    await run('npm', ['install', '--no-audit', '--no-fund', '--offline', tarball], {
      cwd: project,
      ...limits,
    });
    // Nothing but the client was installed: it has no dependencies.
    expect(readdirSync(join(project, 'node_modules')).filter((name) => !name.startsWith('.'))).toEqual([
      '@orgraph',
    ]);
    const installed = JSON.parse(
      readFileSync(join(project, 'node_modules/@orgraph/client/package.json'), 'utf8'),
    );
    expect(installed.dependencies).toBeUndefined();

    const program = `${exampleBlock.replace('http://127.0.0.1:4000', server.url)}\n${ownLines}`;
    expect(program).not.toMatch(/\bas\b|<any>|: any\b/);
    writeFileSync(join(project, 'program.ts'), program);
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          noUncheckedIndexedAccess: true,
          outDir: 'out',
          // Node's types (for process.env) come from this repository, like the compiler.
          typeRoots: [join(root, 'node_modules/@types')],
          types: ['node'],
          // Type-only, for the check that other tools' documents fit; nothing of them is installed or run.
          paths: {
            graphql: [join(root, 'node_modules/graphql/index.d.ts')],
            '@graphql-typed-document-node/core': [
              join(root, 'node_modules/@graphql-typed-document-node/core/typings/index.d.ts'),
            ],
          },
        },
        files: ['program.ts'],
      }),
    );
    const compiler = join(root, 'node_modules/typescript/bin/tsc');
    const compiled = await run(process.execPath, [compiler, '-p', 'tsconfig.json'], {
      cwd: project,
      ...limits,
    }).catch((error: { stdout?: string }) => {
      throw new Error(`tsc --strict failed:\n${error.stdout}`);
    });
    expect(compiled.stdout).toBe('');

    const { stdout } = await run(process.execPath, ['out/program.js'], {
      cwd: project,
      env: { ...process.env, ORGRAPH_TOKEN: server.token },
      ...limits,
    });
    const lines = stdout.trim().split('\n');
    const last = JSON.parse(lines.pop() as string);
    expect(lines.pop()).toBe('undefined'); // the line printing the field that does not exist

    // The example's first line: the organisation's name, as the example's comment says.
    const reference = exampleBlock.match(/getOrganisation\('([0-9a-f-]{36})'\)/)?.[1];
    const shownName = exampleBlock.match(/console\.log\(organisation\.name\); \/\/ (.+)$/m)?.[1];
    const record = await getV1<{ success: { name: string } }>(`/v1/organisations/${reference}`);
    expect(record.success.name).toBe(shownName);
    expect(lines[0]).toBe(shownName);

    // Then every organisation whose name contains the example's fragment, page after page.
    const fragment = exampleBlock.match(/allOrganisations\(\{ show_empty: 'true', name: '([^']+)' \}\)/)?.[1];
    const first = await getV1<{ meta: { total: number } }>(
      `/v1/organisations?show_empty=true&name=${fragment}&limit=100`,
    );
    const names: string[] = [];
    for (let page = 1; names.length < first.meta.total && page <= 50; page++) {
      const body = await getV1<{ success: { name: string }[] }>(
        `/v1/organisations?show_empty=true&name=${fragment}&limit=100&page=${page}`,
      );
      names.push(...body.success.map((row) => row.name));
    }
    expect(first.meta.total).toBeGreaterThan(20); // more than one page of the client's default size
    expect(lines.slice(1, 1 + names.length)).toEqual(names);

    // Then the GraphQL document's organisations with their number of current executives.
    const graphql = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${server.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        query:
          'query ($first: Int!) { organisations(first: $first, filter: { showEmpty: true }) { edges { node { name currentExecutives { title } } } } }',
        variables: { first: 5 },
      }),
    });
    const answer = (await graphql.json()) as {
      data: { organisations: { edges: { node: { name: string; currentExecutives: unknown[] } }[] } };
    };
    const expected = answer.data.organisations.edges.map(
      ({ node }) => `${node.name} ${node.currentExecutives.length}`,
    );
    expect(expected).toHaveLength(5);
    expect(lines.slice(1 + names.length)).toEqual(expected);

    expect(last).toEqual({
      missing: 404,
      eventTypes: ['ClientSummaryEvent', 'DealEvent', 'FundingEvent', 'MoveEvent', 'PublicOfferingEvent'],
      uuid: 'string',
    });
  }, 900_000);
});
