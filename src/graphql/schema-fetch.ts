import { MaxTokensParserWLexer } from '@escape.tech/graphql-armor-max-tokens';
import {
  type DocumentNode,
  type ExecutionResult,
  execute,
  type FieldNode,
  type GraphQLDirective,
  type GraphQLError,
  type GraphQLField,
  type GraphQLInputField,
  type GraphQLNamedType,
  type GraphQLSchema,
  type GraphQLType,
  getArgumentValues,
  getIntrospectionQuery,
  isAbstractType,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isListType,
  isNonNullType,
  isObjectType,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
  TypeMetaFieldDef,
  validate,
} from 'graphql';
import type { Context } from 'hono';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { bearerToken, isPossibleToken } from '../auth/tokens.ts';
import type { AppEnv } from '../http/app-env.ts';
import { clientAddress } from '../http/client-address.ts';
import { RequestError } from '../http/errors.ts';
import { graphqlMediaType } from '../http/limits/graphql-refusals.ts';
import { queryShapeLimits } from './plugins/use-query-limits.ts';

/**
 * The bounds of a schema fetch made without a token. The schema is public (it is printed in the repository and
 * served as GraphiQL's Docs), so reading it needs no token; these keep that reading from being a way to load the
 * server.
 */
export const schemaFetchLimits = {
  /** The request body; GraphiQL's introspection request is about 2 KiB. */
  bodyBytes: 16 * 1024,
  /** Lexical tokens, as for any operation. */
  tokens: queryShapeLimits.tokens,
  /** Nested fields; GraphiQL's query, with its nine `ofType` levels, reaches 15. */
  depth: 20,
  /** Values in the answer, as a multiple of the full introspection answer's (every option of graphql-js on). */
  answerSizeFactor: 2,
  /** Distinct documents whose answers are kept per schema; past it the oldest is dropped. */
  cachedAnswers: 32,
  /** Schema fetches without a token per client address and window. */
  perAddress: { points: 30, windowSeconds: 60 },
} as const;

/** Fields of the root type that read the schema; `__typename` may come with them. */
const schemaRootFields = new Set(['__schema', '__type']);

/** The JSON body of a GraphQL request, as far as a schema fetch reads it. */
export interface SchemaFetchRequest {
  query?: unknown;
  operationName?: unknown;
  variables?: unknown;
}

export type SchemaFetchAnswer =
  /** The document is not introspection alone (or not a document): the request needs a token. */
  | { kind: 'needs-token' }
  /** Introspection alone, answered (`result` is the serialized GraphQL response). */
  | { kind: 'answered'; result: string; errors: false }
  /** Introspection alone, but invalid or over a limit: a GraphQL error response, to send with status 400. */
  | { kind: 'answered'; result: string; errors: true };

const needsToken = { kind: 'needs-token' } as const;

/** The full introspection query of graphql-js, every option on: the yardstick of the answer size bound. */
const fullIntrospection = getIntrospectionQuery({
  descriptions: true,
  specifiedByUrl: true,
  directiveIsRepeatable: true,
  schemaDescription: true,
  inputValueDeprecation: true,
  oneOf: true,
});

/**
 * Answers documents that only read the schema (their root fields are `__schema`, `__type` and `__typename`, at
 * least one of the first two), from a cache of the answers to the last {@link schemaFetchLimits.cachedAnswers}
 * documents, after checking the document's tokens, depth and the size of its answer before executing it.
 */
export function createSchemaFetch(schema: GraphQLSchema): (request: SchemaFetchRequest) => SchemaFetchAnswer {
  const cache = new Map<string, SchemaFetchAnswer>();
  let maxAnswerSize: number | undefined;

  return (request) => {
    const { query, operationName, variables } = request;
    if (typeof query !== 'string') return needsToken;
    if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') {
      return needsToken;
    }
    if (
      variables !== undefined &&
      variables !== null &&
      (typeof variables !== 'object' || Array.isArray(variables))
    ) {
      return needsToken;
    }
    const key = JSON.stringify([query, operationName ?? null, variables ?? null]);
    const cached = cache.get(key);
    if (cached) {
      // Most recently used last, so that the oldest is the one dropped.
      cache.delete(key);
      cache.set(key, cached);
      return cached;
    }

    const document = parseBounded(query);
    if (!document || !readsSchemaOnly(document)) return needsToken;
    const variableValues = (variables ?? undefined) as Record<string, unknown> | undefined;
    const answer = answerDocument(schema, document, operationName ?? undefined, variableValues, () => {
      maxAnswerSize ??=
        schemaFetchLimits.answerSizeFactor * answerSize(schema, parseBounded(fullIntrospection)!, {});
      return maxAnswerSize;
    });
    cache.set(key, answer);
    if (cache.size > schemaFetchLimits.cachedAnswers) cache.delete(cache.keys().next().value!);
    return answer;
  };
}

