import { GraphQLError, type ValidationRule } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { answerForCode } from '../../http/errors.ts';
import { operationOf, variablesOf } from './operation-facts.ts';
import { graphqlRequestError } from './request-errors.ts';

/**
 * A subscription needs a stream to answer on (Server-Sent Events); asked for a single answer, GraphQL itself would only
 * refuse one once it ran, with no code.
 */
/** The media types an operation can be answered in part by part. */
const streamMediaTypes = /text\/event-stream|multipart\/mixed/i;

const noSubscriptions: ValidationRule = (context) => ({
  OperationDefinition(node) {
    if (node.operation !== 'subscription') return;
    context.reportError(graphqlRequestError('OPERATION_NOT_SUPPORTED', undefined, [node]));
  },
});

/**
 * Codes the request errors GraphQL leaves without one: a subscription asked for over a single answer
 * (`OPERATION_NOT_SUPPORTED`, at validation)
 * and variables that are missing or do not fit their types (`BAD_USER_INPUT`, checked before anything executes,
 * with GraphQL's own messages). Parse and validation errors are coded by Yoga (`GRAPHQL_PARSE_FAILED`,
 * `GRAPHQL_VALIDATION_FAILED`). A request with no operation at all is not a GraphQL request: 400 under either
 * media type (Yoga answers it 200 to `application/json` clients).
 */
export function useRequestErrorCodes(): Plugin {
  return {
    onParams({ params }) {
      if (params.query != null || params.extensions?.persistedQuery != null) return;
      const { code, status, message } = answerForCode(
        'BAD_REQUEST',
        'Send the operation in `query`, or the hash of a persisted query in `extensions.persistedQuery`.',
      );
      throw new GraphQLError(message, { extensions: { code, http: { status } } });
    },
    onValidate({ addValidationRule, context }) {
      const accept = (context as { request?: Request }).request?.headers.get('accept') ?? '';
      if (!streamMediaTypes.test(accept)) addValidationRule(noSubscriptions);
    },
    onExecute({ args, setResultAndStopExecution }) {
      if (!operationOf(args.document, args.operationName)?.variableDefinitions?.length) return;
      const errors = variablesOf(args)?.errors;
      if (!errors) return;
      setResultAndStopExecution({
        errors: errors.map((error) => graphqlRequestError('BAD_USER_INPUT', error.message, error.nodes)),
      });
    },
  };
}
