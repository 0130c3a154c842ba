import { type ASTNode, GraphQLError } from 'graphql';
import { answerForCode, type GraphqlRequestErrorCode } from '../../http/errors.ts';

/**
 * A refusal of the operation before it runs, coded from the error table. `http.spec` makes Yoga answer it 400 to
 * `application/graphql-response+json` clients and 200 to `application/json` ones, as the GraphQL-over-HTTP
 * specification asks of request errors.
 */
export function graphqlRequestError(
  code: GraphqlRequestErrorCode,
  message?: string,
  nodes?: readonly ASTNode[],
): GraphQLError {
  const answer = answerForCode(code, message);
  return new GraphQLError(answer.message, {
    nodes,
    extensions: { code, http: { status: answer.status, spec: true } },
  });
}
