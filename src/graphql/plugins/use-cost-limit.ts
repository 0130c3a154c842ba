import type { Plugin } from '@envelop/core';
import {
  type DocumentNode,
  type ExecutionResult,
  type FragmentDefinitionNode,
  GraphQLError,
  Kind,
} from 'graphql';
import type { RequestContext } from '../../http/context.ts';
import type { QuotaState, Quotas } from '../../http/limits/quotas.ts';
import { costVariablesOf, measureOperationCost, queryLimitError } from './operation-cost.ts';
import { operationOf, variablesOf } from './operation-facts.ts';

/** What `extensions.cost` reports on every executed (or refused) operation. */
export interface CostReport {
  /** The operation's cost, computed before execution. */
  requested: number;
  /** Points left in the current window, after this operation. */
  remaining: number;
  /** Points per window of the caller's plan. */
  limit: number;
  /** Seconds until the window ends and `remaining` is back to `limit`. */
  resetSeconds: number;
}

function reportOf(requested: number, state: QuotaState): CostReport {
  return { requested, remaining: state.remaining, limit: state.limit, resetSeconds: state.resetSeconds };
}

function withCost<Result extends ExecutionResult>(result: Result, cost: CostReport): Result {
  return { ...result, extensions: { ...result.extensions, cost } };
}

type ExecuteArgs = Parameters<NonNullable<Plugin<RequestContext>['onExecute']>>[0]['args'];

/**
 * Prices per parsed document (Yoga hands the same one for the same query text), keyed by operation and the values
 * of the variables a price depends on ({@link costVariablesOf}): a query asked again for another record costs what
 * it cost before.
 */
const prices = new WeakMap<DocumentNode, { variables: string[]; byKey: Map<string, number> }>();
const maxPricesPerDocument = 100;

/**
 * The operation's cost, or undefined when there is nothing to price (no such operation, or variables that fail
 * the execution before any resolver runs). Throws the GraphQLError of an operation that cannot be priced.
 */
function priceOperation(args: ExecuteArgs, countCost: number): number | undefined {
  const operation = operationOf(args.document, args.operationName);
  if (!operation) return undefined;
  const variables = variablesOf(args);
  if (!variables || variables.errors) return undefined;
  let known = prices.get(args.document);
  if (!known) {
    known = { variables: costVariablesOf(args.document), byKey: new Map() };
    prices.set(args.document, known);
  }
  const coerced = variables.coerced;
  const key = JSON.stringify([
    args.operationName ?? null,
    countCost,
    known.variables.map((name) => coerced[name] ?? null),
  ]);
  const cached = known.byKey.get(key);
  if (cached !== undefined) return cached;

  const fragments: Record<string, FragmentDefinitionNode> = {};
  for (const definition of args.document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments[definition.name.value] = definition;
  }
  const price = measureOperationCost({
    schema: args.schema,
    operation,
    fragments,
    variables: variables.coerced,
    countCost,
  });
  if (known.byKey.size >= maxPricesPerDocument) known.byKey.delete(known.byKey.keys().next().value!);
  known.byKey.set(key, price);
  return price;
}

/**
 * Prices each operation before it executes (see `measureOperationCost`), refuses it above the plan's
 * `graphqlCost.maxPerQuery` or beyond the points left in the window (429), and charges it to the token.
 * Refusals happen before any resolver runs, so a refused operation sends no SQL.
 */
export function useCostLimit(quotas: Quotas, options: { countCost?: number } = {}): Plugin<RequestContext> {
  const countCost = options.countCost ?? 1;
  return {
    async onExecute({ args, setResultAndStopExecution }) {
      const viewer = args.contextValue.viewer;
      if (!viewer) return;
      let requested: number | undefined;
      try {
        requested = priceOperation(args, countCost);
      } catch (error) {
        if (!(error instanceof GraphQLError)) throw error;
        setResultAndStopExecution({ errors: [error] });
        return;
      }
      if (requested === undefined) return;

      const { maxPerQuery } = viewer.plan.graphqlCost;
      if (requested > maxPerQuery) {
        const state = await quotas.peek('graphqlCost', viewer);
        const message =
          `This query costs ${requested} points, over the limit of ${maxPerQuery} per query of plan ${viewer.plan.name}; ` +
          'ask for fewer items (first/last) or fewer nested connections.';
        setResultAndStopExecution(
          withCost({ errors: [queryLimitError('cost', message)] }, reportOf(requested, state)),
        );
        return;
      }

      const state = await quotas.charge('graphqlCost', viewer, requested);
      const cost = reportOf(requested, state);
      if (!state.allowed) {
        const message =
          `This query costs ${requested} points and ${state.remaining} of the ${state.limit} points per ` +
          `${state.windowSeconds} s of plan ${viewer.plan.name} are left; retry in ${state.resetSeconds} s.`;
        // The RateLimit fields describe the request budget; the cost budget is reported in `extensions.cost`.
        const http = { status: 429, headers: { 'Retry-After': String(state.resetSeconds) } };
        setResultAndStopExecution(
          withCost(
            { errors: [new GraphQLError(message, { extensions: { code: 'RATE_LIMITED', http } })] },
            cost,
          ),
        );
        return;
      }
      return {
        onExecuteDone({ result, setResult }) {
          if (Symbol.asyncIterator in result) return;
          setResult(withCost(result, cost));
        },
      };
    },
  };
}
