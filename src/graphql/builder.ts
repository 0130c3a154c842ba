import SchemaBuilder from '@pothos/core';
import RelayPlugin from '@pothos/plugin-relay';
import ScopeAuthPlugin from '@pothos/plugin-scope-auth';
import { GraphQLError } from 'graphql';
import {
  CountryCodeResolver,
  CurrencyResolver,
  DateResolver,
  DateTimeResolver,
  EmailAddressResolver,
  JSONResolver,
  URLResolver,
  UUIDResolver,
} from 'graphql-scalars';
import type { DataArea } from '../auth/plans.ts';
import { DomainError } from '../domain/errors.ts';
import type { Total } from '../domain/paging.ts';
import { isReference } from '../domain/reference.ts';
import type { RequestContext } from '../http/context.ts';

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

export const builder = new SchemaBuilder<{
  Context: RequestContext;
  AuthScopes: { covers: DataArea };
  DefaultFieldNullability: false;
  Scalars: {
    UUID: { Input: string; Output: string };
    DateTime: { Input: Date; Output: Date | string };
    Date: { Input: Date; Output: Date | string };
    URL: { Input: URL; Output: URL | string };
    EmailAddress: { Input: string; Output: string };
    CountryCode: { Input: string; Output: string };
    Currency: { Input: string; Output: string };
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
    },
    nodesQueryOptions: {
      description:
        'Records by global ID, in the order of `ids`: null in place of an ID that matches none, and null with a FORBIDDEN error for a record the plan does not cover.',
      args: { ids: { description: 'Global IDs, as read from `id` fields; any mix of types.' } },
    },
  },
});

builder.addScalarType('UUID', UUIDResolver);
builder.addScalarType('DateTime', DateTimeResolver);
builder.addScalarType('Date', DateResolver);
builder.addScalarType('URL', URLResolver);
builder.addScalarType('EmailAddress', EmailAddressResolver);
builder.addScalarType('CountryCode', CountryCodeResolver);
builder.addScalarType('Currency', CurrencyResolver);
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
