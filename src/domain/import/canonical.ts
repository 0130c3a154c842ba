import type { z } from 'zod';
import type { RecordType, recordSchemas } from './records.ts';

/**
 * A record in the one form the store gives back (the form `orgraph export` writes): every optional field
 * present, references lower case, date-times in UTC to the millisecond, `real` columns at single precision, and
 * lists in a fixed order. Comparing an import's record with the stored one is then a plain equality, which is
 * what makes a second import of the same file change nothing.
 */
export type CanonicalRecord = Record<string, unknown> & { type: RecordType; reference: string };

const timestampKeys = new Set(['publish_date', 'published_at', 'effective_date']);
const singlePrecisionKeys = new Set(['confidence_score']);
/** A date-time as toISOString gives it; the schema has checked that it is a day of the calendar. */
const utcTimestamp = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** What the canonical form does with a field, by its name: the schemas' names are few, so each is looked at once. */
type FieldKind = 'reference' | 'timestamp' | 'real' | 'given' | 'plain';
const fieldKinds = new Map<string, FieldKind>();

function kindOf(key: string): FieldKind {
  let kind = fieldKinds.get(key);
  if (kind === undefined) {
    kind =
      key.endsWith('reference') || key.endsWith('references')
        ? 'reference'
        : timestampKeys.has(key)
          ? 'timestamp'
          : singlePrecisionKeys.has(key)
            ? 'real'
            : key === 'data' || key === 'entries'
              ? 'given'
              : 'plain';
    fieldKinds.set(key, kind);
  }
  return kind;
}

/** The shortest decimal that PostgreSQL prints for `value` stored as `real`. */
export function singlePrecision(value: number): number {
  const stored = Math.fround(value);
  for (let digits = 1; digits <= 9; digits += 1) {
    const candidate = Number.parseFloat(stored.toPrecision(digits));
    if (Math.fround(candidate) === stored) return candidate;
  }
  return stored;
}

const byKey =
  (key: string) =>
  (a: Record<string, unknown>, b: Record<string, unknown>): number => {
    const x = String(a[key]);
    const y = String(b[key]);
    return x < y ? -1 : x > y ? 1 : 0;
  };

/** How the lists of each record are ordered, and which field identifies an entry. */
const listKeys: [list: string, key: string][] = Object.entries({
  aliases: 'reference',
  tickers: 'reference',
  domains: 'reference',
  phones: 'reference',
  client_summaries: 'reference',
  emails: 'reference',
  annotations: 'reference',
  industries: 'code',
  participants: 'profile_reference',
});
const listOrders = new Map(listKeys.map(([, key]) => [key, byKey(key)]));
const referenceLists = ['organisation_references', 'article_references'];

/** `value` with the keys of every object in it sorted; the parts already sorted are returned as they are. */
function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) {
    let out = value;
    for (let i = 0; i < value.length; i += 1) {
      const item = sortedKeys(value[i]);
      if (item === value[i]) continue;
      if (out === value) out = value.slice();
      out[i] = item;
    }
    return out;
  }
  if (value === null || typeof value !== 'object') return value;
  const object = value as Record<string, unknown>;
  const fields = Object.keys(object);
  let changed = false;
  for (let i = 0; i < fields.length && !changed; i += 1) {
    const field = fields[i] as string;
    changed = (i > 0 && (fields[i - 1] as string) > field) || sortedKeys(object[field]) !== object[field];
  }
  if (!changed) return value;
  const out: Record<string, unknown> = {};
  for (const field of fields.sort()) out[field] = sortedKeys(object[field]);
  return out;
}

/**
 * `value` in canonical form, changed in place: it is the schema's output, which nothing else holds. Event `data`
 * and client summary `entries` are the exception, read as given: they are copied where their keys need sorting.
 */
function normalise(value: unknown, key: string): unknown {
  if (value === null || value === undefined) return value;
  const kind = kindOf(key);
  if (typeof value === 'string') {
    if (kind === 'reference') return value.toLowerCase();
    if (kind === 'timestamp') return utcTimestamp.test(value) ? value : new Date(value).toISOString();
    return value;
  }
  if (typeof value === 'number') return kind === 'real' ? singlePrecision(value) : value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i += 1) value[i] = normalise(value[i], key);
    return value;
  }
  if (typeof value === 'object') {
    // Sorted (the order means nothing to jsonb) so that equal content gives equal JSON text, and so equal digests.
    if (kind === 'given') return sortedKeys(value);
    const object = value as Record<string, unknown>;
    for (const field of Object.keys(object)) {
      const inner = object[field];
      if (inner === undefined) delete object[field];
      else object[field] = normalise(inner, field);
    }
    return object;
  }
  return value;
}

/**
 * The canonical record, or the reasons it cannot be stored that the schema alone does not see (an entry listed
 * twice in one of its lists).
 */
export function canonicalRecord(
  type: RecordType,
  parsed: z.output<(typeof recordSchemas)[RecordType]>,
): { record: CanonicalRecord } | { reasons: string[] } {
  const record = normalise(Object.assign(parsed, { type }), '') as CanonicalRecord;
  const reasons: string[] = [];
  for (const [list, key] of listKeys) {
    const entries = record[list];
    if (!Array.isArray(entries) || entries.length < 2) continue;
    entries.sort(listOrders.get(key));
    for (let i = 1; i < entries.length; i += 1) {
      if (entries[i][key] === entries[i - 1][key]) {
        reasons.push(`${list}: ${key} ${entries[i][key]} is listed twice`);
      }
    }
  }
  for (const list of referenceLists) {
    const entries = record[list];
    if (!Array.isArray(entries) || entries.length < 2) continue;
    entries.sort();
    for (let i = 1; i < entries.length; i += 1) {
      if (entries[i] === entries[i - 1]) reasons.push(`${list}: ${entries[i]} is listed twice`);
    }
  }
  return reasons.length > 0 ? { reasons } : { record };
}
