import { readFile } from 'node:fs/promises';
import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  isUnionType,
} from 'graphql';
import { describe, expect, it } from 'vitest';
import { printSchemaSdl, schema } from '../../src/graphql/schema.ts';

// Everything of ours carries a description, Relay's connections, edges, page info and paging arguments included.
const plumbing = (name: string) => name.startsWith('__');

describe('schema.graphql', () => {
  it('is the printed schema (regenerate with `npm run -s schema:print > schema.graphql`)', async () => {
    const committed = await readFile(new URL('../../schema.graphql', import.meta.url), 'utf8');
    expect(committed).toBe(printSchemaSdl());
  });

  it('describes every type, field, argument and enum value', () => {
    const undescribed: string[] = [];
    for (const type of Object.values(schema.getTypeMap())) {
      if (plumbing(type.name) || ['String', 'Int', 'Float', 'Boolean', 'ID'].includes(type.name)) continue;
      if (!type.description && !['Query', 'Mutation'].includes(type.name)) undescribed.push(type.name);
      if (isObjectType(type) || isInterfaceType(type) || isInputObjectType(type)) {
        for (const field of Object.values(type.getFields())) {
          if (!field.description) undescribed.push(`${type.name}.${field.name}`);
          for (const arg of 'args' in field ? field.args : []) {
            if (!arg.description) undescribed.push(`${type.name}.${field.name}(${arg.name})`);
          }
        }
      }
      if (isEnumType(type)) {
        for (const value of type.getValues()) {
          if (!value.description) undescribed.push(`${type.name}.${value.name}`);
        }
      }
      if (isUnionType(type) && !type.description) undescribed.push(type.name);
    }
    expect(undescribed).toEqual([]);
  });

  it('states the page limit in every paging argument', () => {
    const pagingArgs = Object.values(schema.getTypeMap())
      .flatMap((type) => (isObjectType(type) ? Object.values(type.getFields()) : []))
      .flatMap((field) => field.args.filter((arg) => arg.name === 'first' || arg.name === 'last'));
    expect(pagingArgs.length).toBeGreaterThan(10);
    for (const arg of pagingArgs) expect(arg.description).toMatch(/0 to 100/);
  });

  it('shapes every connection and edge as the Relay connection specification does', () => {
    const shapeOf = (name: string) => {
      const type = schema.getType(name);
      if (!isObjectType(type)) return {};
      return Object.fromEntries(
        Object.values(type.getFields()).map((field) => [field.name, String(field.type)]),
      );
    };
    const connections = Object.keys(schema.getTypeMap()).filter((name) => name.endsWith('Connection'));
    expect(connections.length).toBeGreaterThan(5);
    for (const name of connections) {
      const fields = shapeOf(name);
      expect(fields.pageInfo, name).toBe('PageInfo!');
      const edge = fields.edges?.match(/^\[(\w+)!?\]!$/)?.[1];
      expect(edge, `${name}.edges`).toMatch(/Edge$/);
      expect(shapeOf(edge!).cursor, `${edge}.cursor`).toBe('String!');
      expect(shapeOf(edge!).node, `${edge}.node`).toBeDefined();
    }
    expect(shapeOf('PageInfo')).toMatchObject({ hasNextPage: 'Boolean!', hasPreviousPage: 'Boolean!' });
  });

  it('holds no type that nothing uses', () => {
    const used = new Set<string>();
    const visit = (name: string) => {
      if (used.has(name)) return;
      used.add(name);
      const type = schema.getType(name);
      if (isObjectType(type) || isInterfaceType(type) || isInputObjectType(type)) {
        if (!isInputObjectType(type)) for (const face of type.getInterfaces()) visit(face.name);
        for (const field of Object.values(type.getFields())) {
          visit(String(getNamedType(field.type)));
          for (const arg of 'args' in field ? field.args : []) visit(String(getNamedType(arg.type)));
        }
      }
      if (isUnionType(type)) for (const member of type.getTypes()) visit(member.name);
      if (isInterfaceType(type)) for (const impl of schema.getPossibleTypes(type)) visit(impl.name);
    };
    for (const root of ['Query', 'Mutation', 'Subscription']) visit(root);
    for (const directive of schema.getDirectives()) {
      for (const arg of directive.args) visit(String(getNamedType(arg.type)));
    }
    const unused = Object.keys(schema.getTypeMap()).filter(
      (name) => !name.startsWith('__') && !used.has(name),
    );
    expect(unused).toEqual([]);
  });
});
