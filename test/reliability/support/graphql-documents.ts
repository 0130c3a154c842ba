import fc from 'fast-check';
import {
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLInterfaceType,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLSchema,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  isUnionType,
} from 'graphql';
import { hostileText, hostileUuid } from './hostile.ts';

/** Real identifiers to put where the schema wants one, so that generated operations reach records. */
export interface KnownValues {
  uuids: string[];
  nodeIds: string[];
}

/** A generated operation: its text, its variables, and the most edges each root connection may return. */
export interface GeneratedOperation {
  query: string;
  variables: Record<string, unknown>;
  /** Root response key → the `first` or `last` it was given, when that was a valid page size. */
  pageSizes: Record<string, number>;
}

/** The random choices the generator makes, drawn by fast-check so that failures shrink and replay. */
type Draw = <T>(arbitrary: fc.Arbitrary<T>) => T;

const hostileJson = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom(-1, 0, 1.5, 2 ** 31, -(2 ** 31) - 1, 1e308, '', 'true', [], {}, null),
);

/** A value for an input type: valid most of the time, with hostile leaves and now and then the wrong shape. */
function inputValue(type: GraphQLInputType, known: KnownValues, draw: Draw, depth = 0): unknown {
  if (draw(fc.integer({ min: 0, max: 19 })) === 0) return draw(hostileJson);
  if (isNonNullType(type)) return inputValue(type.ofType, known, draw, depth);
  if (draw(fc.integer({ min: 0, max: 9 })) === 0) return null;
  if (isListType(type)) {
    const length = draw(fc.integer({ min: 0, max: depth > 1 ? 1 : 3 }));
    return Array.from({ length }, () => inputValue(type.ofType, known, draw, depth + 1));
  }
  if (isInputObjectType(type)) {
    const value: Record<string, unknown> = {};
    for (const field of Object.values(type.getFields())) {
      if (isNonNullType(field.type) || draw(fc.boolean()))
        value[field.name] = inputValue(field.type, known, draw, depth + 1);
    }
    if (draw(fc.integer({ min: 0, max: 14 })) === 0) value[draw(hostileText)] = draw(hostileJson);
    return value;
  }
  if (isEnumType(type)) {
    const names = type.getValues().map((value) => value.name);
    return draw(
      fc.oneof({ arbitrary: fc.constantFrom(...names), weight: 5 }, { arbitrary: hostileText, weight: 1 }),
    );
  }
  return scalarValue(type.name, known, draw);
}

function scalarValue(name: string, known: KnownValues, draw: Draw): unknown {
  switch (name) {
    case 'Int':
      return draw(
        fc.oneof(
          { arbitrary: fc.integer({ min: 1, max: 5 }), weight: 6 },
          { arbitrary: fc.constantFrom(0, -1, 100, 101, 1000, 2 ** 31 - 1, 2 ** 31, 1.5, 1e20), weight: 2 },
        ),
      );
    case 'Float':
      return draw(fc.double());
    case 'Boolean':
      return draw(fc.boolean());
    case 'ID':
      return draw(fc.oneof(fc.constantFrom(...known.nodeIds), hostileText, fc.base64String()));
    case 'UUID':
      return draw(
        fc.oneof(
          { arbitrary: fc.constantFrom(...known.uuids), weight: 2 },
          { arbitrary: hostileUuid, weight: 1 },
        ),
      );
    case 'DateTime':
      return draw(
        fc.oneof(
          fc.constantFrom(
            '2024-05-01T09:30:00Z',
            '2020-01-01T00:00:00.000Z',
            '0000-01-01T00:00:00Z',
            '9999-12-31T23:59:59Z',
            '+275760-09-13T00:00:00Z',
            '2024-02-30T00:00:00Z',
          ),
          fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
          hostileText,
        ),
      );
    case 'Date':
      return draw(fc.oneof(fc.constantFrom('2024-05-01', '0000-01-01', '2024-13-01'), hostileText));
    case 'CountryCode':
      return draw(fc.oneof(fc.constantFrom('GB', 'US', 'FR', 'XX', 'gb'), hostileText));
    default:
      return draw(hostileText);
  }
}

/** GraphQL literal syntax for a value (JSON strings are valid GraphQL strings; enum names print bare). */
function literal(value: unknown, type: GraphQLInputType | undefined): string {
  const named = type && getNamedType(type);
  if (value === null) return 'null';
  if (typeof value === 'string') {
    return named && isEnumType(named) && /^[_A-Za-z][_0-9A-Za-z]*$/.test(value)
      ? value
      : JSON.stringify(value);
  }
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '0';
  if (typeof value === 'boolean') return String(value);
  const inner = type && (isNonNullType(type) ? type.ofType : type);
  if (Array.isArray(value)) {
    const item = inner && isListType(inner) ? inner.ofType : undefined;
    return `[${value.map((entry) => literal(entry, item)).join(', ')}]`;
  }
  const fields = inner && isInputObjectType(inner) ? inner.getFields() : {};
  const entries = Object.entries(value as Record<string, unknown>).filter(([key]) =>
    /^[_A-Za-z][_0-9A-Za-z]*$/.test(key),
  );
  return `{${entries.map(([key, entry]) => `${key}: ${literal(entry, fields[key]?.type)}`).join(', ')}}`;
}

class OperationWriter {
  private readonly variables: Record<string, unknown> = {};
  private readonly declarations: string[] = [];
  readonly pageSizes: Record<string, number> = {};

