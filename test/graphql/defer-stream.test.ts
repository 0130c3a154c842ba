import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApp, type TestApp } from '../support/test-app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await openTestApp();
});
afterAll(() => app.close());

/** Sends an operation asking for an incremental answer, and returns the raw response. */
function incremental(query: string, accept: string, token?: string) {
  return app.request('/graphql', {
    method: 'POST',
    token,
    headers: { 'Content-Type': 'application/json', Accept: accept },
    body: JSON.stringify({ query }),
  });
}

/** The JSON payloads of an SSE answer (`event: next` lines). */
function ssePayloads(text: string): Record<string, unknown>[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('data: ') && line.length > 'data: '.length)
    .map((line) => JSON.parse(line.slice('data: '.length)))
    .filter((payload) => typeof payload === 'object' && payload !== null);
}

const deferredEvents = `{
  organisations(first: 2) { edges { node { name ... @defer(label: "events") { events(first: 2) { edges { node { id } } } } } } }
}`;

describe('@defer and @stream', () => {
  it('answers the deferred fragment in a later part, over multipart/mixed', async () => {
    const response = await incremental(deferredEvents, 'multipart/mixed');
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toMatch(/^multipart\/mixed/);
    const text = await response.text();
    expect(text).toContain('"hasNext":true');
    expect(text).toContain('"label":"events"');
    expect(text).toContain('"hasNext":false');
  });

  it('answers over text/event-stream, first part without the deferred fields', async () => {
    const response = await incremental(deferredEvents, 'text/event-stream');
    expect(response.headers.get('Content-Type')).toMatch(/^text\/event-stream/);
    const payloads = ssePayloads(await response.text());
    const first = payloads[0] as { data: { organisations: { edges: { node: Record<string, unknown> }[] } } };
    expect(first.data.organisations.edges).toHaveLength(2);
    for (const edge of first.data.organisations.edges) expect(edge.node).not.toHaveProperty('events');
    const later = payloads.slice(1) as { incremental?: { data: { events: unknown }; label: string }[] }[];
    const parts = later.flatMap((payload) => payload.incremental ?? []);
    expect(parts).toHaveLength(2);
    for (const part of parts) expect(part.label).toBe('events');
  });

  it('streams list items after initialCount', async () => {
    const list =
      '{ organisations(first: 1) { edges { node { currentExecutives @stream(initialCount: 1) { title } } } } }';
    const whole = await app.graphql<{
      organisations: { edges: { node: { currentExecutives: unknown[] } }[] };
    }>(list.replace(' @stream(initialCount: 1)', ''));
    const expected = whole.body.data!.organisations.edges[0]!.node.currentExecutives;
    const payloads = ssePayloads(await (await incremental(list, 'text/event-stream')).text()) as {
      data?: { organisations: { edges: { node: { currentExecutives: unknown[] } }[] } };
      incremental?: { items: unknown[] }[];
    }[];
    const first = payloads[0]!.data!.organisations.edges[0]!.node.currentExecutives;
    const streamed = payloads
      .slice(1)
      .flatMap((payload) => payload.incremental ?? [])
      .flatMap((part) => part.items);
    expect(first).toEqual(expected.slice(0, 1));
    expect([...first, ...streamed]).toEqual(expected);
  });

  it('applies the depth limit to deferred fragments', async () => {
    const deep =
      '{ organisations { edges { node { ... @defer { events { edges { node { organisation { events { edges { node { organisation { events { edges { node { id } } } } } } } } } } } } } } } }';
    const response = await incremental(deep, 'multipart/mixed, application/graphql-response+json');
    const body = await response.json();
    expect(response.status).toBe(400);
    expect(body.errors[0].extensions.code).toBe('QUERY_LIMIT_EXCEEDED');
  });

  it('applies the page limit and the cost to deferred fragments', async () => {
    const response = await incremental(
      '{ organisations { edges { node { ... @defer { events(first: 101) { edges { node { id } } } } } } } }',
      'multipart/mixed, application/graphql-response+json',
    );
    expect((await response.json()).errors[0].extensions.code).toBe('QUERY_LIMIT_EXCEEDED');
  });

  it('applies plan coverage to deferred fields', async () => {
    const response = await incremental(deferredEvents, 'text/event-stream', app.tokens.starter);
    const payloads = ssePayloads(await response.text()) as {
      errors?: { extensions: { code: string } }[];
      incremental?: { errors?: { extensions: { code: string } }[] }[];
    }[];
    const codes = payloads
      .flatMap((payload) => [
        ...(payload.errors ?? []),
        ...(payload.incremental ?? []).flatMap((part) => part.errors ?? []),
      ])
      .map((error) => error.extensions.code);
    expect(codes.length).toBeGreaterThan(0);
    expect(new Set(codes)).toEqual(new Set(['FORBIDDEN']));
  });
});
