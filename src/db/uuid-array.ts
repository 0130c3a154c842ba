/**
 * References as one PostgreSQL array literal, for a single `uuid[]` parameter: the statement's text then does not
 * depend on how many there are, so it is prepared once. Only for values without commas, quotes or braces (UUIDs).
 */
export function uuidArrayLiteral(references: readonly string[]): string {
  return `{${references.join(',')}}`;
}
