import type { Context, MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import type { Viewer } from '../../auth/tokens.ts';
import type { AppEnv } from '../app-env.ts';
import { logger } from './logger.ts';
import { metrics, recordRequest } from './metrics.ts';
import { redactPath } from './redact-path.ts';

/** The label of requests no route answers, so that probing random paths cannot grow the metric series. */
export const unmatchedRoute = '(unmatched)';

/** Asked every few seconds by orchestrators and scrapers: logged at debug when they succeed, counted as any other. */
const quietRoutes = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * The route pattern that answers the request (`/v1/organisations/:organisationReference`), never the raw path: the
 * pattern keeps the number of series bounded and groups requests that differ only by reference. It is the last
 * matched route registered for a method, not a catch-all middleware, so a request refused by the authentication
 * middleware still counts under the route it asked for.
 */
export function routeOf(c: Context): string {
  const routes = matchedRoutes(c);
  for (let index = routes.length - 1; index >= 0; index -= 1) {
    const route = routes[index];
    if (route && route.method !== 'ALL') return route.path;
  }
  return unmatchedRoute;
}

/**
 * One log line and one metric sample per request: method, route pattern, status, duration and correlation id.
 * Headers are never logged, and a token in the path is redacted; the caller is named by its token's id.
 */
export function observeRequests(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    metrics.httpInFlight.inc();
    try {
      await next();
    } finally {
      metrics.httpInFlight.dec();
      finishRequest({
        method: c.req.method,
        route: routeOf(c),
        path: c.req.path,
        status: c.res.status,
        started,
        correlationId: c.get('correlationId'),
        viewer: c.get('ctx')?.viewer,
      });
    }
  };
}

/** What the metric and the log line of one answered request are made of. */
export interface AnsweredRequest {
  method: string;
  /** The matched route pattern (see {@link routeOf}). */
  route: string;
  path: string;
  status: number;
  /** `performance.now()` when the request arrived. */
  started: number;
  correlationId: string | undefined;
  viewer: Viewer | null | undefined;
}

/** Records an answered request: its metric sample, and its log line when the level is on. */
export function finishRequest(request: AnsweredRequest): void {
  const { method, route, status, viewer } = request;
  const seconds = (performance.now() - request.started) / 1000;
  recordRequest(method, route, status, seconds);
  const level = status >= 500 ? 'warn' : quietRoutes.has(route) ? 'debug' : 'info';
  // Production runs at warn: a line nobody writes is not built.
  if (!logger().isLevelEnabled(level)) return;
  const line = {
    method,
    route,
    path: redactPath(request.path),
    status,
    durationMs: Math.round(seconds * 100_000) / 100,
    correlationId: request.correlationId,
    ...(viewer ? { tokenId: viewer.tokenId, plan: viewer.plan.name } : {}),
  };
  logger()[level](line, status >= 500 ? 'request failed' : 'request');
}
