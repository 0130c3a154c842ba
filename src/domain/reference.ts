/** A record's reference in its textual form: any UUID, as PostgreSQL's `uuid` type reads it (hyphenated). */
const referencePattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isReference(text: string): boolean {
  return referencePattern.test(text);
}
