import {
  buildSchema,
  type FragmentDefinitionNode,
  GraphQLError,
  type GraphQLObjectType,
  getOperationAST,
  getVariableValues,
  Kind,
  parse,
} from 'graphql';
import { describe, expect, it } from 'vitest';
import { costVariablesOf, measureOperationCost } from './operation-cost.ts';

const schema = buildSchema(`
  interface Node { id: ID! }
  type PageInfo { hasNextPage: Boolean! endCursor: String }
  type Total { value: Int! }
  type Alias { name: String! }
  type Organisation implements Node {
    id: ID!
    name: String!
    aliases: [Alias!]!
    tags: [String!]!
    parent: Organisation
    people(first: Int, last: Int, after: String): PersonConnection!
    events: [Event!]!
    roles: [Role!]!
    board: [Role!]!
  }
  type Role { title: String! person: Person }
  type Person implements Node { id: ID! name: String! employer: Organisation }
  type PersonEdge { cursor: String! node: Person! }
  type PersonConnection { edges: [PersonEdge!]! nodes: [Person!]! pageInfo: PageInfo! totalCount: Total }
  type OrganisationEdge { cursor: String! node: Organisation! }
  type OrganisationConnection { edges: [OrganisationEdge!]! pageInfo: PageInfo! totalCount: Total }
  interface Event { id: ID! }
  type Move implements Event & Node { id: ID! person: Person! }
  type Deal implements Event & Node { id: ID! acquirer: Organisation! acquiree: Organisation! }
  type Query {
    organisation(id: ID!): Organisation
    organisations(first: Int, last: Int): OrganisationConnection!
  }
  type Mutation { save(name: String!): Alias! }
`);

function costOf(source: string, inputs: Record<string, unknown> = {}): number {
  const document = parse(source);
  const operation = getOperationAST(document)!;
  const fragments: Record<string, FragmentDefinitionNode> = {};
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments[definition.name.value] = definition;
  }
  const variables = getVariableValues(schema, operation.variableDefinitions ?? [], inputs);
  if (variables.errors) throw variables.errors[0];
  return measureOperationCost({ schema, operation, fragments, variables: variables.coerced });
}

