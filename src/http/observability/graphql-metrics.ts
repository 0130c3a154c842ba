import { getOperationAST } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { metrics } from './metrics.ts';

/** Past this many distinct operation names, new names count as `(other)`: clients choose names, series are finite. */
const maxOperationNames = 200;
const maxNameLength = 64;

/** Names an operation for the metric labels, keeping the set of label values bounded. */
export function operationLabel(name: string | undefined, seen: Set<string>): string {
  if (!name) return '(anonymous)';
  const label = name.slice(0, maxNameLength);
  if (seen.has(label)) return label;
  if (seen.size >= maxOperationNames) return '(other)';
  seen.add(label);
  return label;
}

/** Counts and times each executed GraphQL operation by its name and type (query, mutation). */
export function useOperationMetrics(): Plugin {
  const seen = new Set<string>();
  return {
    onExecute({ args }) {
      const operation = getOperationAST(args.document, args.operationName ?? undefined);
      const labels = {
        operation: operationLabel(operation?.name?.value, seen),
        type: operation?.operation ?? 'unknown',
      };
      const stop = metrics.graphqlDuration.startTimer(labels);
      return {
        onExecuteDone({ result }) {
          stop();
          const failed = 'errors' in result && Array.isArray(result.errors) && result.errors.length > 0;
          metrics.graphqlOperations.inc({ ...labels, outcome: failed ? 'error' : 'ok' });
        },
      };
    },
  };
}
