import type { Plugin } from '@envelop/core';
import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesRule } from '@escape.tech/graphql-armor-max-directives';
import { MaxTokensParserWLexer } from '@escape.tech/graphql-armor-max-tokens';
import type { GraphQLError, ValidationContext } from 'graphql';
import { queryLimitError } from './operation-cost.ts';

/** Shape limits on every document, checked while parsing and validating, so before anything executes. */
export const queryShapeLimits = {
  /** Nested selections; the deepest legitimate query (organisation → people → profile → articles → …) uses 9. */
  depth: 12,
  /** Aliased fields; aliases are how one request repeats an expensive field. */
  aliases: 30,
  /** Lexical tokens of the document (GraphiQL's introspection query has about 300). */
  tokens: 2_000,
  /** Directives (`@skip`, `@include`, …). */
  directives: 20,
} as const;

type ShapeLimit = keyof typeof queryShapeLimits;

/** GraphQL Armor reports "Syntax Error: …"; the message is kept, without that misleading prefix, and coded. */
function reportTo(limit: ShapeLimit) {
  return (context: ValidationContext | null, error: GraphQLError) => {
    context?.reportError(queryLimitError(limit, error.message.replace(/^Syntax Error: /, '')));
  };
}

const armour = { exposeLimits: true, propagateOnRejection: false } as const;

/** Depth, alias, directive and token limits (GraphQL Armor), refused with `extensions.code: QUERY_LIMIT_EXCEEDED`. */
export function useQueryLimits(): Plugin {
  const rules = [
    maxDepthRule({
      ...armour,
      n: queryShapeLimits.depth,
      ignoreIntrospection: true,
      onReject: [reportTo('depth')],
    }),
    maxAliasesRule({ ...armour, n: queryShapeLimits.aliases, onReject: [reportTo('aliases')] }),
    maxDirectivesRule({ ...armour, n: queryShapeLimits.directives, onReject: [reportTo('directives')] }),
  ];
  return {
    onParse({ setParseFn }) {
      setParseFn((source, options) => {
        const parser = new MaxTokensParserWLexer(source, {
          ...options,
          ...armour,
          n: queryShapeLimits.tokens,
          propagateOnRejection: true,
        });
        try {
          return parser.parseDocument();
        } catch (error) {
          if (parser.tokenCount <= queryShapeLimits.tokens) throw error;
          throw queryLimitError(
            'tokens',
            `Token limit of ${queryShapeLimits.tokens} exceeded; send a smaller document (variables do not count).`,
          );
        }
      });
    },
    onValidate({ addValidationRule }) {
      for (const rule of rules) addValidationRule(rule);
    },
  };
}
