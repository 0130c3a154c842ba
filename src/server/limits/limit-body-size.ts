import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import type { AppEnv } from '../app-env.ts';

/** Largest GraphQL request body; the token limit bounds the query itself, this bounds the variables too. */
export const graphqlBodyLimitBytes = 100 * 1024;

/** 413 when the request body is larger than `maxBytes` (declared or streamed), before anything parses it. */
export function limitBodySize(maxBytes: number): MiddlewareHandler<AppEnv> {
  return bodyLimit({
    maxSize: maxBytes,
    onError: () => {
      throw new HTTPException(413, {
        message: `The request body is larger than the ${maxBytes / 1024} KiB this endpoint accepts.`,
      });
    },
  });
}
