import {
  DirectiveLocation,
  GraphQLBoolean,
  GraphQLDirective,
  GraphQLInt,
  GraphQLNonNull,
  GraphQLString,
  isObjectType,
  lexicographicSortSchema,
  printSchema,
  specifiedDirectives,
} from 'graphql';
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
import './types/resolve.ts';

const deferArgs = {
  if: {
    type: new GraphQLNonNull(GraphQLBoolean),
    defaultValue: true,
    description: 'Deferred (or streamed) when true, the default; answered at once when false.',
  },
  label: { type: GraphQLString, description: 'Names the part in the incremental payloads.' },
};

/**
 * `@defer` and `@stream` as the incremental-delivery proposal defines them, in the schema itself so that clients
 * and their compilers (Relay, codegen) know them; `useDeferStream` executes them.
 */
const incrementalDirectives = [
  new GraphQLDirective({
    name: 'defer',
    description:
      'Answers the fragment after the rest of the operation, in a later part of a multipart/mixed or text/event-stream answer.',
    locations: [DirectiveLocation.FRAGMENT_SPREAD, DirectiveLocation.INLINE_FRAGMENT],
    args: deferArgs,
  }),
  new GraphQLDirective({
    name: 'stream',
    description: 'Answers the items of a list after the first `initialCount`, as later parts of the answer.',
    locations: [DirectiveLocation.FIELD],
    args: {
      ...deferArgs,
      initialCount: {
        type: new GraphQLNonNull(GraphQLInt),
        defaultValue: 0,
        description: 'How many items come with the first part.',
      },
    },
  }),
];

const schemaOptions = { sortSchema: false, directives: [...specifiedDirectives, ...incrementalDirectives] };

export const schema = builder.toSchema(schemaOptions);

/**
 * The same types and resolvers without the plan checks of each field and object (`authScopes`): only for a document
 * whose data areas the caller's plan covers whole (see plan-areas.ts), where every check would pass.
 */
export const schemaWithoutPlanChecks = builder.toSchema({ ...schemaOptions, disableScopeAuth: true });

for (const type of Object.values(schema.getTypeMap())) {
  if (isObjectType(type) && type.getInterfaces().some((face) => face.name === 'Node'))
    nodeTypeNames.add(type.name);
}

/** The SDL committed as `schema.graphql`. */
export function printSchemaSdl(): string {
  return `${printSchema(lexicographicSortSchema(schema))}\n`;
}
