import {
  type DocumentNode,
  type GraphQLSchema,
  getOperationAST,
  getVariableValues,
  type OperationDefinitionNode,
} from 'graphql';

/** A document's operations by name (null: the only one), found once per parsed document (Yoga caches documents). */
const operationsByDocument = new WeakMap<DocumentNode, Map<string | null, OperationDefinitionNode | null>>();

/** The operation `operationName` picks in `document` (the only one when not named), or undefined. */
export function operationOf(
  document: DocumentNode,
  operationName?: string | null,
): OperationDefinitionNode | undefined {
  let operations = operationsByDocument.get(document);
  if (!operations) {
    operations = new Map();
    operationsByDocument.set(document, operations);
  }
  const name = operationName ?? null;
  let operation = operations.get(name);
  if (operation === undefined) {
    operation = getOperationAST(document, name) ?? null;
    // A client choosing names cannot grow the map past the document's own operations and the misses kept below.
    if (operation || operations.size < 8) operations.set(name, operation);
  }
  return operation ?? undefined;
}

export interface ExecutionInput {
  schema: GraphQLSchema;
  document: DocumentNode;
  operationName?: string | null;
  variableValues?: unknown;
}

export type CoercedVariables = ReturnType<typeof getVariableValues>;

/** One execution's variables, coerced once: the request error codes check them and the cost reads them. */
const coercedByExecution = new WeakMap<ExecutionInput, CoercedVariables | null>();

/**
 * The operation's variable values coerced to their types, or their errors; null when there is no such operation.
 * Cached per execution (Envelop hands every plugin's `onExecute` the same arguments).
 */
export function variablesOf(args: ExecutionInput): CoercedVariables | null {
  const known = coercedByExecution.get(args);
  if (known !== undefined) return known;
  const operation = operationOf(args.document, args.operationName);
  const coerced = operation
    ? getVariableValues(
        args.schema,
        operation.variableDefinitions ?? [],
        (args.variableValues ?? {}) as Record<string, unknown>,
      )
    : null;
  coercedByExecution.set(args, coerced);
  return coerced;
}
