import { describe, expect, it } from 'vitest';
import { createOrgraphClient, OrgraphApiError } from '../../src/client/index.ts';
import { parseRetryAfter, retrying } from '../../src/client/retry.ts';

const envelope = (code: number, success: unknown, messages: string[] = []) =>
  JSON.stringify({ status: { code, messages }, success, meta: null, correlation_id: `c-${code}` });

/** A fake service answering from a script, recording what it was sent. */
function scripted(answers: { status: number; headers?: Record<string, string>; body?: string }[]) {
  const received: { method: string; url: string; body: string }[] = [];
  const fetch = async (request: Request) => {
    received.push({ method: request.method, url: request.url, body: await request.text() });
    const answer = answers[Math.min(received.length - 1, answers.length - 1)]!;
    return new Response(answer.body ?? envelope(answer.status, null, ['busy']), {
      status: answer.status,
      headers: { 'Content-Type': 'application/json', ...answer.headers },
    });
  };
  return { fetch, received };
}

function recordingSleep() {
  const waits: number[] = [];
  return { waits, sleep: async (ms: number) => void waits.push(ms) };
}

describe('parseRetryAfter', () => {
  it('reads delay-seconds and HTTP dates, and ignores nonsense', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('7', now)).toBe(7000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:03 GMT', now)).toBe(3000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 23:59:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-3', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});

describe('retrying fetch', () => {
  it('waits as long as Retry-After says on 429 and 503, then returns the success', async () => {
    const service = scripted([
      { status: 429, headers: { 'Retry-After': '2' } },
      { status: 503, headers: { 'Retry-After': '5' } },
      { status: 200, body: envelope(200, { queryId: 'q-1', ignored_field_types: [] }) },
    ]);
    const clock = recordingSleep();
    const client = createOrgraphClient({
      baseUrl: 'http://orgraph.test/',
      token: 'orgr_fake',
      fetch: service.fetch,
      retry: { sleep: clock.sleep },
    });
    const chips = [{ fieldType: 'EventType', label: 'Move', value: 'move', operator: 'EQUAL' }] as const;
    const saved = await client.saveEventSearch([...chips] as never);

    expect(saved).toEqual({ queryId: 'q-1', ignored_field_types: [] });
    expect(clock.waits).toEqual([2000, 5000]);
    // The body is sent whole on every try.
    expect(service.received.map(({ method, url }) => `${method} ${url}`)).toEqual([
      'POST http://orgraph.test/v1/search/events',
      'POST http://orgraph.test/v1/search/events',
      'POST http://orgraph.test/v1/search/events',
    ]);
    expect(new Set(service.received.map(({ body }) => body))).toEqual(
      new Set([JSON.stringify({ query: chips })]),
    );
  });

  it('backs off exponentially without Retry-After, gives up after the bounded retries and reports the error', async () => {
    const service = scripted([{ status: 503 }]);
    const clock = recordingSleep();
    const client = createOrgraphClient({
      baseUrl: 'http://orgraph.test',
      token: 'orgr_fake',
      fetch: service.fetch,
      retry: { retries: 3, backoffMs: 100, sleep: clock.sleep },
    });
    const failure = await client.getEvent('00000000-0000-4000-8000-000000000000').catch((error) => error);
    expect(failure).toBeInstanceOf(OrgraphApiError);
    expect(failure).toMatchObject({ status: 503, messages: ['busy'], correlationId: 'c-503' });
    expect(clock.waits).toEqual([100, 200, 400]);
    expect(service.received).toHaveLength(4);
  });

  it('does not wait longer than maxDelayMs: a far Retry-After comes back as the error, with its delay', async () => {
    const service = scripted([{ status: 429, headers: { 'Retry-After': '3600' } }]);
    const clock = recordingSleep();
    const client = createOrgraphClient({
      baseUrl: 'http://orgraph.test',
      token: 'orgr_fake',
      fetch: service.fetch,
      retry: { maxDelayMs: 60_000, sleep: clock.sleep },
    });
    const failure = await client.listOrganisations().catch((error) => error);
    expect(failure).toMatchObject({ name: 'OrgraphApiError', status: 429, retryAfterSeconds: 3600 });
    expect(clock.waits).toEqual([]);
    expect(service.received).toHaveLength(1);
  });

  it('never retries other errors', async () => {
    for (const status of [400, 401, 404, 422, 500]) {
      const service = scripted([{ status }]);
      const clock = recordingSleep();
      const send = retrying(service.fetch, { sleep: clock.sleep });
      expect((await send(new Request('http://orgraph.test/v1/events'))).status).toBe(status);
      expect(service.received).toHaveLength(1);
      expect(clock.waits).toEqual([]);
    }
  });

  it('stops waiting when the request is aborted', async () => {
    const service = scripted([{ status: 429, headers: { 'Retry-After': '30' } }]);
    const controller = new AbortController();
    const send = retrying(service.fetch);
    const sent = send(new Request('http://orgraph.test/v1/events', { signal: controller.signal }));
    setTimeout(() => controller.abort(new Error('caller gave up')), 10);
    await expect(sent).rejects.toThrow('caller gave up');
    expect(service.received).toHaveLength(1);
  });
});
