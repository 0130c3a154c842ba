import type { Plugin } from '@envelop/core';
import { useGraphQlJit } from '@envelop/graphql-jit';
import {
  type ExecutionResult,
  GraphQLError,
  type GraphQLSchema,
  type Source,
  type SourceLocation,
} from 'graphql';
import type { RequestContext } from '../../http/context.ts';
import { logger } from '../../http/observability/logger.ts';
import { coversDocument, documentAreas } from '../plan-areas.ts';

/** Switched off by the tests that compare the compiled answers with the schema's own executor. */
export const compiledReads = { enabled: true };

/**
 * A query whose data areas the caller's plan covers whole runs compiled by graphql-jit on `unchecked`, the schema
 * without per-object plan checks: every one of them would pass (bench/NOTES.md 70). Any other operation (a
 * document touching an area the plan lacks, `@defer`/`@stream`, a mutation or subscription, several operations
 * in one document) keeps the schema's own executor and its checks, FORBIDDEN at the field's path.
 *
 * Register it before the plugins that wrap the executor (the execution gate): it replaces the executor, and the
 * limits and cost in `onExecute`, the error masking and the `onExecuteDone` hooks apply as before.
 */
export function useCompiledReads(unchecked: GraphQLSchema): Plugin<RequestContext> {
  // Compiled per parsed document (a WeakMap, so bounded by Yoga's parse cache), only ever on `unchecked`.
  const jit = useGraphQlJit(
    {},
    {
      onError: (result) =>
        logger().warn({ errors: result.errors }, 'graphql-jit could not compile a document'),
    },
  );
  return {
    onExecute(payload) {
      const { args } = payload;
      const covers = args.contextValue.viewer?.plan.covers;
      if (!compiledReads.enabled || !covers) return;
      const known = documentAreas(args.schema, args.document);
      if (!known.compilable || !coversDocument(covers, known)) return;
      jit.onExecute?.({
        ...payload,
        setExecuteFn: (compiled) =>
          payload.setExecuteFn(async (given) => {
            const result = (await compiled({ ...given, schema: unchecked })) as ExecutionResult;
            const source = given.document.loc?.source;
            if (!result.errors?.length || !source) return result;
            // Errors first, as graphql-js answers, so that both executors send the same bytes.
            const { errors, data, ...rest } = result;
            return { errors: errors.map((error) => asGraphqlError(error, source)), data, ...rest };
          }),
      });
    },
  };
}

/** The offset in `source` of a line and column (both from 1), as graphql-js counts lines. */
function positionOf(source: Source, location: SourceLocation): number {
  const lineBreak = /\r\n|[\n\r]/g;
  let start = 0;
  for (let line = 1; line < location.line; line += 1) {
    if (!lineBreak.exec(source.body)) break;
    start = lineBreak.lastIndex;
  }
  return start + location.column - 1;
}

/**
 * graphql-jit's errors have their locations but not the nodes or positions that Yoga and the masking read (and
 * `extensions` only when the thrown error had some): the same error as graphql-js builds, from the source.
 */
function asGraphqlError(error: GraphQLError, source: Source): GraphQLError {
  if (error.constructor === GraphQLError) return error;
  return new GraphQLError(error.message, {
    source,
    positions: error.locations?.map((location) => positionOf(source, location)),
    path: error.path,
    originalError: error.originalError,
    extensions: error.extensions,
  });
}
