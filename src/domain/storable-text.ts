/** PostgreSQL text and jsonb hold neither NUL nor unpaired UTF-16 surrogates (which JSON can spell as escapes). */
const unstorable = /\0|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export function isStorableText(text: string): boolean {
  return !unstorable.test(text);
}
