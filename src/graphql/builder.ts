import SchemaBuilder from '@pothos/core';
import RelayPlugin, { resolveNodes } from '@pothos/plugin-relay';
import ScopeAuthPlugin from '@pothos/plugin-scope-auth';
import { GraphQLError, type GraphQLSchema } from 'graphql';
import {
  CountryCodeResolver,
  DateResolver,
  DateTimeResolver,
  JSONResolver,
  URLResolver,
} from 'graphql-scalars';
import type { DataArea } from '../auth/plans.ts';
import { DomainError } from '../domain/errors.ts';
import type { Total } from '../domain/paging.ts';
import { isReference } from '../domain/reference.ts';
import type { RequestContext } from '../http/context.ts';
import { UUIDScalar } from './uuid-scalar.ts';

/** Names of the object types that implement `Node`; filled once the schema is built (see schema.ts). */
export const nodeTypeNames = new Set<string>();

/** The relay default format (`base64("Type:reference")`), refusing anything that is not one of our node IDs. */
function decodeNodeId(globalID: string): { typename: string; id: string } {
  const [, typename, id] =
    Buffer.from(globalID, 'base64')
      .toString('utf8')
      .match(/^(\w+):(.+)$/) ?? [];
  if (!typename || !id || !isReference(id) || (nodeTypeNames.size > 0 && !nodeTypeNames.has(typename))) {
    throw new DomainError(
      'INVALID_PARAMETER',
      `"${globalID}" is not an orgraph global ID; read IDs from \`id\` fields.`,
    );
  }
  return { typename, id };
}

/** The data area a node type needs (its type-level `authScopes`), or undefined when every plan may read it. */
function areaOfNodeType(schema: GraphQLSchema, typename: string): DataArea | undefined {
  const extensions = schema.getType(typename)?.extensions as
    | { pothosOptions?: { authScopes?: { covers?: DataArea } } }
    | undefined;
  return extensions?.pothosOptions?.authScopes?.covers;
}

/**
 * The refusal of a global ID whose type the plan does not cover, decided from the ID alone before any lookup:
 * every ID of that type gets the same answer, so that it cannot tell whether a record exists.
 */
function refusedNode(
  schema: GraphQLSchema,
  context: RequestContext,
  typename: string,
): GraphQLError | undefined {
  const area = areaOfNodeType(schema, typename);
  if (!area || context.viewer?.plan.covers.includes(area)) return undefined;
  return new GraphQLError(
    `Your plan (${context.viewer?.plan.name ?? 'none'}) does not cover ${typename} (${area}).`,
    { extensions: { code: 'FORBIDDEN' } },
  );
}

