import type { StoredRecordType } from './documents.ts';
import { type ColumnValue, recordRows, stagedRowsTable, type TableRows } from './record-rows.ts';

/**
 * The set-based statements that store staged records of a type (record-rows.ts says which rows), read from the
 * staging table as jsonb. In a batch (`$1` is the batch number) they store the records whose outcome is
 * `inserted` or `updated` (classified beforehand against the stored documents, so an unchanged record is never
 * written); a list whose entries carry their own reference (aliases, client summaries, annotations, ...) is
 * upserted and loses only the entries no longer listed, so that what links to a kept entry (an event to its
 * client summary) stays; the other lists are replaced. In an initial load (into empty tables) they insert every
 * valid record of the type at once.
 */
export type WriteMode = 'batch' | 'initial';

/** A column's value in SQL, read from the staged document `s.doc`, a list's entry `e` or an object's value `p`. */
function expression(value: ColumnValue, cast = ''): string {
  if (value.of === 'reference') return 's.reference';
  if (value.of === 'key') return `p.key${cast}`;
  const base = value.of === 'record' ? 's.doc' : value.of === 'entry' ? 'e' : 'p.value';
  if (value.json) return `${base}->'${value.path.join("'->'")}'`;
  if (value.path.length === 1) return `(${base}->>'${value.path[0]}')${cast}`;
  return `(${base} #>> '{${value.path.join(',')}}')${cast}`;
}

function buildWriteStatements(mode: WriteMode): Record<StoredRecordType, readonly string[]> {
  /** The records to write, with `lateral` joined to each (a list's entries). */
  const changed = (type: string, lateral = '') =>
    mode === 'initial'
      ? `import_staged s ${lateral} where s.type = '${type}' and s.state = 'valid' and not s.deleted`
      : `import_outcomes o join import_staged s on s.id = o.id ${lateral}
    where o.type = '${type}' and o.batch = $1 and o.outcome in ('inserted', 'updated')`;

  /** Only an updated record can have entries stored that it no longer lists; a new one has none. */
  const updated = (type: string) =>
    `import_outcomes o join import_staged s on s.id = o.id where o.type = '${type}' and o.batch = $1 and o.outcome = 'updated'`;

  function statementsOf(type: string, rows: TableRows): string[] {
    const columns = rows.columns.map(([column]) => column);
    const from =
      rows.over === null
        ? changed(type)
        : 'list' in rows.over
          ? changed(type, `cross join lateral jsonb_array_elements(s.doc->'${rows.over.list}') e`)
          : `${changed(type, `cross join lateral jsonb_each(s.doc->'${rows.over.object}') p`)}${
              rows.over.objects ? ` and jsonb_typeof(p.value) = 'object'` : ''
            }`;
    const insert = `insert into ${rows.table} (${columns.join(', ')})
    select ${rows.columns.map(([, value, cast]) => expression(value, cast)).join(', ')} from ${from}`;
    if (mode === 'initial') return [insert];
    if ('replace' in rows.keep) {
      return [
        `delete from ${rows.table} c using ${updated(type)} and c.${rows.keep.replace} = s.reference`,
        insert,
      ];
    }
    const updates = columns.filter((name) => name !== 'reference');
    const upsert = `${insert}
    on conflict (reference) do update set ${updates.map((name) => `${name} = excluded.${name}`).join(', ')}`;
    if (!rows.keep.prune || rows.over === null || !('list' in rows.over)) return [upsert];
    // An updated record's entries that its list no longer names.
    const prune = `delete from ${rows.table} c using ${updated(type)}
    and c.${rows.keep.prune} = s.reference
    and not (s.doc->'${rows.over.list}' @> jsonb_build_array(jsonb_build_object('reference', c.reference)))`;
    return [prune, upsert];
  }

  const statements = {} as Record<StoredRecordType, readonly string[]>;
  for (const [type, tables] of Object.entries(recordRows) as [StoredRecordType, readonly TableRows[]][]) {
    statements[type] = tables.flatMap((rows) => statementsOf(type, rows));
  }
  return statements;
}

/** Per type, the statements that store one batch (`$1`): upserts, and the pruning of lists. */
export const writeStatements = buildWriteStatements('batch');

/** Per type, the statements that insert every valid staged record into empty tables (no parameters). */
export const initialWriteStatements = buildWriteStatements('initial');

/**
 * Per type, the statements that insert every valid staged record into empty tables from the rows its reading
 * staged (a first import from files: see appendRecordRows), rather than from its document. They leave out the rows
 * of the records listed in `import_unstored` (every staged record not valid: rejected, or a repeat), usually none,
 * which the load lists first (unstoredRecords).
 */
export const initialRowStatements = (() => {
  const statements = {} as Record<StoredRecordType, readonly string[]>;
  for (const [type, tables] of Object.entries(recordRows) as [StoredRecordType, readonly TableRows[]][]) {
    statements[type] = tables.map((rows) => {
      const columns = rows.columns.map(([column]) => column);
      return `insert into ${rows.table} (${columns.join(', ')})
    select ${columns.map((column) => `r.${column}`).join(', ')}
      from ${stagedRowsTable(rows.table)} r
     where not exists (select 1 from import_unstored u where u.id = r.import_id)`;
    });
  }
  return statements;
})();

/** Lists the staged records whose rows initialRowStatements leave out, and gives the planner their number. */
export const unstoredRecords = `
  create temporary table import_unstored on commit drop as select id from import_staged where state <> 'valid';
  analyze import_unstored`;
