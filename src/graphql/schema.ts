import { lexicographicSortSchema, printSchema } from 'graphql';
import { builder } from './builder.ts';
import './types/organisation.ts';
import './types/profile.ts';
import './types/article.ts';
import './types/event.ts';
import './types/search.ts';
import './types/ownership.ts';

export const schema = builder.toSchema({ sortSchema: false });

/** The SDL committed as `schema.graphql`. */
export function printSchemaSdl(): string {
  return `${printSchema(lexicographicSortSchema(schema))}\n`;
}
