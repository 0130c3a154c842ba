import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { Hono } from 'hono';
import { isMigrated } from '../db/migrate.ts';
import { createGraphqlServer, graphqlPath } from '../graphql/yoga.ts';
import { errorResponse, handleError } from '../rest/errors.ts';
import { createRestRouter, openApiPath } from '../rest/router.ts';
import type { AppEnv } from './app-env.ts';
import { authenticate } from './authenticate.ts';
import type { AppServices } from './services.ts';

const saneCorrelationId = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

/** Composes the service: health probes, the REST `/v1` router and the graph, over one set of services. */
export function createApp(services: AppServices): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const rest = createRestRouter();
  const yoga = createGraphqlServer();
  const requireToken = authenticate(services);

  app.use('*', async (c, next) => {
    const offered = c.req.header('X-Correlation-ID');
    const correlationId = offered && saneCorrelationId.test(offered) ? offered : randomUUID();
    c.set('correlationId', correlationId);
    c.header('X-Correlation-ID', correlationId);
    await next();
  });

  app.get('/healthz', (c) => c.json({ status: 'alive' }));
  app.get('/readyz', async (c) => {
    const ready = services.readiness.accepting && (await databaseReady(services));
    return c.json({ status: ready ? 'ready' : 'unavailable' }, ready ? 200 : 503);
  });

  app.use('/v1/*', async (c, next) => (c.req.path === openApiPath ? next() : requireToken(c, next)));
  app.route('/', rest);

  app.on(['GET', 'POST'], graphqlPath, async (c, next) => {
    const wantsPage = c.req.method === 'GET' && (c.req.header('Accept') ?? '').includes('text/html');
    if (wantsPage) return yoga.fetch(c.req.raw, {});
    return requireToken(c, next);
  });
  app.on(['GET', 'POST'], graphqlPath, (c) => yoga.fetch(c.req.raw, c.var.ctx));

  app.notFound((c) => errorResponse(c, 404, [`No endpoint at ${c.req.method} ${c.req.path}.`]));
  app.onError(handleError);
  return app;
}

async function databaseReady(services: AppServices): Promise<boolean> {
  try {
    await services.db.execute(sql`select 1`);
    return await isMigrated(services.handle);
  } catch {
    return false;
  }
}
