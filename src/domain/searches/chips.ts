import { createHash } from 'node:crypto';
import { isReference } from '../reference.ts';
import { isStorableText } from '../storable-text.ts';
import type { StoredChip } from '../vocabulary/searches.ts';

/** The one message every malformed chip list gets, as the interface spells it. */
export const invalidChipsMessage = 'Invalid chip data detected.';

/** Field types the event search filters on; any other condition chip is accepted and ignored. */
export const supportedFieldTypes = [
  'Organisation',
  'Occupation',
  'MoveType',
  'EventType',
  'DealStatus',
  'DealType',
] as const;
export type SupportedFieldType = (typeof supportedFieldTypes)[number];

/** The `fieldType` of a join chip. */
export const joinFieldType = 'Operator';
export const joinValues = ['AND', 'OR'] as const;
export type JoinValue = (typeof joinValues)[number];

/** Condition operators the search understands; compared case-insensitively, stored upper case. */
export const knownOperators = ['EQUAL'] as const;

/** A bound on the work one saved search can ask for; the interface leaves the maximum open. */
export const maxChips = 100;

/** Field types whose value is a record reference, so must be a UUID. */
const referenceFieldTypes: ReadonlySet<string> = new Set(['Organisation', 'Occupation']);

export interface ConditionChip {
  fieldType: string;
  label: string;
  value: string;
  operator: string;
}

export interface JoinChip {
  fieldType: typeof joinFieldType;
  label: string;
  value: JoinValue;
}

export type Chip = ConditionChip | JoinChip;

export type ParsedChips =
  | { valid: true; chips: Chip[]; ignoredFieldTypes: string[] }
  | { valid: false; reason: string };

export function isJoinChip(chip: Chip | StoredChip): chip is JoinChip {
  return chip.fieldType === joinFieldType && (!('operator' in chip) || chip.operator === undefined);
}

export function isSupportedFieldType(fieldType: string): fieldType is SupportedFieldType {
  return (supportedFieldTypes as readonly string[]).includes(fieldType);
}

/**
 * Checks and normalises a search's chips: condition chips alternate with join chips, starting and
 * ending on a condition. Normalising upper-cases operators and join values, trims condition values and
 * lower-cases UUIDs, so that chips that mean the same thing are stored (and fingerprinted) the same;
 * labels are kept as sent. `reason` says what was wrong, for logs and tests; callers show the
 * interface's single message.
 */
export function parseChips(input: unknown): ParsedChips {
  if (!Array.isArray(input)) return { valid: false, reason: 'the query is not an array' };
  if (input.length === 0) return { valid: false, reason: 'the query has no chips' };
  if (input.length > maxChips) return { valid: false, reason: `the query has more than ${maxChips} chips` };
  const chips: Chip[] = [];
  const ignored: string[] = [];
  for (const [position, raw] of input.entries()) {
    const expectCondition = position % 2 === 0;
    const chip = expectCondition ? parseConditionChip(raw) : parseJoinChip(raw);
    if (typeof chip === 'string') return { valid: false, reason: `chip ${position + 1}: ${chip}` };
    if (!isStorable(chip)) {
      return {
        valid: false,
        reason: `chip ${position + 1}: text the database cannot store (NUL or a lone surrogate)`,
      };
    }
    chips.push(chip);
    if (!isJoinChip(chip) && !isSupportedFieldType(chip.fieldType) && !ignored.includes(chip.fieldType)) {
      ignored.push(chip.fieldType);
    }
  }
  if (isJoinChip(chips[chips.length - 1]!)) return { valid: false, reason: 'the query ends on a join chip' };
  return { valid: true, chips, ignoredFieldTypes: ignored };
}

function isStorable(chip: Chip): boolean {
  return Object.values(chip).every((text) => typeof text !== 'string' || isStorableText(text));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseConditionChip(raw: unknown): ConditionChip | string {
  if (!isRecord(raw)) return 'not an object';
  const { fieldType, label, value, operator } = raw;
  if (fieldType === joinFieldType && operator === undefined) return 'a join chip where a condition belongs';
  if (typeof fieldType !== 'string' || fieldType.trim() === '') return 'fieldType is not a non-empty string';
  if (typeof label !== 'string') return 'label is not a string';
  if (typeof value !== 'string' || value.trim() === '') return 'value is not a non-empty string';
  if (typeof operator !== 'string') return 'operator is not a string';
  const normalisedOperator = operator.trim().toUpperCase();
  if (!(knownOperators as readonly string[]).includes(normalisedOperator)) {
    return `unknown operator ${JSON.stringify(operator)}`;
  }
  let normalisedValue = value.trim();
  if (referenceFieldTypes.has(fieldType)) {
    if (!isReference(normalisedValue)) return `${fieldType} value is not a UUID`;
    normalisedValue = normalisedValue.toLowerCase();
  }
  return { fieldType, label, value: normalisedValue, operator: normalisedOperator };
}

function parseJoinChip(raw: unknown): JoinChip | string {
  if (!isRecord(raw)) return 'not an object';
  const { fieldType, label, value, operator } = raw;
  // A join chip carries no operator; a chip with one here is a second condition in a row.
  if (fieldType !== joinFieldType || operator !== undefined) return 'a condition chip where a join belongs';
  if (typeof label !== 'string') return 'label is not a string';
  if (typeof value !== 'string') return 'value is not a string';
  const join = value.trim().toUpperCase();
  if (join !== 'AND' && join !== 'OR') return `join value ${JSON.stringify(value)} is neither AND nor OR`;
  return { fieldType: joinFieldType, label, value: join };
}

/** The stored form: a fixed key order, `operator` only on conditions. */
export function toStoredChips(chips: readonly Chip[]): StoredChip[] {
  return chips.map((chip) =>
    isJoinChip(chip)
      ? { fieldType: chip.fieldType, label: chip.label, value: chip.value }
      : { fieldType: chip.fieldType, label: chip.label, value: chip.value, operator: chip.operator },
  );
}

/**
 * Identifies a normalised chip list: identical chips (labels included, since the interface promises
 * the same `queryId` for identical chips, not for equivalent searches) share one saved search.
 */
export function fingerprintChips(chips: readonly Chip[]): string {
  return createHash('sha256')
    .update(JSON.stringify(toStoredChips(chips)))
    .digest('hex');
}

/** A saved chip list as OR-ed groups of AND-ed conditions: AND binds tighter than OR. */
export function groupConditions(chips: readonly StoredChip[]): ConditionChip[][] {
  const groups: ConditionChip[][] = [[]];
  for (const chip of chips) {
    if (isJoinChip(chip)) {
      if (chip.value === 'OR') groups.push([]);
      continue;
    }
    groups[groups.length - 1]!.push({ ...chip, operator: chip.operator ?? 'EQUAL' });
  }
  return groups.filter((group) => group.length > 0);
}
