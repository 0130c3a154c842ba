import { GraphQLError, GraphQLScalarType } from 'graphql';
import { UUIDResolver } from 'graphql-scalars';
import { isReference } from '../domain/reference.ts';

/**
 * graphql-scalars' `UUID`, refusing what PostgreSQL's `uuid` type refuses. Its pattern takes each brace as optional
 * on its own, so `…0000}` passed as a UUID and failed in the database as the server's fault. A value in both braces
 * (`{…}`) it unwraps, and that stays accepted, as PostgreSQL accepts it.
 */
export const UUIDScalar = new GraphQLScalarType({
  ...UUIDResolver.toConfig(),
  parseValue: (value) => strict(UUIDResolver.parseValue(value)),
  parseLiteral: (node, variables) => strict(UUIDResolver.parseLiteral(node, variables)),
});

function strict(value: unknown): string {
  if (typeof value !== 'string' || !isReference(value)) {
    throw new GraphQLError(`Value is not a valid UUID: ${String(value)}`);
  }
  return value;
}
