import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { buildSchema, parse, validate } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { type LiveServer, startLiveServer } from '../browser/live-server.ts';
import { createScratchDatabase } from '../reliability/support/scratch-postgres.ts';
import { type DocBlock, docPages, pageBlock, pageBlocks, pageText } from './readme-blocks.ts';

/**
 * Every fenced block of README.md and of each page in docs/ is either checked here (claimed by its page, heading and
 * text), run by the test file its marker names, or marked as not run with a reason (docs/testing.md, "The README and
 * docs examples"); a new block that is none of these fails the last test.
 *
 * Commands run as they are written, through `sh`, against `orgraph serve` started on a free loopback port over the
 * demo dataset (the test database is seeded the way `npm start` seeds a fresh clone: scale 1); only the address
 * `http://127.0.0.1:4000` is replaced by the server's. Outputs are compared with what the page shows: names,
 * counts, titles and texts exactly. The seed dates everything relative to the day it runs (docs/decisions.md), so
 * dates (`publishedAt`, `start_date`) are only checked for their form, and the cost budget's `remaining` and
 * `resetSeconds` depend on the requests before and the clock, so they are only checked to be numbers.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));
const blocks = docPages.flatMap(pageBlocks);
const claimed = new Set<DocBlock>();

/** The block of `page` under `heading` containing `contains`, which this file checks. */
function claim(page: string, heading: string, contains: string): DocBlock {
  const block = pageBlock(page, heading, contains, blocks);
  claimed.add(block);
  return block;
}

const readme = pageText('README.md');
const restPage = pageText('docs/rest.md');

const blocksChecked = {
  twoCommands: claim('README.md', 'The two commands', 'npm ci && npm start'),
  firstRequest: claim('README.md', 'Create a token', 'npx orgraph token create'),
  graphqlCommand: claim('README.md', 'A first GraphQL query', 'curl'),
  graphqlOutput: claim('README.md', 'A first GraphQL query', '"currentExecutives"'),
  schemaCommand: claim('docs/graphql.md', 'GraphiQL and the schema', 'curl'),
  schemaOutput: claim('docs/graphql.md', 'GraphiQL and the schema', '"data"'),
  build: claim('docs/operating.md', 'The compiled build and memory', 'npm run build'),
  restCommand: claim('docs/rest.md', "An example: an organisation's people", '/people'),
  restRow: claim('docs/rest.md', "An example: an organisation's people", '"linkedin_url"'),
  feed: claim('docs/following.md', 'The feed', '/feed'),
  subscription: claim('docs/following.md', 'The live subscription', 'savedSearchEvents'),
  importSession: claim('docs/importing.md', 'A worked example', '$ npx orgraph import'),
};

const packageJson = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  scripts: Record<string, string>;
};

let server: LiveServer;
beforeAll(async () => {
  server = await startLiveServer();
}, 120_000);
afterAll(async () => {
  if (server) expect(await server.stop()).toBe(0);
});

/** Runs a block's commands with `sh` against the live server, the way a reader pastes them. */
async function runCommands(block: DocBlock, env: NodeJS.ProcessEnv = {}): Promise<string> {
  const script = block.body.replaceAll('http://127.0.0.1:4000', server.url);
  const { stdout } = await promisify(execFile)('sh', ['-e', '-c', script], {
    cwd: root,
    env: { ...process.env, TOKEN: server.token, ...env },
    timeout: 240_000,
    maxBuffer: 16 * 1024 * 1024,
  }).catch((error: Error & { stderr?: string }) => {
    throw new Error(`${error.message}\n${error.stderr ?? ''}`);
  });
  return stdout;
}

interface Executive {
  title: string;
  profile: {
    fullName: string;
    articles: {
      edges: {
        node: { article: { title: string; publishedAt: string }; about: { type: string; summary: string }[] };
      }[];
    };
  };
}

function withoutDates(executives: Executive[]) {
  return executives.map((executive) => ({
    ...executive,
    profile: {
      ...executive.profile,
      articles: {
        edges: executive.profile.articles.edges.map(({ node }) => ({
          node: { ...node, article: { ...node.article, publishedAt: 'a date' } },
        })),
      },
    },
  }));
}

