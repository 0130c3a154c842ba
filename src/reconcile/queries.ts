import { z } from 'zod';
import { invalidParameter } from '../domain/errors.ts';
import {
  type MatchedOn,
  type OrganisationInput,
  type ProfileInput,
  type ResolveRow,
  resolveOrganisations,
  resolveProfiles,
} from '../domain/resolve/index.ts';
import { maxMaxCandidates, maxResolveInputs } from '../domain/resolve/types.ts';
import type { RequestContext } from '../http/context.ts';
import { RequestError } from '../http/errors.ts';
import { type ReconcileTypeId, reconcileProperties, reconcileTypes, wireField } from './vocabulary.ts';

type Database = RequestContext['db'];

const entityValue = z.object({ id: z.string(), name: z.string().optional() });
const propertyValue = z.union([z.string(), z.number(), z.boolean(), entityValue]);

/** One reconciliation query, as the specification's query batch schema describes it. */
const querySchema = z
  .object({
    query: z.string().optional(),
    type: z.union([z.string(), z.array(z.string())]).optional(),
    limit: z.number().int().positive().optional(),
    properties: z
      .array(z.object({ pid: z.string(), v: z.union([propertyValue, z.array(propertyValue)]) }).strict())
      .optional(),
    type_strict: z.enum(['any', 'should', 'all']).optional(),
  })
  .strict();

type Query = z.infer<typeof querySchema>;
type PropertyValue = z.infer<typeof propertyValue>;

/** A query read into the matcher's terms: which records, the input, and how many candidates. */
interface ReadQuery {
  key: string;
  type: ReconcileTypeId;
  input: Record<string, string>;
  limit: number;
}

/** A reconciliation candidate as the specification serialises it. */
export interface ReconcileCandidate {
  id: string;
  name: string;
  description: string;
  score: number;
  match: boolean;
  type: { id: string; name: string }[];
  features: { id: string; value: boolean }[];
}

export type ReconcileResultBatch = Record<string, { result: ReconcileCandidate[] }>;

/** How many candidates a query gets when it names no limit. */
export const defaultReconcileLimit = 3;

/**
 * The batch from the `queries` parameter's text (JSON); INVALID_PARAMETER naming the query and field at fault,
 * PAYLOAD_TOO_LARGE past the batch size the manifest announces.
 */
export function parseQueryBatch(text: string): ReadQuery[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalidParameter('queries must be a JSON object of reconciliation queries.');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw invalidParameter('queries must be a JSON object of reconciliation queries, keyed by query id.');
  const entries = Object.entries(parsed);
  if (entries.length > maxResolveInputs)
    throw new RequestError(
      'PAYLOAD_TOO_LARGE',
      `queries: at most ${maxResolveInputs} queries a batch (the manifest's batchSize); got ${entries.length}.`,
    );
  return entries.map(([key, value]) => {
    const checked = querySchema.safeParse(value);
    if (!checked.success) {
      const issue = checked.error.issues[0]!;
      const where = [key, ...issue.path].join('.');
      throw invalidParameter(`queries.${where}: ${issue.message}.`);
    }
    return readQuery(key, checked.data);
  });
}

function readQuery(key: string, query: Query): ReadQuery {
  const type = readType(key, query.type);
  const properties = reconcileProperties[type];
  const input: Record<string, string> = {};
  if (query.query !== undefined) input.name = query.query;
  for (const [index, { pid, v }] of (query.properties ?? []).entries()) {
    const property = properties[pid];
    const where = `queries.${key}.properties.${index}`;
    if (!property)
      throw invalidParameter(
        `${where}.pid: ${type} has no property "${pid}"; its properties are ${Object.keys(properties).join(', ')}.`,
      );
    if (input[property.field] !== undefined)
      throw invalidParameter(
        pid === 'name'
          ? `${where}: the name is given twice (query and the name property); give it once.`
          : `${where}: the property ${pid} is given twice; give it once.`,
      );
    input[property.field] = readValue(where, pid, v);
  }
  if (query.query === undefined && !query.properties?.length)
    throw invalidParameter(`queries.${key}: give a query text, properties, or both.`);
  return { key, type, input, limit: Math.min(query.limit ?? defaultReconcileLimit, maxMaxCandidates) };
}

