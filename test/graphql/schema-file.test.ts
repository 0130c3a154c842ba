import { readFile } from 'node:fs/promises';
import { isEnumType, isInputObjectType, isInterfaceType, isObjectType, isUnionType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { printSchemaSdl, schema } from '../../src/graphql/schema.ts';

// Relay's generated plumbing explains itself; everything else of ours carries a description.
const plumbing = (name: string) =>
  /(Connection|Edge)$/.test(name) || name === 'PageInfo' || name.startsWith('__');

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
            if (!arg.description && !['first', 'last', 'after', 'before'].includes(arg.name)) {
              undescribed.push(`${type.name}.${field.name}(${arg.name})`);
            }
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
});
