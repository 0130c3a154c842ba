import {
  type DocumentNode,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
  getNamedType,
  isAbstractType,
  isInterfaceType,
  isObjectType,
  OperationTypeNode,
  TypeInfo,
  visit,
  visitWithTypeInfo,
} from 'graphql';
import { type DataArea, dataAreas } from '../auth/plans.ts';

/**
 * Which data areas a document can touch, decided once per parsed document from the schema's `authScopes`
 * (`{ covers: area }` on types and fields): every field's own area, and the areas of every object type a field
 * can return (all possible types of an interface or union, and their interfaces), as the plan checks of
 * @pothos/plugin-scope-auth would run them on each object.
 */
export interface DocumentAreas {
  /** The areas, or undefined when an `authScopes` is not one this module can read (then the plan is checked per object). */
  areas: readonly DataArea[] | undefined;
  /**
   * One query operation without `@defer` or `@stream`, reading no introspection (rare, and answered by graphql-js as
   * the schema fetch is): what the compiled executor may run.
   */
  compilable: boolean;
}

type Scoped = { extensions?: { pothosOptions?: { authScopes?: unknown } } | null };

/** The area an `authScopes` names; null when there is none; undefined when it is not `{ covers: area }`. */
function areaOf(scoped: Scoped): DataArea | null | undefined {
  const scopes = scoped.extensions?.pothosOptions?.authScopes;
  if (scopes === undefined) return null;
  const covers = (scopes as { covers?: unknown }).covers;
  const known =
    typeof scopes === 'object' &&
    scopes !== null &&
    Object.keys(scopes).length === 1 &&
    dataAreas.includes(covers as DataArea);
  return known ? (covers as DataArea) : undefined;
}

/** The object types a value of `type` can be, each with the interfaces whose scopes run on it. */
function scopedTypesOf(schema: GraphQLSchema, type: GraphQLNamedType): Scoped[] {
  const objects = isAbstractType(type) ? schema.getPossibleTypes(type) : isObjectType(type) ? [type] : [];
  const scoped: Scoped[] = [...objects];
  for (const object of objects) scoped.push(...object.getInterfaces());
  if (isInterfaceType(type)) scoped.push(type);
  return scoped;
}

function collectAreas(schema: GraphQLSchema, document: DocumentNode): DocumentAreas {
  const areas = new Set<DataArea>();
  let readable = true;
  let operations = 0;
  let query = true;
  let incremental = false;
  let introspection = false;
  const add = (scoped: Scoped) => {
    const area = areaOf(scoped);
    if (area === undefined) readable = false;
    else if (area) areas.add(area);
  };
  const typeInfo = new TypeInfo(schema);
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      OperationDefinition(node) {
        operations += 1;
        if (node.operation !== OperationTypeNode.QUERY) query = false;
      },
      Directive(node) {
        if (node.name.value === 'defer' || node.name.value === 'stream') incremental = true;
      },
      Field(node) {
        if (node.name.value === '__schema' || node.name.value === '__type') introspection = true;
        const field = typeInfo.getFieldDef() as GraphQLField<unknown, unknown> | null;
        // A field the schema does not know fails validation before anything runs.
        if (!field) return;
        add(field);
        for (const scoped of scopedTypesOf(schema, getNamedType(field.type))) add(scoped);
      },
    }),
  );
  // The root type's own scopes run on its fields.
  for (const root of [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()]) {
    if (root) add(root);
  }
  return {
    areas: readable ? [...areas] : undefined,
    compilable: operations === 1 && query && !incremental && !introspection,
  };
}

const bySchema = new WeakMap<GraphQLSchema, WeakMap<DocumentNode, DocumentAreas>>();

/** The areas of a document, computed on its first execution and kept while the document is (Yoga's parse cache). */
export function documentAreas(schema: GraphQLSchema, document: DocumentNode): DocumentAreas {
  let byDocument = bySchema.get(schema);
  if (!byDocument) {
    byDocument = new WeakMap();
    bySchema.set(schema, byDocument);
  }
  let known = byDocument.get(document);
  if (!known) {
    known = collectAreas(schema, document);
    byDocument.set(document, known);
  }
  return known;
}

/** True when the plan covers every area the document can touch. */
export function coversDocument(covers: readonly DataArea[], known: DocumentAreas): boolean {
  return known.areas?.every((area) => covers.includes(area)) ?? false;
}
