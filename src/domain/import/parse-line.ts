import { type CanonicalRecord, canonicalRecord } from './canonical.ts';
import { deletionRecord, isRecordType, type RecordType, recordSchemas, recordTypes } from './records.ts';

export type ParsedLine =
  | { ok: true; type: RecordType; reference: string; deleted: boolean; record: CanonicalRecord | null }
  | { ok: false; value: unknown; reasons: string[] };

function describeIssues(issues: readonly { path: PropertyKey[]; message: string }[]): string[] {
  return issues.map((issue) => {
    const path = issue.path.map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`));
    const where = path.join('').replace(/^\./, '');
    return where ? `${where}: ${issue.message}` : issue.message;
  });
}

/**
 * Parses and validates one line. `defaultType` is the type the file's name gives (`organisations.ndjson`), used
 * when a record has no `type` of its own.
 */
export function parseLine(text: string, defaultType: RecordType | null): ParsedLine {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, value: undefined, reasons: [`not JSON: ${(error as Error).message}`] };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, value, reasons: ['not a JSON object'] };
  }
  const object = value as Record<string, unknown>;
  const type = object.type ?? defaultType;
  if (type === undefined || type === null) {
    return { ok: false, value, reasons: ['missing type (and the file name names none)'] };
  }
  if (!isRecordType(type)) {
    return {
      ok: false,
      value,
      reasons: [`unknown type ${JSON.stringify(type)} (expected one of ${recordTypes.join(', ')})`],
    };
  }
  // JSON writes U+0000 only escaped; PostgreSQL's text and jsonb hold none, so a record carrying one cannot be stored.
  if (text.includes('\\u0000')) {
    const paths = nulPaths(object, '');
    if (paths.length > 0) {
      return {
        ok: false,
        value,
        reasons: paths.map((path) => `${path}: holds U+0000 (NUL), which text cannot hold`),
      };
    }
  }
  if ('deleted' in object) {
    const parsed = deletionRecord.safeParse(object);
    if (!parsed.success) return { ok: false, value, reasons: describeIssues(parsed.error.issues) };
    return { ok: true, type, reference: parsed.data.reference.toLowerCase(), deleted: true, record: null };
  }
  const parsed = recordSchemas[type].safeParse(object);
  if (!parsed.success) return { ok: false, value, reasons: describeIssues(parsed.error.issues) };
  const canonical = canonicalRecord(type, parsed.data);
  if ('reasons' in canonical) return { ok: false, value, reasons: canonical.reasons };
  return { ok: true, type, reference: canonical.record.reference, deleted: false, record: canonical.record };
}

/** Where U+0000 is in a parsed value, in the paths validation messages use (`annotations[0].text`). */
function nulPaths(value: unknown, path: string): string[] {
  if (typeof value === 'string') return value.includes('\u0000') ? [path || '(value)'] : [];
  if (value === null || typeof value !== 'object') return [];
  if (Array.isArray(value)) return value.flatMap((item, index) => nulPaths(item, `${path}[${index}]`));
  return Object.entries(value).flatMap(([key, item]) => {
    const at = path ? `${path}.${key}` : key;
    return key.includes('\u0000') ? [at] : nulPaths(item, at);
  });
}

/** The type a file's name stands for: `organisations.ndjson`, `profile_stake.jsonl`, `events.json`. */
export function typeOfFileName(name: string): RecordType | null {
  const base = name
    .split(/[\\/]/)
    .pop()
    ?.replace(/\.(ndjson|jsonl|json)$/i, '')
    .toLowerCase();
  if (!base) return null;
  if (isRecordType(base)) return base;
  const singular = base.endsWith('s') ? base.slice(0, -1) : base;
  return isRecordType(singular) ? singular : null;
}
