import type { Context, MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import type { AppEnv } from './app-env.ts';
import { RequestError } from './errors.ts';

/** Request headers a page on an allowed origin may send (the preflight answers these). */
const allowedHeaders = ['Authorization', 'Content-Type', 'Accept', 'X-Correlation-ID', 'X-GraphQL-Yoga-CSRF'];
/** Response headers such a page may read. */
const exposedHeaders = [
  'X-Correlation-ID',
  'RateLimit',
  'RateLimit-Policy',
  'Retry-After',
  'WWW-Authenticate',
];

/**
 * Cross-origin access for the pages of the origins in `CORS_ORIGINS`, and for no other: their preflight
 * (OPTIONS) is answered 204 with the methods and headers they may use, their responses name that origin. Never
 * with credentials: the API authenticates with a bearer token a page sends itself, never with cookies.
 * Undefined when the list is empty: then no response carries CORS headers, and an OPTIONS is no route.
 */
export function crossOrigin(origins: readonly string[]): MiddlewareHandler<AppEnv> | undefined {
  if (origins.length === 0) return undefined;
  const allowed = new Set(origins);
  const allowOrigin = cors({
    origin: (origin) => (allowed.has(origin) ? origin : null),
    allowMethods: ['GET', 'POST'],
    allowHeaders: allowedHeaders,
    exposeHeaders: exposedHeaders,
    credentials: false,
    maxAge: 600,
  });
  return async (c, next) => {
    const origin = c.req.header('Origin');
    // Another origin gets nothing of CORS: no preflight answer, no header that names anybody.
    if (!origin || !allowed.has(origin)) {
      await next();
      return;
    }
    return allowOrigin(c, next);
  };
}

/**
 * The media types a GraphQL POST may carry: JSON (`application/graphql+json` is its older name in GraphQL over
 * HTTP). `application/graphql-response+json` is what a client accepts back, not a request body's type.
 */
const graphqlPostTypes = new Set(['application/json', 'application/graphql+json']);

/**
 * Refuses (415) every GraphQL POST whose body is not JSON, before anything reads it. A form or multipart POST is
 * what a browser sends to another site without asking first (no preflight), so executing one would let any page
 * run operations with the credentials its visitor's browser holds.
 */
export function requireJsonPost(c: Context<AppEnv>): void {
  if (c.req.method !== 'POST') return;
  const mediaType = (c.req.header('Content-Type') ?? '').split(';', 1)[0]!.trim().toLowerCase();
  if (!graphqlPostTypes.has(mediaType)) {
    throw new RequestError('UNSUPPORTED_MEDIA_TYPE', 'Send the operation as JSON.');
  }
}
