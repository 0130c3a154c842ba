import { buildSchema, parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { operationOf, variablesOf } from './operation-facts.ts';

const schema = buildSchema('type Query { organisation(reference: ID!, first: Int): String }');
const document = parse(`
  query One($reference: ID!) { organisation(reference: $reference) }
  query Two($first: Int = 5) { organisation(reference: "r", first: $first) }
`);

describe('operationOf', () => {
  it('picks the named operation, and the same node each time', () => {
    const two = operationOf(document, 'Two');
    expect(two?.name?.value).toBe('Two');
    expect(operationOf(document, 'Two')).toBe(two);
    expect(operationOf(document, 'One')?.name?.value).toBe('One');
  });

  it('finds no operation for a name the document lacks, nor without a name among several', () => {
    expect(operationOf(document, 'Three')).toBeUndefined();
    expect(operationOf(document)).toBeUndefined();
    expect(operationOf(parse('{ organisation(reference: "r") }'))?.operation).toBe('query');
  });
});

describe('variablesOf', () => {
  it('coerces an execution’s variables once, with defaults', () => {
    const args = { schema, document, operationName: 'Two', variableValues: {} };
    const first = variablesOf(args);
    expect(first).toEqual({ coerced: { first: 5 } });
    expect(variablesOf(args)).toBe(first);
  });

  it('reports variables that do not fit, per execution', () => {
    const missing = variablesOf({ schema, document, operationName: 'One', variableValues: {} });
    expect(missing?.errors?.[0]?.message).toMatch(/\$reference/);
    const given = variablesOf({ schema, document, operationName: 'One', variableValues: { reference: 'x' } });
    expect(given).toEqual({ coerced: { reference: 'x' } });
  });

  it('is null when the execution names no operation of the document', () => {
    expect(variablesOf({ schema, document, operationName: 'Three' })).toBeNull();
  });
});
