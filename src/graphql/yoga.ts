import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import { GraphQLError } from 'graphql';
import { createYoga } from 'graphql-yoga';
import { DomainError, isDatabaseUnavailable } from '../domain/errors.ts';
import type { RequestContext } from '../server/context.ts';
import { graphiqlExampleQuery, graphiqlHeaders } from '../server/docs-page.ts';
import type { Quotas } from '../server/limits/quotas.ts';
import { useOperationMetrics } from '../server/observability/graphql-metrics.ts';
import { logger } from '../server/observability/logger.ts';
import { useCostLimit } from './plugins/use-cost-limit.ts';
import { useExplainedRefusals } from './plugins/use-explained-refusals.ts';
import { useQueryLimits } from './plugins/use-query-limits.ts';
import { schema } from './schema.ts';

export const graphqlPath = '/graphql';

/** Expected errors (the domain's, and GraphQL's own about the request) keep their message; the rest is masked. */
function maskError(error: unknown, message: string): GraphQLError {
  const original = error instanceof GraphQLError ? (error.originalError ?? error) : error;
  if (original instanceof DomainError) {
    const located = error instanceof GraphQLError ? { nodes: error.nodes, path: error.path } : {};
    return new GraphQLError(original.message, { ...located, extensions: { code: original.code } });
  }
  if (isDatabaseUnavailable(original)) {
    return new GraphQLError('The database is unavailable right now; try again shortly.', {
      extensions: { code: 'UNAVAILABLE' },
    });
  }
  // A GraphQLError all the way down is about the request (validation, variable coercion, a refused scope).
  // The located error carries the path and locations; returning it also tells Yoga not to log it.
  if (original instanceof GraphQLError) return error instanceof GraphQLError ? error : original;
  logger().error({ err: original }, 'unexpected GraphQL error');
  return new GraphQLError(message, { extensions: { code: 'INTERNAL_SERVER_ERROR' } });
}

/** The graph over HTTP; `quotas` prices and charges each operation against the caller's plan. */
export function createGraphqlServer(quotas: Quotas) {
  return createYoga<RequestContext>({
    schema,
    plugins: [useOperationMetrics(), useQueryLimits(), useCostLimit(quotas), useExplainedRefusals()],
    graphqlEndpoint: graphqlPath,
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
