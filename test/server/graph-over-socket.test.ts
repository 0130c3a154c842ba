import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, type Logger, useLogger } from '../../src/http/observability/logger.ts';
import { createApp } from '../../src/server/app.ts';
import { openTestApp, type TestApp } from '../support/test-app.ts';

// Over a socket the graph's handler gives Yoga the Node request itself (in-process requests go through
// `yoga.fetch`): the same answers and headers, and a client that leaves is not a failed request.
let app: TestApp;
let server: ReturnType<typeof serve>;
let url: string;

beforeAll(async () => {
  app = await openTestApp();
  server = serve({ fetch: createApp(app.services).fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise((resolve) => server.once('listening', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await app.services.quotas?.close();
  await app.close();
});

const query = 'query ($first: Int!) { organisations(first: $first) { edges { node { reference name } } } }';

describe('the graph over a socket', () => {
  it('answers as in process, with the correlation id and the request budget', async () => {
    const body = JSON.stringify({ query, variables: { first: 3 } });
    const response = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${app.tokens.enterprise}`,
        'Content-Type': 'application/json',
        'X-Correlation-ID': 'over-a-socket',
      },
      body,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('X-Correlation-ID')).toBe('over-a-socket');
    expect(response.headers.get('RateLimit-Limit') ?? response.headers.get('RateLimit')).toBeTruthy();
    const overSocket = (await response.json()) as { data: { organisations: { edges: unknown[] } } };
    const inProcess = await app.graphql(query, { first: 3 });
    expect(overSocket.data).toEqual(inProcess.body.data);
    expect(overSocket.data.organisations.edges).toHaveLength(3);
  });

  it('logs a client that leaves before its answer as 499, not as a failed request', async () => {
    const written: string[] = [];
    const previous: Logger = useLogger(
      createLogger({ level: 'info', destination: { write: (line: string) => written.push(line) } }),
    );
    try {
      const { port } = server.address() as AddressInfo;
      const socket = connect(port, '127.0.0.1');
      await new Promise((resolve) => socket.once('connect', resolve));
      // Headers promising a body that never comes whole: the server waits in Yoga's read of it.
      socket.write(
        [
          'POST /graphql HTTP/1.1',
          'Host: 127.0.0.1',
          `Authorization: Bearer ${app.tokens.enterprise}`,
          'Content-Type: application/json',
          'Content-Length: 200',
          'X-Correlation-ID: left-early',
          '',
          '{"query":',
        ].join('\r\n'),
      );
      await new Promise((resolve) => setTimeout(resolve, 100));
      socket.destroy();
      const logged = async () =>
        written.map((line) => JSON.parse(line)).find((line) => line.correlationId === 'left-early');
      let line: Record<string, unknown> | undefined;
      for (let attempt = 0; attempt < 50 && !line; attempt++) {
        line = await logged();
        if (!line) await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(line).toMatchObject({ status: 499, msg: 'request', level: 30 });
    } finally {
      useLogger(previous);
    }
  });
});
