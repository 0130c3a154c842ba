import { GraphQLError } from 'graphql';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { DomainError, type DomainErrorCode } from '../../src/domain/errors.ts';
import { maskError } from '../../src/graphql/yoga.ts';
import type { AppEnv } from '../../src/http/app-env.ts';
import { type ErrorCode, errorRules, RequestError, type RequestErrorCode } from '../../src/http/errors.ts';
import { refuseAsGraphql } from '../../src/http/limits/graphql-refusals.ts';
import { handleError } from '../../src/rest/errors.ts';

const domainCodes: DomainErrorCode[] = [
  'NOT_FOUND',
  'INVALID_PARAMETER',
  'INVALID_CHIPS',
  'FORBIDDEN',
  'UNAVAILABLE',
];

function errorOf(code: ErrorCode, message: string): Error {
  return (domainCodes as string[]).includes(code)
    ? new DomainError(code as DomainErrorCode, message)
    : new RequestError(code as RequestErrorCode, message);
}

/** The same thrown error through REST's handler, the graph's HTTP refusal and Yoga's masking. */
function appThrowing(error: Error) {
  const app = new Hono<AppEnv>();
  app.use('*', async (c, next) => {
    c.set('correlationId', 'error-table');
    await next();
  });
  app.get('/rest', () => {
    throw error;
  });
  app.get('/graphql', (c) => refuseAsGraphql(c, error));
  app.onError(handleError);
  return app;
}

describe('one error table for both transports', () => {
  const codes = (Object.keys(errorRules) as ErrorCode[]).filter((code) => code !== 'INTERNAL_SERVER_ERROR');

  it.each(codes)('%s gets the same status, headers and message over REST and GraphQL', async (code) => {
    const rule = errorRules[code];
    const thrown = `a ${code.toLowerCase()} case`;
    const told = rule.message ?? thrown;
    const app = appThrowing(errorOf(code, thrown));

    const rest = await app.request('/rest');
    const restBody = await rest.json();
    expect(rest.status).toBe(rule.status);
    expect(restBody).toEqual({
      status: { code: rule.status, messages: [told] },
      success: null,
      meta: null,
      correlation_id: 'error-table',
    });

    const graph = await app.request('/graphql');
    expect(graph.status).toBe(rule.status);
    expect(await graph.json()).toEqual({ errors: [{ message: told, extensions: { code } }] });

    for (const [name, value] of Object.entries(rule.headers ?? {})) {
      expect(rest.headers.get(name)).toBe(value);
      expect(graph.headers.get(name)).toBe(value);
    }

    const masked = maskError(
      new GraphQLError(thrown, { originalError: errorOf(code, thrown) }),
      'Unexpected error.',
    );
    expect(masked.message).toBe(told);
    expect(masked.extensions.code).toBe(code);
  });

  it('states the 401 and 503 headers once, in the table', () => {
    expect(errorRules.UNAUTHENTICATED.headers).toEqual({ 'WWW-Authenticate': 'Bearer realm="orgraph"' });
    expect(errorRules.UNAVAILABLE.headers).toEqual({ 'Retry-After': '5' });
  });

  it('tells an unreachable database in the table words on both transports', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const app = appThrowing(refused);
    const rest = await app.request('/rest');
    expect(rest.status).toBe(503);
    expect((await rest.json()).status.messages).toEqual([errorRules.UNAVAILABLE.message]);
    const graph = await app.request('/graphql');
    expect(graph.status).toBe(503);
    expect((await graph.json()).errors[0]).toEqual({
      message: errorRules.UNAVAILABLE.message,
      extensions: { code: 'UNAVAILABLE' },
    });
    const masked = maskError(new GraphQLError('x', { originalError: refused }), 'Unexpected error.');
    expect(masked.message).toBe(errorRules.UNAVAILABLE.message);
  });

  it('masks anything unexpected on both transports', async () => {
    const rest = await appThrowing(new TypeError('secret detail')).request('/rest');
    expect(rest.status).toBe(500);
    expect((await rest.json()).status.messages).toEqual([errorRules.INTERNAL_SERVER_ERROR.message]);
    const masked = maskError(
      new GraphQLError('secret detail', { originalError: new TypeError('secret detail') }),
      'Unexpected error.',
    );
    expect(masked.message).toBe('Unexpected error.');
    expect(masked.extensions.code).toBe('INTERNAL_SERVER_ERROR');
  });
});
