import { type DocumentNode, getOperationAST } from 'graphql';
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

/** The series one operation of a document adds to; prom-client hashes the labels once, not per request. */
interface OperationSeries {
  duration: ReturnType<typeof metrics.graphqlDuration.labels>;
  ok: ReturnType<typeof metrics.graphqlOperations.labels>;
  error: ReturnType<typeof metrics.graphqlOperations.labels>;
}

/** Counts and times each executed GraphQL operation by its name and type (query, mutation). */
export function useOperationMetrics(): Plugin {
  const seen = new Set<string>();
  // Per parsed document (Yoga caches documents by text) and operation name; a label, once given, never changes.
  const seriesByDocument = new WeakMap<DocumentNode, Map<string | null, OperationSeries>>();
  const seriesOf = (document: DocumentNode, operationName: string | null): OperationSeries => {
    let byName = seriesByDocument.get(document);
    if (!byName) {
      byName = new Map();
      seriesByDocument.set(document, byName);
    }
    let series = byName.get(operationName);
    if (series) return series;
    const operation = getOperationAST(document, operationName);
    const operationLabelValue = operationLabel(operation?.name?.value, seen);
    const type = operation?.operation ?? 'unknown';
    series = {
      duration: metrics.graphqlDuration.labels({ operation: operationLabelValue, type }),
      ok: metrics.graphqlOperations.labels({ operation: operationLabelValue, type, outcome: 'ok' }),
      error: metrics.graphqlOperations.labels({ operation: operationLabelValue, type, outcome: 'error' }),
    };
    // Names a document does not hold all share its `unknown` series; a few are kept, the rest looked up again.
    if (operation || byName.size < 8) byName.set(operationName, series);
    return series;
  };
  return {
    onExecute({ args }) {
      const series = seriesOf(args.document, args.operationName ?? null);
      const stop = series.duration.startTimer();
      return {
        onExecuteDone({ result }) {
          stop();
          const failed = 'errors' in result && Array.isArray(result.errors) && result.errors.length > 0;
          (failed ? series.error : series.ok).inc();
        },
      };
    },
  };
}