describe('README and docs examples', () => {
  it('the two commands: `npm start` serves on 127.0.0.1:4000 and `npm test` typechecks, lints and runs the suite', () => {
    expect(blocksChecked.twoCommands.body).toContain('serve on http://127.0.0.1:4000');
    expect(packageJson.scripts.start).toMatch(/ src\/cli\/main\.ts start$/);
    const defaults = loadConfig({});
    expect(`http://${defaults.host}:${defaults.port}`).toBe('http://127.0.0.1:4000');
    expect(packageJson.scripts.test).toBe('npm run typecheck && npm run lint && vitest run');
  });

  it('the first request: `token create` prints a token and the organisation list answers two rows with it', async () => {
    const output = await runCommands(blocksChecked.firstRequest);
    const answer = JSON.parse(output) as { status: { code: number }; success: { name: string }[] };
    expect(answer.status.code).toBe(200);
    expect(answer.success).toHaveLength(2);
    expect(blocksChecked.firstRequest.body).toContain('limit=2');
  }, 300_000);

  it('the demo dataset a first start loads has about as many organisations as the README says', async () => {
    const said = Number(readme.match(/\(about ([\d,]+) organisations\)/)?.[1]?.replace(/,/g, ''));
    const response = await fetch(
      `${server.url}/v1/organisations?show_empty=true&type=all&status=all&min_confidence=0&limit=1`,
      {
        headers: { Authorization: `Bearer ${server.token}` },
      },
    );
    const { meta } = (await response.json()) as { meta: { total: number } };
    // "About" a round number: the count rounds to it at its leading digit.
    const unit = 10 ** Math.floor(Math.log10(said));
    expect(Math.round(meta.total / unit) * unit).toBe(said);
  });

  it('GraphQL: reading the schema needs no token, and answers what docs/graphql.md shows', async () => {
    const body = blocksChecked.schemaCommand.body;
    expect(body).not.toContain('Authorization');
    expect(JSON.parse(await runCommands(blocksChecked.schemaCommand))).toEqual(
      JSON.parse(blocksChecked.schemaOutput.body),
    );
  });

  it('the compiled build: `npm run build` is the tsc command shown and writes dist/src/cli/main.js', () => {
    const body = blocksChecked.build.body;
    const comment = body.match(/npm run build\s+# (.+?): dist\//)?.[1];
    expect(packageJson.scripts.build).toBe(comment);
    const buildConfig = JSON.parse(
      readFileSync(new URL('../../tsconfig.build.json', import.meta.url), 'utf8'),
    );
    expect(buildConfig.compilerOptions).toMatchObject({ outDir: 'dist', rootDir: '.' });
    expect(buildConfig.include).toContain('src');
    expect(existsSync(new URL('../../src/cli/main.ts', import.meta.url))).toBe(true);
    expect(body).toContain('dist/src/cli/main.js serve');
    // The same heap limit as `npm start`, as docs/operating.md says.
    const heap = packageJson.scripts.start?.match(/--max-old-space-size=\d+/)?.[0];
    expect(body).toContain(`node ${heap} dist/src/cli/main.js serve`);
  });

  it("GraphQL: the README's first query answers what it shows (its first executives, and how many)", async () => {
    const body = JSON.parse(await runCommands(blocksChecked.graphqlCommand)) as {
      data?: {
        organisation: { name: string; status: string; sizeBand: string; currentExecutives: Executive[] };
      };
      errors?: unknown[];
      extensions: { cost: Record<string, number> };
    };
    const shown = JSON.parse(blocksChecked.graphqlOutput.body);
    expect(body.errors).toBeUndefined();
    const organisation = body.data?.organisation;
    const expected = shown.data.organisation;
    expect({
      name: organisation?.name,
      status: organisation?.status,
      sizeBand: organisation?.sizeBand,
    }).toEqual({
      name: expected.name,
      status: expected.status,
      sizeBand: expected.sizeBand,
    });
    const total = readme.match(/the first of its (\d+) current executives/)?.[1];
    expect(organisation?.currentExecutives).toHaveLength(Number(total));
    const first = organisation?.currentExecutives.slice(0, expected.currentExecutives.length) ?? [];
    expect(withoutDates(first)).toEqual(withoutDates(expected.currentExecutives));
    for (const executive of first) {
      for (const { node } of executive.profile.articles.edges) {
        expect(node.article.publishedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      }
    }
    const cost = body.extensions.cost;
    expect({ requested: cost.requested, limit: cost.limit }).toEqual({
      requested: shown.extensions.cost.requested,
      limit: shown.extensions.cost.limit,
    });
    expect(typeof cost.remaining).toBe('number');
    expect(typeof cost.resetSeconds).toBe('number');
  });

  it('REST: the organisation people example has the counts and the row docs/rest.md shows', async () => {
    const body = JSON.parse(await runCommands(blocksChecked.restCommand)) as {
      success: Record<'current_executives' | 'current_professionals' | 'alumni', Record<string, unknown>[]>;
    };
    const counts = restPage.match(
      /gives `current_executives` \((\d+)\), `current_professionals` \((\d+)\) and `alumni` \((\d+)\)/,
    );
    expect(counts).not.toBeNull();
    const people = body.success;
    expect([
      people.current_executives.length,
      people.current_professionals.length,
      people.alumni.length,
    ]).toEqual(counts?.slice(1, 4).map(Number));
    const row = JSON.parse(blocksChecked.restRow.body);
    const actual = [...people.current_executives, ...people.current_professionals, ...people.alumni].find(
      (candidate) => candidate.reference === row.reference,
    ) as (typeof row & { role: { start_date: string } }) | undefined;
    expect(actual).toBeDefined();
    expect(actual?.role.start_date).toMatch(/^\d{4}-\d\d-\d\d$/);
    expect({ ...actual, role: { ...actual?.role, start_date: 'a date' } }).toEqual({
      ...row,
      role: { ...row.role, start_date: 'a date' },
    });
  });

  it('saved-search feed: the commands save a search, start its feed now, and read no change after that cursor', async () => {
    const answer = JSON.parse(await runCommands(blocksChecked.feed)) as {
      status: { code: number };
      success: unknown[];
      meta: { cursor: string; has_more: boolean };
    };
    // Nothing is imported between the two reads here, so the feed after "now" is empty and gives a cursor back.
    expect(answer.status.code).toBe(200);
    expect(answer.success).toEqual([]);
    expect(answer.meta.cursor).toMatch(/\S/);
    expect(answer.meta.has_more).toBe(false);
  });

  it('the live subscription is a valid operation of the schema', () => {
    const schema = buildSchema(readFileSync(new URL('../../schema.graphql', import.meta.url), 'utf8'));
    const document = parse(blocksChecked.subscription.body);
    expect(validate(schema, document).map((error) => error.message)).toEqual([]);
  });

  it('importing: the worked example prints what docs/importing.md shows, on a store of its own', async () => {
    // A terminal session: `$ command` lines, each followed by what it printed. Wrapped lines (starting with a
    // space) continue the line before; `…` stands for text left out, and `seconds` is the run's own.
    const steps: { command: string; output: string }[] = [];
    for (const line of blocksChecked.importSession.body.split('\n')) {
      if (line.startsWith('$ ')) steps.push({ command: line.slice(2).replace(/\s+#.*$/, ''), output: '' });
      else if (line.startsWith(' ')) (steps.at(-1) as { output: string }).output += line.slice(1);
      else (steps.at(-1) as { output: string }).output += `${steps.at(-1)?.output ? '\n' : ''}${line}`;
    }
    const directory = mkdtempSync(join(tmpdir(), 'orgraph-readme-import-'));
    const scratch = process.env.DATABASE_URL ? await createScratchDatabase('readme_import') : undefined;
    const store = scratch
      ? { DATABASE_URL: scratch.url }
      : { DATABASE_URL: '', DATA_DIR: join(directory, 'store') };
    try {
      let status = 0;
      for (const { command, output } of steps) {
        const file = command.match(/^cat (\S+)$/)?.[1];
        if (file && !existsSync(join(directory, file))) {
          writeFileSync(join(directory, file), `${output}\n`); // the session shows the files it starts from
          continue;
        }
        let printed: string;
        if (command === 'echo $?') printed = String(status);
        else {
          // The session runs in a directory of its own, outside the project: the project's bin stands for npx's.
          const script = command.replace(/^npx orgraph /, `node ${join(root, 'bin/orgraph.js')} `);
          const result = await promisify(execFile)('sh', ['-c', script], {
            cwd: directory,
            env: { ...process.env, ...store, LOG_LEVEL: 'warn' },
            timeout: 240_000,
          }).then(
            ({ stdout }) => ({ stdout, code: 0 }),
            (error: { stdout?: string; code?: number }) => ({
              stdout: error.stdout ?? '',
              code: error.code ?? 1,
            }),
          );
          printed = result.stdout.trimEnd();
          status = result.code;
        }
        const pattern = output
          .split(/(…|"seconds":[0-9.]+)/)
          .map((part, index) => {
            if (index % 2 === 0) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
            return part === '…' ? '.*?' : '"seconds":[0-9.]+';
          })
          .join('');
        expect(printed, `$ ${command}`).toMatch(new RegExp(`^${pattern}$`, 's'));
      }
    } finally {
      await scratch?.drop();
      rmSync(directory, { recursive: true, force: true });
    }
  }, 600_000);

  it('every other block is marked: run by a test file that reads its page, or not run with a reason', () => {
    expect(docPages).toContain('docs/rest.md');
    const where = (block: DocBlock) => `${block.page}:${block.line}`;
    const unchecked = blocks
      .filter((block) => !claimed.has(block) && !block.marker)
      .map((block) => `${where(block)} (${block.language || 'no language'}, under "${block.heading}")`);
    expect(unchecked, 'blocks neither checked nor marked').toEqual([]);
    for (const block of blocks) {
      if (block.marker)
        expect(claimed.has(block), `${where(block)} is marked and also checked here`).toBe(false);
      if (block.marker?.kind === 'not run')
        expect(block.marker.reason.length, where(block)).toBeGreaterThan(10);
      if (block.marker?.kind === 'run by') {
        const file = new URL(`../../${block.marker.file}`, import.meta.url);
        expect(existsSync(file), `${block.marker.file} (${where(block)})`).toBe(true);
        // The test that runs a block reads it from its page, so it names that page.
        const names = block.page === 'README.md' ? 'README' : block.page;
        expect(readFileSync(file, 'utf8'), `${block.marker.file} names ${names}`).toContain(names);
      }
    }
  });
});
