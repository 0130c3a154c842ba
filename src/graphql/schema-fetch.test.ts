import { buildSchema, execute, getIntrospectionQuery, parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { answerSize, createSchemaFetch, schemaFetchLimits } from './schema-fetch.ts';

const schema = buildSchema(`
  type Query { organisation(id: ID!): Organisation, organisations(first: Int, after: String): [Organisation!]! }
  interface Named { name: String! }
  type Organisation implements Named { name: String!, people(role: Role): [Person!]! }
  type Person implements Named { name: String!, employer: Organisation }
  enum Role { EXECUTIVE, BOARD }
`);

/** The number of values in a JSON answer's data, counted as `answerSize` counts: one per field. */
function valuesIn(data: unknown): number {
  if (Array.isArray(data)) return data.reduce((sum: number, item) => sum + valuesIn(item), 0);
  if (data && typeof data === 'object') {
    return Object.values(data).reduce((sum: number, value) => sum + 1 + valuesIn(value), 0);
  }
  return 0;
}

describe('createSchemaFetch', () => {
  const fetchSchema = createSchemaFetch(schema);

  it('answers the introspection query with what executing it gives', () => {
    const query = getIntrospectionQuery({ descriptions: true, inputValueDeprecation: true });
    const answer = fetchSchema({ query, operationName: 'IntrospectionQuery' });
    expect(answer).toEqual({ kind: 'answered', errors: false, result: expect.any(String) });
    const expected = execute({ schema, document: parse(query) });
    expect(JSON.parse((answer as { result: string }).result)).toEqual(JSON.parse(JSON.stringify(expected)));
  });

  it('answers `__type` by name, from a variable too', () => {
    const answer = fetchSchema({
      query: 'query Kinds($name: String!) { __typename __type(name: $name) { kind enumValues { name } } }',
      variables: { name: 'Role' },
    });
    expect(JSON.parse((answer as { result: string }).result)).toEqual({
      data: {
        __typename: 'Query',
        __type: { kind: 'ENUM', enumValues: [{ name: 'EXECUTIVE' }, { name: 'BOARD' }] },
      },
    });
  });

  it.each([
    ['a data field', '{ organisations { name } }'],
    ['introspection beside a data field', '{ __schema { queryType { name } } organisations { name } }'],
    [
      'a data field in a fragment at the root',
      '{ __schema { queryType { name } } ...Data } fragment Data on Query { organisations { name } }',
    ],
    [
      'a data field in an inline fragment',
      '{ __schema { queryType { name } } ... on Query { organisation(id: "1") { name } } }',
    ],
    [
      'a second operation that reads data',
      'query A { __schema { queryType { name } } } query B { organisations { name } }',
    ],
    ['`__typename` alone', '{ __typename }'],
    ['a mutation', 'mutation { __typename }'],
    ['a syntax error', '{ __schema { '],
    ['no query', undefined],
  ])('leaves %s to the token check', (_, query) => {
    expect(fetchSchema({ query, operationName: 'B' })).toEqual({ kind: 'needs-token' });
  });

  it('refuses an invalid introspection document with its validation errors', () => {
    const answer = fetchSchema({ query: '{ __schema { nope } }' });
    expect(answer).toMatchObject({ kind: 'answered', errors: true });
    const { errors } = JSON.parse((answer as { result: string }).result);
    expect(errors).toEqual([
      expect.objectContaining({
        message: 'Cannot query field "nope" on type "__Schema".',
        extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
      }),
    ]);
  });

  it('refuses a document deeper than the limit', () => {
    const ofTypes = (n: number): string => (n === 0 ? 'name' : `ofType { ${ofTypes(n - 1)} }`);
    const query = `{ __schema { types { fields { type { ${ofTypes(schemaFetchLimits.depth)} } } } } }`;
    const { errors } = JSON.parse((fetchSchema({ query }) as { result: string }).result);
    expect(errors[0].extensions).toEqual({ code: 'QUERY_LIMIT_EXCEEDED', limit: 'introspection' });
    expect(errors[0].message).toContain(`depth of ${schemaFetchLimits.depth}`);
  });

  it('refuses a document whose answer would outgrow the whole schema, before executing it', () => {
    // graphql-js bounds the nesting of `fields` and the like; aliases repeat the whole type list instead.
    const query = getIntrospectionQuery().replace(
      'types {',
      'a: types { ...FullType } b: types { ...FullType } c: types {',
    );
    const { errors } = JSON.parse((fetchSchema({ query }) as { result: string }).result);
    expect(errors[0].message).toContain('larger answer than the whole schema');
    expect(errors[0].extensions).toEqual({ code: 'QUERY_LIMIT_EXCEEDED', limit: 'introspection' });
  });

  it('refuses more tokens than any operation may have', () => {
    const names = Array.from({ length: schemaFetchLimits.tokens }, () => 'name').join(' ');
    expect(fetchSchema({ query: `{ __schema { types { ${names} } } }` })).toEqual({ kind: 'needs-token' });
  });

  it('answers a repeated document from its cache', () => {
    const query = '{ __schema { queryType { name } } }';
    expect(fetchSchema({ query })).toBe(fetchSchema({ query }));
    expect(fetchSchema({ query: `${query} ` })).not.toBe(fetchSchema({ query }));
  });
});

describe('answerSize', () => {
  it.each([
    ['the full introspection query', getIntrospectionQuery({ descriptions: true, specifiedByUrl: true })],
    [
      'fragments repeated on every type',
      '{ __schema { types { ...T possibleTypes { ...T } } } } fragment T on __Type { name fields { name type { name ofType { name } } } }',
    ],
    [
      'a named type',
      '{ __type(name: "Organisation") { name fields { name args { name } } interfaces { name } } }',
    ],
  ])('counts no fewer values than %s answers', (_, query) => {
    const document = parse(query);
    const { data } = execute({ schema, document }) as { data: unknown };
    const size = answerSize(schema, document, {});
    expect(size).toBeGreaterThanOrEqual(valuesIn(data));
    // An upper bound, not a wild one: fragments' type conditions are all it does not apply.
    expect(size).toBeLessThanOrEqual(valuesIn(data) * 2);
  });

  it('stops counting past its limit', () => {
    expect(answerSize(schema, parse(getIntrospectionQuery()), {}, undefined, 10)).toBe(11);
  });
});
