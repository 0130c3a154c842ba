import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppEnv } from '../app-env.ts';
import { requestLineOf } from './development-log.ts';
import { createLogger, type Logger, useLogger } from './logger.ts';
import { observeRequests } from './request-log.ts';

const requestRecord = {
  level: 30,
  time: '2026-12-01T23:59:58.123Z',
  msg: 'request',
  method: 'GET',
  route: '/v1/organisations/:organisationReference',
  path: '/v1/organisations/5b0c7c1e-0d5c-4d7e-9a4f-2f1e8f3c2a10',
  status: 404,
  durationMs: 3.25,
  correlationId: 'c-1',
  tokenId: 7,
  plan: 'starter',
};

describe('requestLineOf', () => {
  it('puts method, path, status, duration and correlation id in one line', () => {
    expect(requestLineOf(requestRecord)).toBe(
      'GET /v1/organisations/5b0c7c1e-0d5c-4d7e-9a4f-2f1e8f3c2a10 404 3.25 ms c-1',
    );
    expect(requestLineOf({ ...requestRecord, msg: 'request failed', status: 500 })).toBe(
      'GET /v1/organisations/5b0c7c1e-0d5c-4d7e-9a4f-2f1e8f3c2a10 500 3.25 ms c-1',
    );
  });

  it('leaves every other record to the pretty printer', () => {
    expect(requestLineOf({ ...requestRecord, msg: 'unexpected GraphQL error' })).toBeUndefined();
    expect(requestLineOf({ msg: 'request' })).toBeUndefined();
  });
});

let previous: Logger | undefined;
afterEach(() => {
  if (previous) useLogger(previous);
  previous = undefined;
});

/** A logger as development gets it (pretty), writing into an array. */
function capturePretty(): string[] {
  const written: string[] = [];
  previous = useLogger(
    createLogger({
      level: 'info',
      pretty: true,
      destination: { write: (text: string) => written.push(text) },
    }),
  );
  return written;
}

describe('the development log', () => {
  it('writes one line per request, with its time and level, and nothing of the token', async () => {
    const written = capturePretty();
    const app = new Hono<AppEnv>();
    app.use('*', async (c, next) => {
      c.set('correlationId', 'corr-42');
      await next();
    });
    app.use('*', observeRequests());
    app.get('/v1/things/:id', (c) => c.json({ ok: true }));
    await app.request('/v1/things/9?limit=1', { headers: { Authorization: 'Bearer orgr_secret' } });

    expect(written).toHaveLength(1);
    expect(written[0]).toMatch(
      /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: GET \/v1\/things\/9 200 \d+(\.\d+)? ms corr-42\n$/,
    );
    expect(written[0]).not.toContain('orgr_secret');
  });

  it('keeps every other record whole: its message and its fields', () => {
    const written: string[] = [];
    const pretty = createLogger({
      level: 'info',
      pretty: true,
      destination: { write: (t: string) => written.push(t) },
    });
    pretty.warn({ correlationId: 'corr-7', path: ['organisations', 0] }, 'unexpected GraphQL error');
    const text = written.join('');
    expect(text).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] WARN: unexpected GraphQL error\n/);
    expect(text).toContain('correlationId: "corr-7"');
    expect(text.split('\n').length).toBeGreaterThan(2);
  });

  it('stays one JSON object per line without pretty, as in production', () => {
    const written: string[] = [];
    const json = createLogger({
      level: 'info',
      destination: { write: (text: string) => written.push(text) },
    });
    json.info({ ...requestRecord, level: undefined, time: undefined, msg: undefined }, 'request');
    expect(written).toHaveLength(1);
    expect(JSON.parse(written[0]!)).toMatchObject({
      msg: 'request',
      method: 'GET',
      route: requestRecord.route,
      path: requestRecord.path,
      status: 404,
      durationMs: 3.25,
      correlationId: 'c-1',
      service: 'orgraph',
    });
  });
});
