/** The import's record types, in the order they are stored (a type links only to types before it). */
export const recordTypeNames = [
  'occupation',
  'organisation',
  'profile',
  'experience',
  'organisation_ownership',
  'profile_stake',
  'article',
  'event',
] as const;

export type RecordTypeName = (typeof recordTypeNames)[number];

export function isRecordTypeName(value: unknown): value is RecordTypeName {
  return typeof value === 'string' && (recordTypeNames as readonly string[]).includes(value);
}
