import {
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  GraphQLError,
  type GraphQLField,
  GraphQLIncludeDirective,
  type GraphQLObjectType,
  type GraphQLSchema,
  GraphQLSkipDirective,
  getArgumentValues,
  getDirectiveValues,
  getNamedType,
  getNullableType,
  isAbstractType,
  isCompositeType,
  isListType,
  isObjectType,
  Kind,
  type OperationDefinitionNode,
  type SelectionNode,
  type SelectionSetNode,
  type ValueNode,
  visit,
} from 'graphql';

/** Items a connection or list of records is assumed to return when the query does not say (`first`/`last`). */
export const defaultPageSize = 20;
/** The most items one page of a connection may ask for; the resolvers enforce it too. */
export const maxPageSize = 100;

const sliceArguments: readonly string[] = ['first', 'last'];
/** Arguments that choose a page of a connection without changing what it counts. */
const pagingArguments: readonly string[] = ['first', 'last', 'after', 'before'];

/**
 * Field extension to declare how many items an unpaginated list of records holds at most, when it is known to be
 * small (e.g. `extensions: { listSize: 5 }`); without it such a list counts as {@link defaultPageSize} items.
 */
export interface CostFieldExtensions {
  listSize?: number;
  /** The name of a list argument whose length is the list's size (one answer per input, as in resolving). */
  listSizeOf?: string;
}

/**
 * A request refused before execution because it is over one of the graph's limits. Like a validation error, it
 * answers 400 to `application/graphql-response+json` clients and 200 to legacy `application/json` ones.
 */
export function queryLimitError(limit: string, message: string): GraphQLError {
  return new GraphQLError(message, {
    extensions: { code: 'QUERY_LIMIT_EXCEEDED', limit, http: { status: 400, spec: true } },
  });
}

/**
 * The cost of an operation, computed from the document alone before anything runs, as an upper bound of the
 * work it asks for:
 * - a scalar or enum field costs 0, and so do `__typename` and the edge wrapper of a connection;
 * - an object field costs 1 plus the cost of its selection;
 * - a connection costs `1 + n × (cost of one edge or node) + (cost of pageInfo, totalCount…)` where `n` is its
 *   `first` or `last`, or {@link defaultPageSize} when absent;
 * - a list of objects costs `1 + n × (1 + cost of the selection of one item)`, with `n` its `first`/`last`, the
 *   field's `listSize` extension, or else {@link defaultPageSize} when its items are or lead to records (types
 *   implementing `Node`, interfaces, unions, or objects with such a field, like a role linking to a profile),
 *   and 1 when they are plain values stored with their parent (aliases, tickers…): those cost one object each;
 * - on an interface or union, the most expensive of its possible types counts;
 * - introspection (`__schema`, `__type`) costs 1: it is answered from memory;
 * - a connection's `totalCount` costs `countCost`: a count can match every row its filter allows, for as long as
 *   its time limit lets it, however small the page. Counts of the same root connection with the same arguments
 *   (paging aside) are computed once per operation (they share one count), so they are priced once.
 * Throws a `QUERY_LIMIT_EXCEEDED` GraphQLError when a `first`/`last` exceeds {@link maxPageSize}.
 */
