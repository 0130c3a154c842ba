import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageBlock } from '../readme/readme-blocks.ts';
import { openTestApp, type TestApp } from '../support/test-app.ts';

/** docs/resolving.md's worked example: its request sent as written, its answer compared whole (the id aside). */
const requestBlock = pageBlock('docs/resolving.md', 'A worked example', 'curl').body;
const answerBlock = pageBlock('docs/resolving.md', 'A worked example', '"status"').body;

let app: TestApp;
beforeAll(async () => {
  app = await openTestApp();
});
afterAll(() => app.close());

describe('docs/resolving.md', () => {
  it('answers the worked example as the page shows', async () => {
    const path = /http:\/\/127\.0\.0\.1:4000(\/v1\/\S+)/.exec(requestBlock)?.[1];
    const body = /-d '([\s\S]*)'\s*$/.exec(requestBlock)?.[1];
    expect(path).toBe('/v1/resolve/organisations');
    const response = await app.request(path!, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: body!,
    });
    const answer = await response.json();
    const shown = JSON.parse(answerBlock);
    expect({ ...answer, correlation_id: shown.correlation_id }).toEqual(shown);
  });
});
