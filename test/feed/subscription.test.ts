import { randomUUID } from 'node:crypto';
import { getEventListeners } from 'node:events';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenTo } from '../../src/db/notifications.ts';
import { announceChanges, changeChannel } from '../../src/domain/feed/change-signal.ts';
import { type Envelope, openTestApp, type TestApp } from '../support/test-app.ts';
import { feedDatabase } from './support.ts';

let app: TestApp;
let stopListening: () => Promise<void>;
const database = await feedDatabase('subscription');

beforeAll(async () => {
  app = await openTestApp(database.env);
  stopListening = await listenTo(app.services.handle, changeChannel, announceChanges);
});
afterAll(async () => {
  await stopListening();
  await app.services.db.execute(sql`delete from events where deal_type like 'sse-%'`);
  await app.close();
});

const copyDeal = (reference: string, dealType: string) =>
  sql.raw(`insert into events (reference, type, summary, publish_date, organisation_reference, acquirer_reference,
    acquiree_reference, deal_type, deal_status, details)
  select '${reference}'::uuid, type, 'an sse deal', publish_date, organisation_reference, acquirer_reference,
    acquiree_reference, '${dealType}', deal_status, details
  from events where type = 'deal' and acquirer_reference is not null and acquiree_reference is not null
  order by reference limit 1`);

/** Reads Server-Sent Events from a response until `count` `next` events arrived (bounded in time). */
async function readEvents(response: Response, count: number, boundMs = 15_000) {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const events: {
    data: { savedSearchEvents: { change: string; cursor: string; event: { reference: string } } };
  }[] = [];
  let buffer = '';
  const deadline = Date.now() + boundMs;
  while (events.length < count && Date.now() < deadline) {
    const chunk = await Promise.race([
      reader.read(),
      new Promise<{ done: true; value: undefined }>((resolve) =>
        setTimeout(() => resolve({ done: true, value: undefined }), Math.max(1, deadline - Date.now())),
      ),
    ]);
    if (chunk.done) break;
    buffer += decoder.decode(chunk.value, { stream: true });
    let boundary = buffer.indexOf('\n\n');
    while (boundary >= 0) {
      const block = buffer.slice(0, boundary);
      buffer = buffer.slice(boundary + 2);
      if (/^event: next$/m.test(block)) {
        const data = block
          .split('\n')
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice(5).trim())
          .join('');
        events.push(JSON.parse(data));
      }
      boundary = buffer.indexOf('\n\n');
    }
  }
  await reader.cancel();
  return events;
}

/** The whole of a stream that ends by itself (an error, then `complete`), bounded in time. */
function readStream(response: Response): Promise<string> {
  return Promise.race([
    response.text(),
    new Promise<string>((resolve) => setTimeout(() => resolve('(no end within 10 s)'), 10_000)),
  ]);
}

const subscribe = (query: string, variables: Record<string, unknown>, token?: string) =>
  app.request('/graphql', {
    method: 'POST',
    token,
    headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream' },
    body: JSON.stringify({ query, variables }),
  });

describe('subscription { savedSearchEvents }', () => {
  it('needs a plan covering saved searches, and names an unknown search', async () => {
    const query = `subscription { savedSearchEvents(queryId: "${randomUUID()}") { cursor } }`;
    const refused = await readStream(await subscribe(query, {}, app.tokens.starter));
    expect(refused).toMatch(/"code":"FORBIDDEN"/);
    expect(refused).toMatch(/event: complete/);
    const unknown = await readStream(await subscribe(query, {}));
    expect(unknown).toMatch(/No saved search has the queryId/);
    expect(unknown).toMatch(/"code":"NOT_FOUND"/);
  });

  // On both databases: PostgreSQL's LISTEN/NOTIFY, and the embedded database's notifications within its process.
  // The three commits follow each other with no pause, so one lands while the stream reads the one before: the
  // stream must not sleep through it (its safety net, 30 s, is longer than the 15 s this test waits).
  it('pushes the feed rows over Server-Sent Events as they are committed, and resumes from a cursor', async () => {
    const dealType = `sse-${randomUUID()}`;
    const saved = await app.request('/v1/search/events', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        query: [{ fieldType: 'DealType', label: 'x', value: dealType, operator: 'EQUAL' }],
      }),
    });
    const queryId = ((await saved.json()) as Envelope<{ queryId: string }>).success.queryId;
    const query =
      'subscription ($queryId: UUID!, $after: String) { savedSearchEvents(queryId: $queryId, after: $after) { change cursor event { reference } } }';
    const response = await subscribe(query, { queryId });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/text\/event-stream/);
    const written = [randomUUID(), randomUUID(), randomUUID()];
    // Committed as soon as the stream is open: the stream starts where it stood when its response began.
    const reading = readEvents(response, 3);
    for (const reference of written) await app.services.db.execute(copyDeal(reference, dealType));
    const events = await reading;
    expect(
      events.map((event) => [
        event.data.savedSearchEvents.event.reference,
        event.data.savedSearchEvents.change,
      ]),
    ).toEqual(written.map((reference) => [reference, 'ADDED']));
    // Resuming after the first row gives the other two again, from the log.
    const resumed = await readEvents(
      await subscribe(query, { queryId, after: events[0]!.data.savedSearchEvents.cursor }),
      2,
    );
    expect(resumed.map((event) => event.data.savedSearchEvents.event.reference)).toEqual(written.slice(1));
  }, 60_000);

  // Each open stream listens for the server's shutdown; a stream that ended, or never started, must let go.
  it('holds one shutdown listener per open stream, without a leak warning, and lets go of it when the stream ends', async () => {
    const listening = () => getEventListeners(app.services.closing, 'abort').length;
    /** Polls (every 20 ms, for at most 5 s) until the number of listeners is `count`; returns the last seen. */
    const settlesAt = async (count: number) => {
      for (let waited = 0; listening() !== count && waited < 5_000; waited += 20)
        await new Promise((resolve) => setTimeout(resolve, 20));
      return listening();
    };
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
    process.on('warning', onWarning);
    try {
      const saved = await app.request('/v1/search/events', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          query: [{ fieldType: 'DealType', label: 'x', value: `sse-${randomUUID()}`, operator: 'EQUAL' }],
        }),
      });
      const queryId = ((await saved.json()) as Envelope<{ queryId: string }>).success.queryId;
      const before = listening();
      const unknown = await readStream(
        await subscribe(`subscription { savedSearchEvents(queryId: "${randomUUID()}") { cursor } }`, {}),
      );
      expect(unknown).toMatch(/"code":"NOT_FOUND"/);
      expect(listening()).toBe(before);

      const clients = Array.from({ length: 12 }, () => new AbortController());
      const streams = await Promise.all(
        clients.map((client) =>
          app.request('/graphql', {
            method: 'POST',
            signal: client.signal,
            headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream' },
            body: JSON.stringify({
              query: 'subscription ($queryId: UUID!) { savedSearchEvents(queryId: $queryId) { cursor } }',
              variables: { queryId },
            }),
          }),
        ),
      );
      const readers = streams.map((stream) => stream.body!.getReader());
      for (const reader of readers) expect((await reader.read()).done).toBe(false);
      expect(await settlesAt(before + 12)).toBe(before + 12);
      // Node reports a listener leak on a later turn of the event loop than the listener's.
      await new Promise((resolve) => setTimeout(resolve, 200));

      for (const client of clients) client.abort();
      for (const reader of readers) await reader.cancel().catch(() => {});
      expect(await settlesAt(before)).toBe(before);
      expect(warnings.filter((warning) => warning.startsWith('MaxListenersExceededWarning'))).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  }, 30_000);
});