describe('measureOperationCost', () => {
  it('charges 1 per object and nothing for scalars and __typename', () => {
    expect(costOf('{ __typename organisation(id: "a") { name tags __typename } }')).toBe(1);
    expect(costOf('{ organisation(id: "a") { parent { parent { name } } } }')).toBe(3);
  });

  it('multiplies a connection by its first or last, 20 when absent, and adds pageInfo and totals once', () => {
    expect(costOf('{ organisations(first: 3) { edges { cursor node { name } } } }')).toBe(1 + 3 * 1);
    expect(costOf('{ organisations { edges { node { name } } pageInfo { hasNextPage } } }')).toBe(1 + 20 + 1);
    expect(
      costOf('{ organisations(last: 5) { edges { node { parent { name } } } totalCount { value } } }'),
    ).toBe(1 + 5 * 2 + 1);
  });

  it('multiplies nested connections', () => {
    const query = `{ organisations(first: 10) { edges { node {
      people(first: 50) { nodes { employer { name } } } } } } }`;
    // 1 + 10 × (node 1 + people (1 + 50 × (node 1 + employer 1)))
    expect(costOf(query)).toBe(1 + 10 * (1 + (1 + 50 * 2)));
  });

  it('reads first from variables', () => {
    const query = 'query ($n: Int) { organisations(first: $n) { edges { node { name } } } }';
    expect(costOf(query, { n: 7 })).toBe(8);
    expect(costOf(query, {})).toBe(21);
  });

  it('refuses a page larger than 100, naming the limit and the field', () => {
    let refusal: unknown;
    try {
      costOf('{ organisations(first: 1000) { edges { node { name } } } }');
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(GraphQLError);
    expect((refusal as GraphQLError).message).toBe(
      '`first: 1000` on Query.organisations is over the page size limit of 100; page with the cursors instead.',
    );
    expect((refusal as GraphQLError).extensions).toMatchObject({
      code: 'QUERY_LIMIT_EXCEEDED',
      limit: 'pageSize',
    });
  });

  it('counts lists of records, or of objects linking to records, as 20 items and lists of plain values as one', () => {
    expect(costOf('{ organisation(id: "a") { aliases { name } } }')).toBe(1 + (1 + 1));
    expect(costOf('{ organisation(id: "a") { events { id } } }')).toBe(1 + (1 + 20 * 1));
    expect(costOf('{ organisation(id: "a") { roles { title person { name } } } }')).toBe(1 + (1 + 20 * 2));
  });

  it("takes a list's declared listSize over the default", () => {
    const board = (schema.getType('Organisation') as GraphQLObjectType).getFields().board!;
    Object.assign(board, { extensions: { listSize: 5 } });
    expect(costOf('{ organisation(id: "a") { board { person { name } } } }')).toBe(1 + (1 + 5 * 2));
  });

  it('takes the most expensive implementation of an interface', () => {
    const query = `{ organisation(id: "a") { events {
      ... on Move { person { name } }
      ... on Deal { acquirer { name } acquiree { parent { name } } }
    } } }`;
    // Deal: 1 + acquirer 1 + acquiree (1 + parent 1) = 4 per event
    expect(costOf(query)).toBe(1 + (1 + 20 * 4));
  });

  it('charges every alias and merges repeated fields', () => {
    expect(costOf('{ a: organisation(id: "a") { name } b: organisation(id: "b") { name } }')).toBe(2);
    expect(costOf('{ organisation(id: "a") { name } organisation(id: "a") { parent { name } } }')).toBe(2);
  });

  it('follows fragments and honours @skip and @include', () => {
    const query = `query ($deep: Boolean!) {
      organisation(id: "a") { ...Org up: parent @include(if: $deep) { ...Org } }
    }
    fragment Org on Organisation { name parent { name } }`;
    expect(costOf(query, { deep: false })).toBe(1 + 1);
    expect(costOf(query, { deep: true })).toBe(1 + 1 + (1 + 1));
  });

  it('stays linear on fragments spread many times', () => {
    let fragments = 'fragment F0 on Organisation { name }';
    for (let level = 1; level <= 12; level += 1) {
      fragments += ` fragment F${level} on Organisation { parent { ...F${level - 1} } p2: parent { ...F${level - 1} } }`;
    }
    // Each level doubles the work a naive walk does (2^12 selection sets); the memo keeps it cheap.
    expect(costOf(`{ organisation(id: "a") { ...F12 } } ${fragments}`)).toBe(1 + (2 ** 13 - 2));
  });

  it('charges introspection as 1', () => {
    expect(costOf('{ __schema { types { name fields { name type { name } } } } }')).toBe(1);
  });

  it('measures mutations from the mutation root', () => {
    expect(costOf('mutation { save(name: "x") { name } }')).toBe(1);
  });
});

describe('costVariablesOf', () => {
  it('names the variables of first/last arguments and of @skip/@include, not the others', () => {
    const document = parse(`
      query ($id: ID!, $n: Int, $back: Int, $after: String, $withPeople: Boolean!, $bare: Boolean!) {
        organisation(id: $id) {
          name @skip(if: $bare)
          people(first: $n, after: $after) @include(if: $withPeople) { nodes { id } }
          parent { people(last: $back) { nodes { id } } }
        }
      }`);
    expect(costVariablesOf(document)).toEqual(['back', 'bare', 'n', 'withPeople']);
  });

  it('names the variables of fragments too, and none for a document whose cost is fixed', () => {
    const withFragment = parse(`
      query ($n: Int) { organisation(id: "o") { ...People } }
      fragment People on Organisation { people(first: $n) { nodes { id } } }`);
    expect(costVariablesOf(withFragment)).toEqual(['n']);
    expect(costVariablesOf(parse('query ($id: ID!) { organisation(id: $id) { name } }'))).toEqual([]);
  });
});