export function measureOperationCost(input: {
  schema: GraphQLSchema;
  operation: OperationDefinitionNode;
  fragments: Readonly<Record<string, FragmentDefinitionNode>>;
  /** Coerced variable values. */
  variables: Readonly<Record<string, unknown>>;
  /** The price of one `totalCount`; 1 (an object) when not given. */
  countCost?: number;
}): number {
  const { schema, fragments, variables } = input;
  const countCost = input.countCost ?? 1;
  /** Root counts already priced, by field and arguments without paging. */
  const pricedCounts = new Set<string>();
  const root =
    input.operation.operation === 'query'
      ? schema.getQueryType()
      : input.operation.operation === 'mutation'
        ? schema.getMutationType()
        : schema.getSubscriptionType();
  if (!root) return 0;

  // Fragments make a document a graph: remember each selection set's cost per parent type, so that a fragment
  // spread many times is measured once and the work stays linear in the size of the document.
  const memo = new WeakMap<SelectionSetNode, Map<string, number>>();

  const included = (node: SelectionNode): boolean => {
    if (getDirectiveValues(GraphQLSkipDirective, node, variables)?.if === true) return false;
    return getDirectiveValues(GraphQLIncludeDirective, node, variables)?.if !== false;
  };

  const appliesTo = (typeCondition: string | undefined, type: GraphQLObjectType): boolean => {
    if (!typeCondition || typeCondition === type.name) return true;
    const condition = schema.getType(typeCondition);
    return Boolean(condition && isAbstractType(condition) && schema.isSubType(condition, type));
  };

  const collectFields = (
    type: GraphQLObjectType,
    selectionSets: readonly SelectionSetNode[],
    fields = new Map<string, FieldNode[]>(),
    visited = new Set<string>(),
  ): Map<string, FieldNode[]> => {
    for (const selectionSet of selectionSets) {
      for (const selection of selectionSet.selections) {
        if (!included(selection)) continue;
        if (selection.kind === Kind.FIELD) {
          const key = selection.alias?.value ?? selection.name.value;
          fields.set(key, [...(fields.get(key) ?? []), selection]);
        } else if (selection.kind === Kind.INLINE_FRAGMENT) {
          if (appliesTo(selection.typeCondition?.name.value, type)) {
            collectFields(type, [selection.selectionSet], fields, visited);
          }
        } else {
          const name = selection.name.value;
          const fragment = fragments[name];
          if (visited.has(name) || !fragment) continue;
          visited.add(name);
          if (appliesTo(fragment.typeCondition.name.value, type)) {
            collectFields(type, [fragment.selectionSet], fields, visited);
          }
        }
      }
    }
    return fields;
  };

  const selectionCost = (type: GraphQLCompositeType, selectionSets: readonly SelectionSetNode[]): number => {
    const single = selectionSets.length === 1 ? selectionSets[0] : undefined;
    const known = single ? memo.get(single)?.get(type.name) : undefined;
    if (known !== undefined) return known;
    const cost = isAbstractType(type)
      ? Math.max(0, ...schema.getPossibleTypes(type).map((possible) => objectCost(possible, selectionSets)))
      : objectCost(type, selectionSets);
    if (single) {
      const byType = memo.get(single) ?? new Map<string, number>();
      byType.set(type.name, cost);
      memo.set(single, byType);
    }
    return cost;
  };

  const objectCost = (type: GraphQLObjectType, selectionSets: readonly SelectionSetNode[]): number => {
    let cost = 0;
    for (const nodes of collectFields(type, selectionSets).values()) cost += fieldCost(type, nodes);
    return cost;
  };

  const subSelections = (nodes: readonly FieldNode[]): SelectionSetNode[] =>
    nodes.flatMap((node) => (node.selectionSet ? [node.selectionSet] : []));

  const fieldCost = (parent: GraphQLObjectType, nodes: readonly FieldNode[]): number => {
    const node = nodes[0]!;
    const name = node.name.value;
    if (name === '__typename') return 0;
    if (name === '__schema' || name === '__type') return 1;
    const field = parent.getFields()[name];
    if (!field) return 0;
    const type = getNamedType(field.type);
    if (!isCompositeType(type)) return 0;
    const selections = subSelections(nodes);
    const requested = pageSizeOf(parent, field, node);

    if (isConnection(type)) {
      let perItem = 0;
      let overhead = 0;
      for (const connectionNodes of collectFields(type, selections).values()) {
        const connectionField = type.getFields()[connectionNodes[0]!.name.value];
        if (!connectionField) continue;
        const itemType = getNamedType(connectionField.type);
        if (connectionField.name === 'edges') {
          if (isObjectType(itemType)) perItem += objectCost(itemType, subSelections(connectionNodes));
        } else if (connectionField.name === 'nodes' && isCompositeType(itemType)) {
          perItem += 1 + selectionCost(itemType, subSelections(connectionNodes));
        } else if (connectionField.name === 'totalCount') {
          overhead += countPrice(parent, field, node);
        } else {
          overhead += fieldCost(type, connectionNodes);
        }
      }
      return 1 + (requested ?? defaultPageSize) * perItem + overhead;
    }

    const itemCost = 1 + selectionCost(type, selections);
    if (isListType(getNullableType(field.type))) {
      const extensions = field.extensions as CostFieldExtensions | undefined;
      const declared = extensions?.listSizeOf
        ? argumentLength(field, node, extensions.listSizeOf)
        : extensions?.listSize;
      const size = requested ?? declared ?? (leadsToRecords(type) ? defaultPageSize : 1);
      return 1 + size * itemCost;
    }
    return itemCost;
  };

  const argumentLength = (
    field: GraphQLField<unknown, unknown>,
    node: FieldNode,
    name: string,
  ): number | undefined => {
    try {
      const value = getArgumentValues(field, node, variables as Record<string, unknown>)[name];
      return Array.isArray(value) ? value.length : undefined;
    } catch {
      return undefined;
    }
  };

  const countPrice = (
    parent: GraphQLObjectType,
    field: GraphQLField<unknown, unknown>,
    node: FieldNode,
  ): number => {
    if (parent !== root) return countCost;
    let args: Record<string, unknown>;
    try {
      args = getArgumentValues(field, node, variables as Record<string, unknown>);
    } catch {
      return countCost;
    }
    const filter = Object.entries(args)
      .filter(([name]) => !pagingArguments.includes(name))
      .sort(([a], [b]) => a.localeCompare(b));
    const key = JSON.stringify([field.name, filter]);
    if (pricedCounts.has(key)) return 0;
    pricedCounts.add(key);
    return countCost;
  };

  const pageSizeOf = (
    parent: GraphQLObjectType,
    field: GraphQLField<unknown, unknown>,
    node: FieldNode,
  ): number | undefined => {
    if (!field.args.some((arg) => sliceArguments.includes(arg.name))) return undefined;
    let args: Record<string, unknown>;
    try {
      args = getArgumentValues(field, node, variables as Record<string, unknown>);
    } catch {
      return undefined; // execution reports the invalid argument itself, before any resolver runs
    }
    let size: number | undefined;
    for (const name of sliceArguments) {
      const value = args[name];
      if (typeof value !== 'number') continue;
      if (value > maxPageSize) {
        throw queryLimitError(
          'pageSize',
          `\`${name}: ${value}\` on ${parent.name}.${field.name} is over the page size limit of ${maxPageSize}; ` +
            'page with the cursors instead.',
        );
      }
      size = Math.max(size ?? 0, value, 0);
    }
    return size;
  };

  return selectionCost(root, [input.operation.selectionSet]);
}

