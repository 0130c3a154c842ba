import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApp, type TestApp } from '../../../test/support/test-app.ts';
import { type BulkSession, openBulkSession } from './session.ts';

let app: TestApp;
let session: BulkSession;

beforeAll(async () => {
  app = await openTestApp();
  session = await openBulkSession(app.services.handle.driver, 'orgraph-session-test');
  await session.query('create temporary table copied (name text not null)');
});

afterAll(async () => {
  await session?.close();
  await app?.close();
});

/** Settles within `ms`, or says it did not. */
const within = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([
    promise.then(
      (value) => ({ value }),
      (error: Error) => ({ error: error.message }),
    ),
    new Promise<{ pending: true }>((resolve) => setTimeout(() => resolve({ pending: true }), ms)),
  ]);

describe("a bulk session's COPY", () => {
  it("fails with the server's error when its last row is refused, and the session goes on", async () => {
    // A text with U+0000 is refused once the row arrives, after the driver has sent the end of the COPY.
    const copied = await within(session.copy('copied', ['name'], 'fine\nnul \\x00 here\n'), 10_000);
    expect(copied).toMatchObject({ error: expect.stringMatching(/0x00/) });
    await session.copy(
      'copied',
      ['name'],
      ['one\n', 'two\n'].map((row) => new TextEncoder().encode(row)),
    );
    expect(await session.query('select name from copied order by name')).toEqual([
      { name: 'one' },
      { name: 'two' },
    ]);
  });
});
