import type { IncomingMessage } from 'node:http';
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { AppEnv } from '../app-env.ts';
import { RequestError } from '../errors.ts';

/** Largest GraphQL request body; the token limit bounds the query itself, this bounds the variables too. */
export const graphqlBodyLimitBytes = 100 * 1024;

/** The Node request behind a Hono request, when it came through the Node server (not `app.request`). */
function incomingOf(env: unknown): IncomingMessage | undefined {
  return (env as { incoming?: IncomingMessage } | undefined)?.incoming;
}

/**
 * 413 when the request body is larger than `maxBytes`, before anything parses it. A body with a Content-Length
 * is judged by the header alone (see {@link declaredBodyFits}); a streamed body (no length) is counted as it
 * arrives.
 */
export function limitBodySize(maxBytes: number): MiddlewareHandler<AppEnv> {
  const counted = bodyLimit({ maxSize: maxBytes, onError: () => tooLarge(maxBytes) });
  return async (c, next) => {
    if (!declaredBodyFits(c, maxBytes)) return counted(c, next);
    await next();
  };
}

/**
 * True when the body's Content-Length is at most `maxBytes` (Node's parser reads exactly that many bytes, and not
 * touching the body keeps the Node server's fast path that hands it over without building a web Request around
 * it: bench/NOTES.md 22); 413 when it is larger; false when the body is streamed and must be counted.
 */
export function declaredBodyFits(c: Context<AppEnv>, maxBytes: number): boolean {
  const headers = incomingOf(c.env)?.headers;
  const declared = headers?.['content-length'];
  if (declared === undefined || headers?.['transfer-encoding'] !== undefined) return false;
  if (Number(declared) > maxBytes) tooLarge(maxBytes);
  return true;
}

function tooLarge(maxBytes: number): never {
  throw new RequestError(
    'PAYLOAD_TOO_LARGE',
    `The request body is larger than the ${maxBytes / 1024} KiB this endpoint accepts.`,
  );
}