function parseBounded(query: string): DocumentNode | undefined {
  try {
    return new MaxTokensParserWLexer(query, {
      n: schemaFetchLimits.tokens,
      exposeLimits: true,
      propagateOnRejection: true,
    }).parseDocument();
  } catch {
    return undefined;
  }
}

/** True when every operation of the document is a query whose root fields read the schema and nothing else. */
function readsSchemaOnly(document: DocumentNode): boolean {
  const fragments = new Map(
    document.definitions.flatMap((definition) =>
      definition.kind === Kind.FRAGMENT_DEFINITION ? [[definition.name.value, definition] as const] : [],
    ),
  );
  const operations = document.definitions.filter(
    (definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION,
  );
  if (operations.length === 0) return false;
  return operations.every((operation) => {
    if (operation.operation !== 'query') return false;
    const names = new Set<string>();
    const seen = new Set<string>();
    const collect = (selectionSet: SelectionSetNode): boolean =>
      selectionSet.selections.every((selection) => {
        if (selection.kind === Kind.FIELD) {
          names.add(selection.name.value);
          return true;
        }
        if (selection.kind === Kind.INLINE_FRAGMENT) return collect(selection.selectionSet);
        const name = selection.name.value;
        const fragment = fragments.get(name);
        if (!fragment) return false;
        if (seen.has(name)) return true;
        seen.add(name);
        return collect(fragment.selectionSet);
      });
    if (!collect(operation.selectionSet)) return false;
    const fields = [...names];
    return (
      fields.some((name) => schemaRootFields.has(name)) &&
      fields.every((name) => schemaRootFields.has(name) || name === '__typename')
    );
  });
}

function answerDocument(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | undefined,
  variableValues: Record<string, unknown> | undefined,
  maxAnswerSize: () => number,
): SchemaFetchAnswer {
  const invalid = validate(schema, document);
  if (invalid.length > 0) return refused(invalid.map((error) => coded(error, 'GRAPHQL_VALIDATION_FAILED')));
  const depth = depthOf(document);
  if (depth > schemaFetchLimits.depth) {
    return refused([
      limitError(
        `Introspection without a token is limited to a depth of ${schemaFetchLimits.depth}; this one has ${depth}.`,
      ),
    ]);
  }
  const size = answerSize(schema, document, variableValues ?? {}, operationName, maxAnswerSize());
  if (size > maxAnswerSize()) {
    return refused([
      limitError(
        'This introspection document asks for a larger answer than the whole schema takes; send it with a token.',
      ),
    ]);
  }
  const result: ExecutionResult = execute({
    schema,
    document,
    operationName,
    variableValues,
  }) as ExecutionResult;
  const errors = (result.errors?.length ?? 0) > 0;
  return { kind: 'answered', result: JSON.stringify(result), errors };
}

function coded(error: GraphQLError, code: string): object {
  return { ...error.toJSON(), extensions: { ...error.extensions, code } };
}

function limitError(message: string): object {
  return { message, extensions: { code: 'QUERY_LIMIT_EXCEEDED', limit: 'introspection' } };
}

function refused(errors: object[]): SchemaFetchAnswer {
  return { kind: 'answered', result: JSON.stringify({ errors }), errors: true };
}

/** The deepest chain of nested fields, fragments followed (validation has ruled out their cycles). */
function depthOf(document: DocumentNode): number {
  const fragments = new Map(
    document.definitions.flatMap((definition) =>
      definition.kind === Kind.FRAGMENT_DEFINITION ? [[definition.name.value, definition] as const] : [],
    ),
  );
  const memo = new Map<SelectionSetNode, number>();
  const depth = (selectionSet: SelectionSetNode): number => {
    const known = memo.get(selectionSet);
    if (known !== undefined) return known;
    let deepest = 0;
    for (const selection of selectionSet.selections) {
      const below =
        selection.kind === Kind.FIELD
          ? 1 + (selection.selectionSet ? depth(selection.selectionSet) : 0)
          : selection.kind === Kind.INLINE_FRAGMENT
            ? depth(selection.selectionSet)
            : depth(fragments.get(selection.name.value)!.selectionSet);
      deepest = Math.max(deepest, below);
    }
    memo.set(selectionSet, deepest);
    return deepest;
  };
  let deepest = 0;
  for (const definition of document.definitions) {
    if (definition.kind === Kind.OPERATION_DEFINITION)
      deepest = Math.max(deepest, depth(definition.selectionSet));
  }
  return deepest;
}

/** One object of the introspection graph: the schema, a type (wrappers included), a field, an argument… */
type Node =
  | { kind: 'schema' }
  | { kind: 'type'; type: GraphQLType }
  | { kind: 'field'; field: GraphQLField<unknown, unknown> }
  | { kind: 'inputValue'; value: { type: GraphQLType } }
  | { kind: 'enumValue' }
  | { kind: 'directive'; directive: GraphQLDirective };

const typeNode = (type: GraphQLType): Node => ({ kind: 'type', type });
const inputValues = (values: readonly { type: GraphQLType }[]): Node[] =>
  values.map((value) => ({ kind: 'inputValue', value }));

/** The objects a field of an introspection object leads to; empty for a scalar field or a null. */
function childrenOf(schema: GraphQLSchema, node: Node, field: string): Node[] {
  switch (node.kind) {
    case 'schema':
      if (field === 'types') return Object.values(schema.getTypeMap()).map(typeNode);
      if (field === 'directives')
        return schema.getDirectives().map((directive) => ({ kind: 'directive', directive }));
      if (field === 'queryType') return [typeNode(schema.getQueryType()!)];
      if (field === 'mutationType' || field === 'subscriptionType') {
        const type = field === 'mutationType' ? schema.getMutationType() : schema.getSubscriptionType();
        return type ? [typeNode(type)] : [];
      }
      return [];
    case 'type':
      return typeChildren(schema, node.type, field);
    case 'field':
      if (field === 'args') return inputValues(node.field.args);
      if (field === 'type') return [typeNode(node.field.type)];
      return [];
    case 'inputValue':
      return field === 'type' ? [typeNode(node.value.type)] : [];
    case 'directive':
      return field === 'args' ? inputValues(node.directive.args) : [];
    case 'enumValue':
      return [];
  }
}

function typeChildren(schema: GraphQLSchema, type: GraphQLType, field: string): Node[] {
  if (field === 'ofType') return isListType(type) || isNonNullType(type) ? [typeNode(type.ofType)] : [];
  const named = type as GraphQLNamedType;
  if (field === 'fields' && (isObjectType(named) || isInterfaceType(named))) {
    return Object.values(named.getFields()).map((each) => ({ kind: 'field', field: each }));
  }
  if (field === 'inputFields' && isInputObjectType(named)) {
    return inputValues(Object.values(named.getFields()) as GraphQLInputField[]);
  }
  if (field === 'interfaces' && (isObjectType(named) || isInterfaceType(named))) {
    return named.getInterfaces().map(typeNode);
  }
  if (field === 'possibleTypes' && isAbstractType(named)) return schema.getPossibleTypes(named).map(typeNode);
  if (field === 'enumValues' && isEnumType(named))
    return named.getValues().map(() => ({ kind: 'enumValue' }));
  return [];
}

class TooLarge extends Error {}

/**
 * How many values the answer to `document` holds at most, counted on the schema itself before anything executes:
 * every field selected on every object the answer reaches (fragments' type conditions and `@skip`/`@include` are
 * not applied, so it can only count more). Counting stops once past `limit`.
 */
export function answerSize(
  schema: GraphQLSchema,
  document: DocumentNode,
  variableValues: Record<string, unknown>,
  operationName?: string,
  limit = Number.POSITIVE_INFINITY,
): number {
  const fragments = new Map(
    document.definitions.flatMap((definition) =>
      definition.kind === Kind.FRAGMENT_DEFINITION ? [[definition.name.value, definition] as const] : [],
    ),
  );
  const operation = document.definitions.find(
    (definition): definition is OperationDefinitionNode =>
      definition.kind === Kind.OPERATION_DEFINITION &&
      (!operationName || definition.name?.value === operationName),
  );
  if (!operation) return 0;
  const fieldsOf = (selectionSet: SelectionSetNode, into: FieldNode[] = []): FieldNode[] => {
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD) into.push(selection);
      else if (selection.kind === Kind.INLINE_FRAGMENT) fieldsOf(selection.selectionSet, into);
      else {
        const fragment = fragments.get(selection.name.value);
        if (fragment) fieldsOf(fragment.selectionSet, into);
      }
    }
    return into;
  };
  const rootChildren = (field: FieldNode): Node[] => {
    if (field.name.value === '__schema') return [{ kind: 'schema' }];
    if (field.name.value !== '__type') return [];
    let name: unknown;
    try {
      name = getArgumentValues(TypeMetaFieldDef, field, variableValues).name;
    } catch {
      return [];
    }
    const type = typeof name === 'string' ? schema.getType(name) : undefined;
    return type ? [typeNode(type)] : [];
  };

  // Per selection set, the count for each object it was already counted on: repeated fragments cost once.
  const memo = new Map<SelectionSetNode, Map<unknown, number>>();
  const identity = (node: Node): unknown =>
    node.kind === 'schema'
      ? schema
      : node.kind === 'type'
        ? node.type
        : node.kind === 'field'
          ? node.field
          : node.kind === 'inputValue'
            ? node.value
            : node.kind === 'directive'
              ? node.directive
              : 'enumValue';
  const count = (selectionSet: SelectionSetNode, node: Node): number => {
    const byNode = memo.get(selectionSet) ?? new Map<unknown, number>();
    memo.set(selectionSet, byNode);
    const key = identity(node);
    const known = byNode.get(key);
    if (known !== undefined) return known;
    let total = 0;
    for (const field of fieldsOf(selectionSet)) {
      total += 1;
      if (!field.selectionSet) continue;
      for (const child of childrenOf(schema, node, field.name.value)) {
        total += count(field.selectionSet, child);
        if (total > limit) throw new TooLarge();
      }
    }
    byNode.set(key, total);
    return total;
  };

  try {
    let total = 0;
    for (const field of fieldsOf(operation.selectionSet)) {
      total += 1;
      if (!field.selectionSet) continue;
      for (const child of rootChildren(field)) total += count(field.selectionSet, child);
      if (total > limit) return total;
    }
    return total;
  } catch (error) {
    if (error instanceof TooLarge) return limit + 1;
    throw error;
  }
}