/** The first type the query names that the service knows; organisations when it names none. */
function readType(key: string, type: Query['type']): ReconcileTypeId {
  const named = type === undefined ? [] : Array.isArray(type) ? type : [type];
  if (named.length === 0) return 'Organisation';
  const known = named.find((id) => reconcileTypes.some((candidate) => candidate.id === id));
  if (!known)
    throw invalidParameter(
      `queries.${key}.type: no type ${named.join(', ')}; the types are ${reconcileTypes.map((t) => t.id).join(', ')}.`,
    );
  return known as ReconcileTypeId;
}

/** A property's one value as text: an entity (a reconciled value) gives its id for an organisation, else its name. */
function readValue(where: string, pid: string, value: PropertyValue | PropertyValue[]): string {
  const values = Array.isArray(value) ? value : [value];
  if (values.length !== 1)
    throw invalidParameter(`${where}.v: give one value for ${pid}; got ${values.length}.`);
  const [only] = values;
  if (typeof only === 'boolean') throw invalidParameter(`${where}.v: ${pid} takes text, not true or false.`);
  if (typeof only === 'number') return String(only);
  if (typeof only === 'string') return only;
  return pid === 'organisation' ? only!.id : (only!.name ?? only!.id);
}

/** The types a batch asks about, so that the caller's plan can be checked for each. */
export function typesOf(queries: readonly ReadQuery[]): ReconcileTypeId[] {
  return [...new Set(queries.map((query) => query.type))];
}

/**
 * Answers a batch: one resolve call per type for all its queries, each query's row turned into candidates. A
 * query's own `limit` cuts its candidates; the call asks for the most any query wants.
 */
export async function reconcileBatch(
  db: Database,
  queries: readonly ReadQuery[],
): Promise<ReconcileResultBatch> {
  const byType = (type: ReconcileTypeId) => queries.filter((query) => query.type === type);
  const organisations = byType('Organisation');
  const profiles = byType('Profile');
  const maxCandidates = (group: ReadQuery[]) => Math.max(1, ...group.map((query) => query.limit));
  const [organisationRows, profileRows] = await Promise.all([
    organisations.length
      ? resolveOrganisations(
          db,
          organisations.map((query) => query.input as OrganisationInput),
          {
            maxCandidates: maxCandidates(organisations),
          },
        )
      : [],
    profiles.length
      ? resolveProfiles(
          db,
          profiles.map((query) => query.input as ProfileInput),
          {
            maxCandidates: maxCandidates(profiles),
          },
        )
      : [],
  ]);
  const rows = new Map<ReadQuery, ResolveRow>();
  for (const [index, query] of organisations.entries()) rows.set(query, organisationRows[index]!);
  for (const [index, query] of profiles.entries()) rows.set(query, profileRows[index]!);
  // Built as entries: a query keyed `__proto__` is a key like any other, not the object's prototype.
  return Object.fromEntries(
    queries.map((query) => [query.key, { result: candidatesOf(query, rows.get(query)!) }]),
  );
}

function candidatesOf(query: ReadQuery, row: ResolveRow): ReconcileCandidate[] {
  const type = reconcileTypes.find((candidate) => candidate.id === query.type)!;
  return row.candidates.slice(0, query.limit).map((candidate, index) => ({
    id: candidate.reference,
    name: candidate.name,
    description: describeEvidence(candidate.matchedOn),
    score: candidate.score,
    match: index === 0 && row.status === 'matched',
    type: [{ id: type.id, name: type.name }],
    features: candidate.matchedOn.map(featureOf),
  }));
}

/**
 * A compared field as a matching feature: `name_normalised`, `country_disagrees`; true when the field supports the
 * candidate, false when it disagrees or the record has no value to compare. The values compared are in the
 * description, since a feature carries only a number or a boolean.
 */
export function featureOf(evidence: MatchedOn): { id: string; value: boolean } {
  return {
    id: `${wireField(evidence.field)}_${evidence.how}`,
    value: evidence.how !== 'disagrees' && evidence.how !== 'missing',
  };
}

/** `name normalised: “Acme Ltd” · country disagrees: “GB”`, what a person reads beside the candidate. */
export function describeEvidence(matchedOn: readonly MatchedOn[]): string {
  return matchedOn
    .map((evidence) => {
      const how = evidence.how.replace('_', ' ');
      return `${wireField(evidence.field)} ${how}${evidence.value === null ? '' : `: “${evidence.value}”`}`;
    })
    .join(' · ');
}
