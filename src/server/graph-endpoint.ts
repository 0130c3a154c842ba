import type { HttpBindings } from '@hono/node-server';
import type { Context, MiddlewareHandler } from 'hono';
import { bearerToken } from '../auth/tokens.ts';
import { schema } from '../graphql/schema.ts';
import { schemaFetchAnswer } from '../graphql/schema-fetch.ts';
import type { createGraphqlServer } from '../graphql/yoga.ts';
import type { AppEnv } from '../http/app-env.ts';
import type { IdentifyCaller } from '../http/authenticate.ts';
import { correlationIdOf } from '../http/correlation-id.ts';
import { requireJsonPost } from '../http/cross-origin.ts';
import { refuseAsGraphql } from '../http/limits/graphql-refusals.ts';
import { declaredBodyFits, graphqlBodyLimitBytes, limitBodySize } from '../http/limits/limit-body-size.ts';
import { chargeRequest } from '../http/limits/limit-requests.ts';
import type { Quotas } from '../http/limits/quotas.ts';
import { metrics } from '../http/observability/metrics.ts';
import { finishRequest } from '../http/observability/request-log.ts';
import { graphqlPath } from '../http/paths.ts';
import type { AppServices } from '../http/services.ts';

/**
 * The graph's POST and GET as one handler instead of the app's middleware chain: correlation id, request metric and
 * log, JSON-only POST, the schema fetch without a token, the token, the request budget and the body bound, in the
 * order and with the answers the chain gave, then Yoga. A brief read pays a share of its CPU for each middleware's
 * promise and context round trip; the graph is most of the traffic (bench/NOTES.md 75). Registered before the app's
 * own middleware, so a graph request runs through nothing else; the GraphiQL page goes on to the general chain.
 */
export function graphEndpoint(
  services: AppServices,
  quotas: Quotas,
  yoga: ReturnType<typeof createGraphqlServer>,
  guards: { identify: IdentifyCaller; allowOrigins: MiddlewareHandler<AppEnv> | undefined },
): MiddlewareHandler<AppEnv> {
  const { identify, allowOrigins } = guards;
  const schemaFetch = schemaFetchAnswer(schema, services.config.trustProxy);
  const countedBody = limitBodySize(graphqlBodyLimitBytes);

  const answer = async (c: Context<AppEnv>): Promise<Response> => {
    let headers: [string, string][] = [];
    let response: Response;
    try {
      requireJsonPost(c);
      const early = await schemaFetch(c);
      if (early) return early;
      c.set('ctx', await identify(c, bearerToken(c.req.header('Authorization'))));
      headers = await chargeRequest(c, quotas);
      const node = nodeOf(c);
      if (declaredBodyFits(c, graphqlBodyLimitBytes)) {
        // Over a socket, Yoga reads the Node request itself: a lighter request than Hono's web one (NOTES 77).
        response = node
          ? await yoga.handleNodeRequestAndResponse(node.incoming, node.outgoing, c.var.ctx)
          : await yoga.fetch(c.req.raw, c.var.ctx);
      } else {
        await countedBody(c, async () => {
          c.res = await yoga.fetch(c.req.raw, c.var.ctx);
        });
        response = c.res;
      }
    } catch (error) {
      // A refusal after the charge reports the budget too, as does the app's error answer (both built from `c`).
      for (const [name, value] of headers) c.header(name, value);
      return refuseAsGraphql(c, error);
    }
    // Set on Yoga's response's own headers: `c.header` now would rebuild it around a streamed body.
    for (const [name, value] of headers) response.headers.set(name, value);
    return response;
  };

  return async (c, next) => {
    const wantsPage = c.req.method === 'GET' && (c.req.header('Accept') ?? '').includes('text/html');
    if (wantsPage) return next();
    const started = performance.now();
    metrics.httpInFlight.inc();
    const correlationId = correlationIdOf(c.req.header('X-Correlation-ID'));
    c.set('correlationId', correlationId);
    let status = 500;
    try {
      let response: Response;
      if (allowOrigins && c.req.header('Origin')) {
        await allowOrigins(c, async () => {
          c.res = await answer(c);
        });
        response = c.res;
      } else {
        response = await answer(c);
      }
      response.headers.set('X-Correlation-ID', correlationId);
      status = response.status;
      return response;
    } catch (error) {
      // On to the app's error handler (a masked 500), which answers with the headers set on `c`.
      c.header('X-Correlation-ID', correlationId);
      throw error;
    } finally {
      // A client that left before its answer is not a failure of the server's.
      if (nodeOf(c)?.outgoing.destroyed) status = clientClosedRequest;
      metrics.httpInFlight.dec();
      finishRequest({
        method: c.req.method,
        route: graphqlPath,
        path: c.req.path,
        status,
        started,
        correlationId,
        viewer: c.get('ctx')?.viewer,
      });
    }
  };
}

/** The status logged for a request whose client closed the connection before its answer (nginx's). */
const clientClosedRequest = 499;

/** The Node request and response under `c`, when it came over a socket (not from an in-process `app.fetch`). */
function nodeOf(c: Context<AppEnv>): HttpBindings | undefined {
  const env = c.env as Partial<HttpBindings> | undefined;
  return env?.incoming && env.outgoing ? (env as HttpBindings) : undefined;
}
