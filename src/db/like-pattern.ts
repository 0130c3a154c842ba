/** A LIKE pattern matching `text` anywhere, with `%`, `_` and `\\` escaped so that they match themselves. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}
