import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { coversDocument, documentAreas } from './plan-areas.ts';
import { schema } from './schema.ts';

const areasOf = (query: string) => documentAreas(schema, parse(query));

describe('the data areas of a document', () => {
  it('takes the areas of the fields and of the types they return, through fragments', () => {
    const known = areasOf(`
      { organisations(first: 1) { edges { node { name ...People } } } }
      fragment People on Organisation { currentExecutives { profile { fullName articles(first: 1) { edges { cursor } } } } }
    `);
    expect([...(known.areas ?? [])].sort()).toEqual(['articles', 'organisations', 'people']);
    expect(known.compilable).toBe(true);
    expect(coversDocument(['organisations', 'people', 'articles'], known)).toBe(true);
    expect(coversDocument(['organisations', 'people'], known)).toBe(false);
  });

  it('counts every possible type of an interface, whichever fragments are spread', () => {
    const known = areasOf('query ($id: ID!) { node(id: $id) { id } }');
    expect([...(known.areas ?? [])].sort()).toEqual(
      expect.arrayContaining(['articles', 'events', 'organisations', 'people']),
    );
    expect(coversDocument(['organisations', 'people'], known)).toBe(false);
  });

  it('leaves @defer, mutations, introspection and documents of several operations to the checked executor', () => {
    expect(areasOf('{ organisations(first: 1) { edges { node { ... @defer { name } } } } }').compilable).toBe(
      false,
    );
    expect(areasOf('mutation { __typename }').compilable).toBe(false);
    expect(areasOf('query A { __typename } query B { __typename }').compilable).toBe(false);
    expect(areasOf('{ __schema { queryType { name } } }').compilable).toBe(false);
  });

  it('is decided once per parsed document', () => {
    const document = parse('{ organisations(first: 1) { edges { node { name } } } }');
    expect(documentAreas(schema, document)).toBe(documentAreas(schema, document));
  });
});