  constructor(
    private readonly known: KnownValues,
    private readonly draw: Draw,
    private readonly maxDepth: number,
  ) {}

  private argumentsOf(field: GraphQLField<unknown, unknown>, responseKey?: string): string {
    const parts: string[] = [];
    for (const argument of field.args) {
      const required = isNonNullType(argument.type);
      if (!required && !this.draw(fc.boolean())) continue;
      if (required && this.draw(fc.integer({ min: 0, max: 29 })) === 0) continue; // a missing required argument
      const value = inputValue(argument.type, this.known, this.draw);
      if (
        responseKey &&
        (argument.name === 'first' || argument.name === 'last') &&
        Number.isInteger(value) &&
        (value as number) >= 1 &&
        (value as number) <= 100
      ) {
        // With both `first` and `last` given, the larger bounds the page whichever way they combine.
        this.pageSizes[responseKey] = Math.max(this.pageSizes[responseKey] ?? 0, value as number);
      }
      if (this.draw(fc.boolean())) {
        const name = `v${this.declarations.length}`;
        // Now and then the declared type is not the argument's: a mismatch validation must catch.
        const declared =
          this.draw(fc.integer({ min: 0, max: 14 })) === 0
            ? this.draw(fc.constantFrom('String', 'Int!', '[ID]', 'Boolean'))
            : String(argument.type);
        this.declarations.push(`$${name}: ${declared}`);
        if (value !== undefined) this.variables[name] = value;
        parts.push(`${argument.name}: $${name}`);
      } else {
        parts.push(`${argument.name}: ${literal(value, argument.type)}`);
      }
    }
    return parts.length > 0 ? `(${parts.join(', ')})` : '';
  }

  selection(type: GraphQLNamedType, depth: number): string {
    if (isLeafType(type)) return '';
    if (depth >= this.maxDepth) return '{ __typename }';
    const parts: string[] = [];
    if (isUnionType(type) || isInterfaceType(type)) {
      const possible = isUnionType(type) ? type.getTypes() : [];
      if (isInterfaceType(type)) parts.push(...this.fields(type, depth));
      for (const member of possible) {
        if (this.draw(fc.boolean())) parts.push(`... on ${member.name} ${this.selection(member, depth + 1)}`);
      }
    } else if (isObjectType(type)) {
      parts.push(...this.fields(type, depth));
    }
    if (parts.length === 0) parts.push('__typename');
    return `{ ${parts.join(' ')} }`;
  }

  private fields(type: GraphQLObjectType | GraphQLInterfaceType, depth: number): string[] {
    const all = Object.values(type.getFields());
    const chosen = this.draw(
      fc.shuffledSubarray(all, { minLength: 1, maxLength: Math.min(all.length, depth === 0 ? 2 : 4) }),
    );
    return chosen.map((field) => {
      const alias = this.draw(fc.integer({ min: 0, max: 9 })) === 0 ? `a${this.draw(fc.nat(99))}: ` : '';
      const key = alias ? alias.slice(0, -2) : field.name;
      const directive =
        this.draw(fc.integer({ min: 0, max: 19 })) === 0 ? ` @include(if: ${this.draw(fc.boolean())})` : '';
      const args = this.argumentsOf(field, depth === 0 ? key : undefined);
      return `${alias}${field.name}${args}${directive} ${this.selection(getNamedType(field.type), depth + 1)}`.trim();
    });
  }

  operation(root: GraphQLObjectType, keyword: 'query' | 'mutation'): GeneratedOperation {
    const body = this.selection(root, 0);
    const header = this.declarations.length > 0 ? `(${this.declarations.join(', ')})` : '';
    return {
      query: `${keyword} Fuzz${header} ${body}`,
      variables: this.variables,
      pageSizes: this.pageSizes,
    };
  }
}

/** Operations over the schema's own types, with valid and hostile arguments, inline or as variables. */
export function generatedOperations(
  schema: GraphQLSchema,
  known: KnownValues,
): fc.Arbitrary<GeneratedOperation> {
  return fc
    .record({
      mutation: fc.integer({ min: 0, max: 5 }).map((n) => n === 0),
      // Mostly shallow (deep operations on real data are slow to answer); sometimes past the depth limit of 12.
      maxDepth: fc.oneof(
        { arbitrary: fc.integer({ min: 1, max: 5 }), weight: 9 },
        { arbitrary: fc.integer({ min: 10, max: 16 }), weight: 1 },
      ),
      gen: fc.gen(),
    })
    .map(({ mutation, maxDepth, gen }) => {
      const draw: Draw = (arbitrary) => gen(() => arbitrary);
      const root = mutation ? schema.getMutationType() : schema.getQueryType();
      return new OperationWriter(known, draw, maxDepth).operation(root!, mutation ? 'mutation' : 'query');
    });
}

/** Damaged documents: cut short, with a character dropped or inserted, or plain text. */
export function damaged(operation: GeneratedOperation): fc.Arbitrary<GeneratedOperation> {
  const { query } = operation;
  return fc
    .oneof(
      fc.nat(query.length).map((at) => query.slice(0, at)),
      fc.nat(query.length).map((at) => query.slice(0, at) + query.slice(at + 1)),
      fc
        .tuple(
          fc.nat(query.length),
          fc.constantFrom('{', '}', '(', ')', '"', '$', '@', '...', '#', '\u0000', '\\u', ':'),
        )
        .map(([at, text]) => query.slice(0, at) + text + query.slice(at)),
      hostileText,
    )
    .map((text) => ({ ...operation, query: text, pageSizes: {} }));
}