/**
 * The answer to a GraphQL POST without a usable token whose document only reads the schema, so that GraphiQL's Docs
 * and a client's code generator work before (or without) a token; undefined for everything else, which goes on to
 * the token check. A bearer token that could be real goes on too: its holder gets the graph itself. At
 * most {@link schemaFetchLimits.perAddress} such answers per client address and window (per instance).
 */
export function schemaFetchAnswer(
  schema: GraphQLSchema,
  trustProxy: number,
): (c: Context<AppEnv>) => Promise<Response | undefined> {
  const answer = createSchemaFetch(schema);
  const { points, windowSeconds } = schemaFetchLimits.perAddress;
  const perAddress = new RateLimiterMemory({ points, duration: windowSeconds });
  return async (c) => {
    const token = bearerToken(c.req.header('Authorization'));
    if (c.req.method !== 'POST' || (token && isPossibleToken(token))) return undefined;
    // Read at most the bound: a larger body goes on to the token check, which refuses it without reading it.
    const text = await readBounded(c.req.raw, schemaFetchLimits.bodyBytes);
    let body: unknown;
    try {
      body = text === undefined ? undefined : JSON.parse(text);
    } catch {
      return undefined;
    }
    if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
    const answered = answer(body as SchemaFetchRequest);
    if (answered.kind === 'needs-token') return undefined;

    const address = clientAddress(c, trustProxy);
    if (address) {
      try {
        await perAddress.consume(address);
      } catch (rejection) {
        if (!(rejection instanceof RateLimiterRes)) throw rejection;
        const retry = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
        c.header('Retry-After', String(retry));
        throw new RequestError(
          'RATE_LIMITED',
          `Too many schema fetches without a token from this address (${points} per ${windowSeconds} s); ` +
            `retry in ${retry} s, or send a token.`,
        );
      }
    }
    const mediaType = graphqlMediaType(c.req.header('Accept'));
    c.header('Content-Type', `${mediaType}; charset=utf-8`);
    // As Yoga answers: a refused document is 400 to a GraphQL-over-HTTP client, 200 to a legacy JSON one.
    const status = answered.errors && mediaType === 'application/graphql-response+json' ? 400 : 200;
    return c.body(answered.result, status);
  };
}

/** The body as text when it holds at most `maxBytes`; undefined (and the rest left unread) when it holds more. */
async function readBounded(request: Request, maxBytes: number): Promise<string | undefined> {
  const declared = request.headers.get('Content-Length');
  if (declared !== null && !(Number(declared) <= maxBytes)) return undefined;
  const reader = request.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
