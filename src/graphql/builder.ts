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
import type { Total } from '../domain/paging.ts';
import type { RequestContext } from '../server/context.ts';

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
    clientMutationId: 'omit',
    cursorType: 'String',
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
builder.mutationType({ description: 'The only write: saving an event search.' });

const TotalCount = builder.objectRef<Total>('TotalCount').implement({
  description:
    'How many records match. Counting runs under a time limit; past it `value` is the table-wide estimate from the planner and `isEstimate` is true.',
  fields: (t) => ({
    value: t.exposeInt('value'),
    isEstimate: t.exposeBoolean('isEstimate'),
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