export const builder = new SchemaBuilder<{
  Context: RequestContext;
  AuthScopes: { covers: DataArea };
  DefaultFieldNullability: false;
  Scalars: {
    UUID: { Input: string; Output: string };
    DateTime: { Input: Date; Output: Date | string };
    Date: { Input: Date; Output: Date | string };
    URL: { Input: URL; Output: URL | string };
    CountryCode: { Input: string; Output: string };
    JSON: { Input: unknown; Output: unknown };
  };
  /** Connections may carry a lazy counter; `totalCount` calls it only when asked for. */
  Connection: { totalCount?: () => Promise<Total> };
}>({
  defaultFieldNullability: false,
  plugins: [ScopeAuthPlugin, RelayPlugin],
  scopeAuth: {
    runScopesOnType: true,
    treatErrorsAsUnauthorized: true,
    authScopes: (context) => ({
      covers: (area) => context.viewer?.plan.covers.includes(area) ?? false,
    }),
    unauthorizedError: (_parent, context, info) =>
      new GraphQLError(
        `Your plan (${context.viewer?.plan.name ?? 'none'}) does not cover ${info.parentType.name}.${info.fieldName}.`,
        { extensions: { code: 'FORBIDDEN' } },
      ),
  },
  relay: {
    decodeGlobalID: decodeNodeId,
    clientMutationId: 'omit',
    cursorType: 'String',
    pageInfoTypeOptions: {
      description:
        'Where a page sits in its list. Page forwards with `first` and `after: endCursor` while `hasNextPage`, backwards with `last` and `before: startCursor` while `hasPreviousPage`.',
    },
    defaultConnectionTypeOptions: {
      description:
        'One page of a list (Relay connection): its records in `edges`, where the page sits in `pageInfo`. At most 100 records a page.',
    },
    defaultEdgeTypeOptions: {
      description: 'A record of a page, with the cursor that pages on from it.',
    },
    edgesFieldOptions: { description: 'The records of this page, in the list’s order.' },
    pageInfoFieldOptions: { description: 'Where this page sits in the list, and the cursors to page on.' },
    cursorFieldOptions: {
      description:
        'Opaque position of this record in the list; pass it as `after` or `before`. Do not parse it.',
    },
    nodeFieldOptions: { description: 'The record.' },
    hasNextPageFieldOptions: {
      description: 'True when records follow this page; reliable when paging forwards with `first`.',
    },
    hasPreviousPageFieldOptions: {
      description: 'True when records precede this page; reliable when paging backwards with `last`.',
    },
    startCursorFieldOptions: {
      description: 'The cursor of the first record of the page; pass it as `before`.',
    },
    endCursorFieldOptions: { description: 'The cursor of the last record of the page; pass it as `after`.' },
    firstArgOptions: {
      description: 'The first this many records (0 to 100; 20 when neither `first` nor `last` is given).',
    },
    afterArgOptions: {
      description: 'Only records after this cursor (an `endCursor` or `cursor` of this list).',
    },
    lastArgOptions: { description: 'The last this many records (0 to 100), paging backwards.' },
    beforeArgOptions: {
      description: 'Only records before this cursor (a `startCursor` or `cursor` of this list).',
    },
    nodeTypeOptions: {
      description: 'A record that can be fetched again by its global `id` through `node` or `nodes`.',
    },
    idFieldOptions: {
      description:
        'Opaque global ID (Relay), for `node(id:)` and `nodes(ids:)`; do not parse it. The record’s own UUID is `reference` (`queryId` on a saved search).',
    },
    nodeQueryOptions: {
      description:
        'Any record by its global ID; null when no record of that type has it. A FORBIDDEN error when the plan does not cover the record’s type.',
      args: { id: { description: 'A global ID, as read from an `id` field.' } },
      resolve: (_root, args, context, info, resolveNode) => {
        const refusal = refusedNode(info.schema, context, args.id.typename);
        if (refusal) throw refusal;
        return resolveNode(args.id);
      },
    },
    nodesQueryOptions: {
      description:
        'Records by global ID, in the order of `ids`: null in place of an ID that matches none, and null with a FORBIDDEN error for a record the plan does not cover.',
      args: { ids: { description: 'Global IDs, as read from `id` fields; any mix of types.' } },
      resolve: async (_root, args, context, info) => {
        const refusals = args.ids.map((id) => refusedNode(info.schema, context, id.typename));
        const allowed = args.ids.filter((_id, index) => !refusals[index]);
        // Pothos' own helper, on the IDs left (the resolver it hands over always takes every ID of `args`).
        const found = allowed.length > 0 ? await resolveNodes(nodeBuilder(), context, info, allowed) : [];
        let next = 0;
        // An error in place of an item makes it null, with the error at its index; the others are answered.
        return args.ids.map((_id, index) => refusals[index] ?? found[next++]);
      },
    },
  },
});

/** The builder, for the `nodes` resolver declared in its own options. */
function nodeBuilder(): PothosSchemaTypes.SchemaBuilder<never> {
  return builder as unknown as PothosSchemaTypes.SchemaBuilder<never>;
}

builder.addScalarType('UUID', UUIDScalar);
builder.addScalarType('DateTime', DateTimeResolver);
builder.addScalarType('Date', DateResolver);
builder.addScalarType('URL', URLResolver);
builder.addScalarType('CountryCode', CountryCodeResolver);
builder.addScalarType('JSON', JSONResolver);

builder.queryType({ description: 'Read the business-intelligence graph.' });
builder.mutationType({
  description: 'The writes: saving an event search, and webhook subscriptions to saved searches.',
});

const TotalCount = builder.objectRef<Total>('TotalCount').implement({
  description:
    'How many records match. Counting runs under a time limit; past it `value` is the table-wide estimate from the planner and `isEstimate` is true.',
  fields: (t) => ({
    value: t.exposeInt('value', { description: 'The number of matches, or the estimate when `isEstimate`.' }),
    isEstimate: t.exposeBoolean('isEstimate', {
      description:
        'True when counting ran out of time: `value` is then a table-wide estimate and can be far too high.',
    }),
  }),
});

builder.globalConnectionField('totalCount', (t) =>
  t.field({
    type: TotalCount,
    nullable: true,
    description: 'How many records match (null where the list cannot be counted).',
    resolve: (connection) => connection.totalCount?.() ?? null,
  }),
);
