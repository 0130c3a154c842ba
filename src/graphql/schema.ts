import { isObjectType, lexicographicSortSchema, printSchema } from 'graphql';
import { builder, nodeTypeNames } from './builder.ts';
import './types/organisation.ts';
import './types/industry.ts';
import './types/client-summary.ts';
import './types/profile.ts';
import './types/article.ts';
import './types/annotation.ts';
import './types/experience.ts';
import './types/event.ts';
import './types/search.ts';
import './types/feed.ts';
import './types/webhook.ts';
import './types/suggestion.ts';
import './types/ownership.ts';

export const schema = builder.toSchema({ sortSchema: false });

for (const type of Object.values(schema.getTypeMap())) {
  if (isObjectType(type) && type.getInterfaces().some((face) => face.name === 'Node'))
    nodeTypeNames.add(type.name);
}

/** The SDL committed as `schema.graphql`. */
export function printSchemaSdl(): string {
  return `${printSchema(lexicographicSortSchema(schema))}\n`;
}