/**
 * The variables an operation's cost can depend on: those given to a `first`/`last` argument or to `@skip`/`@include`.
 * Two executions of a document whose values for these agree cost the same, whatever their other variables.
 */
export function costVariablesOf(document: DocumentNode): string[] {
  const names = new Set<string>();
  const collect = (value: ValueNode) =>
    visit(value, {
      Variable(variable) {
        names.add(variable.name.value);
      },
    });
  visit(document, {
    Field(field) {
      for (const argument of field.arguments ?? []) {
        if (sliceArguments.includes(argument.name.value)) collect(argument.value);
      }
    },
    Directive(directive) {
      const name = directive.name.value;
      if (name !== GraphQLSkipDirective.name && name !== GraphQLIncludeDirective.name) return;
      for (const argument of directive.arguments ?? []) collect(argument.value);
    },
  });
  return [...names].sort();
}

function isConnection(type: GraphQLCompositeType): type is GraphQLObjectType {
  if (!isObjectType(type)) return false;
  const fields = type.getFields();
  return 'edges' in fields && 'pageInfo' in fields;
}

const leadsToRecordsByType = new WeakMap<GraphQLCompositeType, boolean>();

/**
 * Records have an identity and are loaded on their own, and so may be the targets of objects that link to them;
 * a plain value (and everything below it) is stored with its parent, so a list of them is one load, however long.
 */
function leadsToRecords(type: GraphQLCompositeType, visiting = new Set<GraphQLCompositeType>()): boolean {
  const known = leadsToRecordsByType.get(type);
  if (known !== undefined) return known;
  if (!isObjectType(type) || type.getInterfaces().some((implemented) => implemented.name === 'Node'))
    return true;
  if (visiting.has(type)) return false;
  visiting.add(type);
  const answer = Object.values(type.getFields()).some((field) => {
    const target = getNamedType(field.type);
    return isCompositeType(target) && (isConnection(target) || leadsToRecords(target, visiting));
  });
  visiting.delete(type);
  if (visiting.size === 0) leadsToRecordsByType.set(type, answer);
  return answer;
}
