import { execFile } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/server/app.ts';
import { pageBlock, pageBlocks } from '../readme/readme-blocks.ts';
import { openTestApp, type TestApp } from '../support/test-app.ts';

/**
 * The worked example of docs/reconciliation.md, run as a reader pastes it (`sh`, with `TOKEN` set) against the service
 * on a free loopback port over the demo dataset; only `http://127.0.0.1:4000` is replaced by that address. The answer
 * shown on the page must be the answer got, scores only for their range: they follow the matcher's weights.
 */
const page = 'docs/reconciliation.md';
const blocks = pageBlocks(page);
const command = pageBlock(page, 'A worked example', 'curl', blocks);
const shown = pageBlock(page, 'A worked example', '"result"', blocks);

let app: TestApp;
let server: ReturnType<typeof serve>;
let url: string;
beforeAll(async () => {
  app = await openTestApp();
  await new Promise<void>((listening) => {
    server = serve({ fetch: createApp(app.services).fetch, port: 0, hostname: '127.0.0.1' }, () =>
      listening(),
    );
  });
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((done) => server.close(done));
  await app.close();
});

type Batch = Record<string, { result: { score: number }[] }>;
const withoutScores = (batch: Batch) =>
  Object.fromEntries(
    Object.entries(batch).map(([key, { result }]) => [
      key,
      { result: result.map((candidate) => ({ ...candidate, score: 'a score' })) },
    ]),
  );

describe('docs/reconciliation.md', () => {
  it('the worked example answers what the page shows', async () => {
    const script = command.body.replaceAll('http://127.0.0.1:4000', url);
    const { stdout } = await promisify(execFile)('sh', ['-e', '-c', script], {
      env: { ...process.env, TOKEN: app.tokens.starter },
      timeout: 60_000,
    });
    const got = JSON.parse(stdout) as Batch;
    const expected = JSON.parse(shown.body) as Batch;
    expect(withoutScores(got)).toEqual(withoutScores(expected));
    for (const { result } of Object.values(got))
      for (const candidate of result) expect(candidate.score).toBeGreaterThanOrEqual(0);
  });
});
