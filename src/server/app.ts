import { sql } from 'drizzle-orm';
import { Hono } from 'hono';
import { every } from 'hono/combine';
import { isMigrated } from '../db/migrate.ts';
import { createGraphqlServer } from '../graphql/yoga.ts';
import type { AppEnv } from '../http/app-env.ts';
import { authenticate, identifyCaller } from '../http/authenticate.ts';
import { correlationIdOf } from '../http/correlation-id.ts';
import { crossOrigin } from '../http/cross-origin.ts';
import { answerForCode } from '../http/errors.ts';
import { countCostOf } from '../http/limits/count-price.ts';
import { limitRequests } from '../http/limits/limit-requests.ts';
import { createQuotas } from '../http/limits/quotas.ts';
import { metricsHandler } from '../http/observability/metrics.ts';
import { observeRequests } from '../http/observability/request-log.ts';
import { graphqlPath, openApiPath } from '../http/paths.ts';
import { createPersistedQueryStore } from '../http/persisted-queries.ts';
import type { AppServices } from '../http/services.ts';
import { registerReconcileRoutes } from '../reconcile/router.ts';
import { errorResponse, handleError } from '../rest/errors.ts';
import { refuseUnsupportedMethods } from '../rest/operation-guard.ts';
import { createRestRouter, pathsOf } from '../rest/router.ts';
import { cachedGraphiqlPage, registerDocsPage } from './docs-page.ts';
import { graphEndpoint } from './graph-endpoint.ts';
import { registerHomePage } from './home-page.ts';

/** Composes the service: health probes, the REST `/v1` router and the graph, over one set of services. */
export function createApp(services: AppServices): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const rest = createRestRouter();
  services.quotas ??= createQuotas(services.config);
  services.persistedQueries ??= createPersistedQueryStore(services.config);
  const yoga = createGraphqlServer(services.quotas, services.persistedQueries, {
    countCost: countCostOf(services.config.countTimeoutMs),
  });
  const identify = identifyCaller(services, services.quotas);
  const requireToken = every(authenticate(identify), limitRequests(services.quotas));
  const allowOrigins = crossOrigin(services.config.corsOrigins);
  // First: a graph request runs through its own guards alone, none of the middleware below (graph-endpoint.ts).
  app.on(
    ['GET', 'POST'],
    graphqlPath,
    graphEndpoint(services, services.quotas, yoga, { identify, allowOrigins }),
  );

  app.use('*', async (c, next) => {
    const correlationId = correlationIdOf(c.req.header('X-Correlation-ID'));
    c.set('correlationId', correlationId);
    c.header('X-Correlation-ID', correlationId);
    await next();
    // A response a handler made itself does not carry the header set before it. Set on the response's own
    // headers: `c.header` on a finished response rebuilds it around a streamed body.
    if (!c.res.headers.has('X-Correlation-ID')) c.res.headers.set('X-Correlation-ID', correlationId);
  });
  app.use('*', observeRequests());

  app.get('/healthz', (c) => c.json({ status: 'alive' }));
  app.get('/readyz', async (c) => {
    const ready = services.readiness.accepting && (await databaseReady(services));
    if (!ready) return c.json({ status: 'unavailable' }, 503);
    // The replica's state is reported, never a reason for 503: while it is down or behind, the primary serves.
    const replica = services.reads;
    if (!replica) return c.json({ status: 'ready' }, 200);
    const degraded = replica.state !== 'serving';
    return c.json(
      {
        status: degraded ? 'degraded' : 'ready',
        readReplica: {
          database: replica.replica,
          state: replica.state,
          readsFrom: degraded ? 'primary' : 'replica',
        },
      },
      200,
    );
  });
  app.get('/metrics', metricsHandler(services.config.metricsToken));
  registerHomePage(app);
  registerDocsPage(app);

  if (allowOrigins) {
    app.use('/v1/*', allowOrigins);
    app.use(graphqlPath, allowOrigins);
  }
  app.use('/v1/*', refuseUnsupportedMethods(pathsOf(rest)));
  app.use('/v1/*', async (c, next) => (c.req.path === openApiPath ? next() : requireToken(c, next)));
  app.route('/', rest);
  registerReconcileRoutes(app, services, services.quotas, identify);

  const graphiqlPage = cachedGraphiqlPage(() =>
    yoga.fetch(new Request(`http://orgraph.local${graphqlPath}`, { headers: { Accept: 'text/html' } }), {}),
  );
  // The schema is public: GraphiQL's Docs and code generators read it without a token (docs/graphql.md).
  app.get(graphqlPath, graphiqlPage);

  app.notFound((c) =>
    errorResponse(c, answerForCode('NOT_FOUND'), [`No endpoint at ${c.req.method} ${c.req.path}.`]),
  );
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
