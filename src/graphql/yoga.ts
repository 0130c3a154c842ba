import { useCSRFPrevention } from '@graphql-yoga/plugin-csrf-prevention';
import { useDeferStream } from '@graphql-yoga/plugin-defer-stream';
import { GraphQLError } from 'graphql';
import { createYoga, type GraphiQLOptions, type Plugin } from 'graphql-yoga';
import type { RequestContext } from '../http/context.ts';
import { answerFor, answerForCode } from '../http/errors.ts';
import type { Quotas } from '../http/limits/quotas.ts';
import { useOperationMetrics } from '../http/observability/graphql-metrics.ts';
import { logger } from '../http/observability/logger.ts';
import { graphqlPath } from '../http/paths.ts';
import { createPersistedQueryStore, type PersistedQueryStore } from '../http/persisted-queries.ts';
import { graphiqlExampleQuery, graphiqlHeaders } from './graphiql-example.ts';
import { useCompiledReads } from './plugins/use-compiled-reads.ts';
import { useCostLimit } from './plugins/use-cost-limit.ts';
import { useExecutionGate } from './plugins/use-execution-gate.ts';
import { useExplainedRefusals } from './plugins/use-explained-refusals.ts';
import { usePersistedQueries } from './plugins/use-persisted-queries.ts';
import { useQueryLimits } from './plugins/use-query-limits.ts';
import { useRequestErrorCodes } from './plugins/use-request-error-codes.ts';
import { schema, schemaWithoutPlanChecks } from './schema.ts';

/** GraphiQL's bundle is large once loaded (bench/NOTES.md 2, 60); only a browser opening the page needs it. */
async function renderGraphiQL(options: GraphiQLOptions): Promise<string> {
  return (await import('@graphql-yoga/render-graphiql')).renderGraphiQL(options);
}

/** The error a located GraphQL error wraps, or the error itself. */
function originalOf(error: unknown): unknown {
  return error instanceof GraphQLError ? (error.originalError ?? error) : error;
}

/** Anything the error table does not answer and that is not GraphQL's own error about the request. */
function isUnexpected(error: unknown): boolean {
  const original = originalOf(error);
  return !(original instanceof GraphQLError || answerFor(original));
}

/** Unexpected errors already logged with their request's correlation id (see useUnexpectedErrorLog). */
const loggedErrors = new WeakSet<object>();

/**
 * Logs each unexpected error of an execution with the request's correlation id, before Yoga masks it (masking
 * sees no request).
 */
export function useUnexpectedErrorLog(): Plugin<RequestContext> {
  return {
    onExecute({ args }) {
      return {
        onExecuteDone({ result }) {
          if (Symbol.asyncIterator in result) return;
          for (const error of result.errors ?? []) {
            const original = originalOf(error);
            if (!isUnexpected(error) || !(original instanceof Object)) continue;
            loggedErrors.add(original);
            logger().error(
              { err: original, correlationId: args.contextValue.correlationId, path: error.path },
              'unexpected GraphQL error',
            );
          }
        },
      };
    },
  };
}

/** Expected errors (the domain's, and GraphQL's own about the request) keep their message; the rest is masked. */
export function maskError(error: unknown, message: string): GraphQLError {
  const original = originalOf(error);
  const answer = original instanceof GraphQLError ? undefined : answerFor(original);
  if (answer) {
    // The located error, coded in place: it keeps its path and locations, and returning the error Yoga passed in
    // tells Yoga it is expected, so that a client's mistake is not logged as a server error with its stack.
    if (error instanceof GraphQLError && error.message === answer.message) {
      (error.extensions as Record<string, unknown>).code = answer.code;
      return error;
    }
    const located = error instanceof GraphQLError ? error : undefined;
    return new GraphQLError(answer.message, {
      nodes: located?.nodes,
      path: located?.path,
      extensions: { code: answer.code },
    });
  }
  // A GraphQLError all the way down is about the request (validation, variable coercion, a refused scope).
  // The located error carries the path and locations; returning it also tells Yoga not to log it.
  if (original instanceof GraphQLError) return error instanceof GraphQLError ? error : original;
  if (!(original instanceof Object) || !loggedErrors.has(original)) {
    logger().error({ err: original }, 'unexpected GraphQL error');
  }
  return new GraphQLError(message, { extensions: { code: answerForCode('INTERNAL_SERVER_ERROR').code } });
}

/**
 * Yoga's responses are built with the global Response of the moment. Under the Node server that is
 * @hono/node-server's light Response, which the server writes out from the string it holds; the Response of
 * Yoga's own fetch ponyfill would be read back chunk by chunk through a web stream.
 */
export const currentResponse = function Response(body?: BodyInit | null, init?: ResponseInit) {
  return new globalThis.Response(body, init);
} as unknown as typeof globalThis.Response;

/**
 * The graph over HTTP; `quotas` prices and charges each operation against the caller's plan, a `totalCount` at
 * `options.countCost` points (see `countCostOf`); `persistedQueries` holds the automatic persisted queries (an
 * instance-local store when not given).
 */
export function createGraphqlServer(
  quotas: Quotas,
  persistedQueries: PersistedQueryStore = createPersistedQueryStore({}),
  options: { countCost?: number } = {},
) {
  return createYoga<RequestContext>({
    schema,
    fetchAPI: { Response: currentResponse },
    // CORS is the app's (CORS_ORIGINS, off by default); Yoga's own would answer any origin, with credentials.
    cors: false,
    plugins: [
      // An operation runs only from a request a browser must have preflighted: a JSON body, or a GET carrying a
      // header no page can set cross-origin without asking (the bearer token, or Yoga's CSRF header).
      useCSRFPrevention({ requestHeaders: ['authorization', 'x-graphql-yoga-csrf'] }),
      usePersistedQueries(persistedQueries),
      useRequestErrorCodes(),
      // `@defer` and `@stream`, answered over multipart/mixed or text/event-stream. The limits below see the whole
      // document, deferred fragments included, and the deferred fields run through the same plan checks.
      useDeferStream(),
      useOperationMetrics(),
      useUnexpectedErrorLog(),
      useQueryLimits(),
      useCostLimit(quotas, options),
      useExplainedRefusals(),
      useCompiledReads(schemaWithoutPlanChecks),
      useExecutionGate(),
    ],
    graphqlEndpoint: graphqlPath,
    // The app bounds the body before Yoga sees it (limitBodySize); Yoga's own check would pipe every body
    // through one more stream.
    maxRequestBodySize: false,
    landingPage: false,
    maskedErrors: { maskError },
    renderGraphiQL,
    graphiql: {
      title: 'orgraph GraphiQL',
      defaultQuery: graphiqlExampleQuery,
      headers: graphiqlHeaders,
      shouldPersistHeaders: true,
    },
  });
}
