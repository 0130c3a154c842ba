/**
 * The staging tables' rows in PostgreSQL's COPY text format, built wherever a line is read (on the read pool's
 * threads as well as on the import's own), so that staging only joins strings and sends them. No imports: a
 * worker thread loads this module without the database driver.
 */

const specialCharacters = /[\\\t\n\r]/;

/** One field in COPY text format: `\N` for null, backslash escapes for the separators. */
export function copyField(value: string | number | boolean | null): string {
  if (value === null) return '\\N';
  if (typeof value === 'boolean') return value ? 't' : 'f';
  if (typeof value === 'number') return String(value);
  if (!specialCharacters.test(value)) return value;
  return value.replace(/[\\\t\n\r]/g, (c) =>
    c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r',
  );
}

/**
 * A JSON text as one field in COPY text: JSON escapes tabs, line ends and every other control character, so only
 * its backslashes need escaping.
 */
export function copyJson(text: string): string {
  return text.includes('\\') ? text.replaceAll('\\', '\\\\') : text;
}

/**
 * The staged record of line `line` of the import's file number `source`: ids follow the order of the files and of
 * their lines, which is the order the import reads them in (duplicates keep the first), whoever reads them.
 */
export function stagingId(source: number, line: number): number {
  return source * 2 ** 32 + line;
}

/** import_staged's columns in the order of a staged row: the batch, then its head, then the document. */
export const stagedColumns = [
  'batch',
  'id',
  'type',
  'reference',
  'source',
  'line',
  'deleted',
  'digest',
  'line_digest',
  'known_line',
  'doc',
] as const;

export interface StagedRowFields {
  source: number;
  line: number;
  type: string;
  reference: string;
  deleted: boolean;
  digest: string;
  lineDigest: string;
  knownLine: boolean;
}

/** A staged row's fields from the id to `known_line`, each followed by a tab: the batch goes before, the document after. */
export function stagedRowHead(fields: StagedRowFields): string {
  return `${stagingId(fields.source, fields.line)}\t${fields.type}\t${fields.reference}\t${fields.source}\t${
    fields.line
  }\t${fields.deleted ? 't' : 'f'}\t${fields.digest}\t${fields.lineDigest}\t${fields.knownLine ? 't' : 'f'}\t`;
}

/** The rows of import_keys (kind, key, id) for a parsed record: its own key (a deletion's is a kind of its own) and its extra keys. */
export function keyRows(
  fields: Pick<StagedRowFields, 'source' | 'line' | 'type' | 'reference' | 'deleted'>,
  extraKeys: ReadonlyArray<readonly [kind: string, key: string]>,
): string {
  const id = stagingId(fields.source, fields.line);
  let rows = `${fields.deleted ? `deleted:${fields.type}` : fields.type}\t${fields.reference}\t${id}\n`;
  for (const [kind, key] of extraKeys) rows += `${kind}\t${copyField(key)}\t${id}\n`;
  return rows;
}

/** The rows of import_links (id, link, key) for a parsed record's links, each given by its code (linkCode) and key. */
export function linkRows(
  fields: Pick<StagedRowFields, 'source' | 'line'>,
  links: ReadonlyArray<readonly [code: number, key: string]>,
): string {
  const id = stagingId(fields.source, fields.line);
  let rows = '';
  for (const [code, key] of links) rows += `${id}\t${code}\t${copyField(key)}\n`;
  return rows;
}
