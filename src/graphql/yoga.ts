import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import { GraphQLError } from 'graphql';
import { createYoga } from 'graphql-yoga';
import { DomainError, isDatabaseUnavailable } from '../domain/errors.ts';
import type { RequestContext } from '../server/context.ts';
import { schema } from './schema.ts';

export const graphqlPath = '/graphql';

const exampleQuery = `# One query pulls an organisation, its people, their history and the articles about them.
query OrganisationPeopleArticles {
  organisations(first: 3) {
    edges {
      node {
        name
        status
      }
    }
  }
}
`;

/** Expected errors keep their code; anything else is masked. */
function maskError(error: unknown, message: string): GraphQLError {
  const original = error instanceof GraphQLError ? (error.originalError ?? error) : error;
  if (original instanceof GraphQLError && original.extensions?.code) return original;
  if (original instanceof DomainError) {
    return new GraphQLError(original.message, { extensions: { code: original.code } });
  }
  if (isDatabaseUnavailable(original)) {
    return new GraphQLError('The database is unavailable right now; try again shortly.', {
      extensions: { code: 'UNAVAILABLE' },
    });
  }
  if (error instanceof GraphQLError && !error.originalError) return error;
  console.error('unexpected GraphQL error', original);
  return new GraphQLError(message, { extensions: { code: 'INTERNAL_SERVER_ERROR' } });
}

export function createGraphqlServer() {
  return createYoga<RequestContext>({
    schema,
    graphqlEndpoint: graphqlPath,
    landingPage: false,
    maskedErrors: { maskError },
    renderGraphiQL,
    graphiql: {
      title: 'orgraph GraphiQL',
      defaultQuery: exampleQuery,
      headers: JSON.stringify({ Authorization: 'Bearer <your orgr_ token>' }, null, 2),
      shouldPersistHeaders: true,
    },
  });
}
