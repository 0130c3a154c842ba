import { recordTables, type StoredRecordType } from './documents.ts';
import { rowColumns, stagedRowsTable } from './record-rows.ts';
import type { BulkSession } from './session.ts';
import { stagedColumns } from './staged-rows.ts';
import { linkCode, storedExtraKeys, storedLinks } from './stored-links.ts';
import { writeStatements } from './write-records.ts';

/**
 * The staging area of one import: every valid record of the import as a jsonb document in a temporary table
 * of the session, so that references can be resolved across files and in any order, set-based, before anything
 * is stored. `state` is `valid`, `duplicate` (the same content again), `rejected` (conflicting duplicates) or
 * `unlinked` (a link that resolves nowhere); `outcome` is `inserted`, `updated`, `unchanged`, `deleted` or
 * `absent` (a deletion of a record not stored).
 */

/**
 * COPY text for the staging tables, in parts: import_staged's rows (the batch, stagedRowHead, the document),
 * import_keys' and import_links', and, when the records are staged as their rows, those rows by table.
 */
export interface StagingText {
  staged: Uint8Array<ArrayBuffer>[];
  keys: Uint8Array<ArrayBuffer>[];
  links: Uint8Array<ArrayBuffer>[];
  rows: Map<string, Uint8Array<ArrayBuffer>[]>;
}

const rowsTables = [...rowColumns.keys()].map(stagedRowsTable);

export interface StagedLink {
  path: string;
  target: StoredRecordType | 'client_summary' | 'industry';
}

/**
 * Creates the staging tables; with `rows`, also one per table a record is stored in, for its rows as its reading
 * built them (appendRecordRows), each after the id of its staged record.
 */
export async function createStaging(session: BulkSession, options: { rows: boolean }): Promise<void> {
  await dropStaging(session);
  if (options.rows) {
    for (const [table, columns] of rowColumns) {
      await session.query(
        `create temporary table ${stagedRowsTable(table)} as select null::bigint as import_id, ${columns.join(', ')} from ${table} with no data`,
      );
    }
  }
  await session.query(`
    create temporary table import_sources (id integer primary key, name text not null);
    create temporary table import_staged (
      id bigint not null, type text not null, reference uuid not null, source integer not null,
      line bigint not null, deleted boolean not null, doc jsonb, digest uuid not null,
      line_digest uuid not null, known_line boolean not null default false, state text not null default 'valid', reasons text[] not null default '{}', batch integer
    );
    alter table import_staged alter column doc set storage external;
    create temporary table import_keys (kind text not null, key text not null, id bigint not null);
    create temporary table import_outcomes (
      id bigint primary key, type text not null, batch integer, outcome text not null,
      digest uuid, known boolean not null default false
    );
    create index on import_outcomes (type, batch);
    create temporary table import_links (id bigint not null, link smallint not null, key text not null);`);
}

export async function dropStaging(session: BulkSession): Promise<void> {
  await session.query(
    `drop table if exists import_staged, import_keys, import_links, import_outcomes, import_sources, ${rowsTables.join(', ')}`,
  );
}

/** Names the import's files, for the messages that point at lines. */
export async function addSource(session: BulkSession, id: number, name: string): Promise<void> {
  await session.query('insert into import_sources (id, name) values ($1, $2)', [id, name]);
}

/** Whether the store keeps any record digest: none before the first import, and after a seed. */
export async function anyDigestsKept(session: BulkSession): Promise<boolean> {
  const [row] = await session.query<{ kept: boolean }>(
    'select exists (select 1 from record_digests) as kept',
  );
  return Boolean(row?.kept);
}

/** The lines of a chunk to look up in the store: each one's number in its file and its digest (lineDigestOf). */
export interface LinesToLookUp {
  /** The file's number in the import. */
  source: number;
  lines: ReadonlyArray<{ number: number; digest: string }>;
}

/**
 * Stages, in one statement, the lines of a chunk that the store knows: those it stored or confirmed a record from
 * (record_digests) unchanged since, each staged as that record without its document and without being parsed.
 * Returns how many it staged, and the numbers of the lines it did not know, which are to be parsed. Known lines are
 * in no batch: they are only confirmed (confirmKnownLines), never written. The lines' digests travel as one text,
 * and only the unknown lines come back.
 */
export async function stageKnownLines(
  session: BulkSession,
  chunk: LinesToLookUp,
): Promise<{ known: number; unknown: Set<number> }> {
  if (chunk.lines.length === 0) return { known: 0, unknown: new Set() };
  let digests = '';
  let numbers = '';
  for (const [index, line] of chunk.lines.entries()) {
    digests += index === 0 ? line.digest : `,${line.digest}`;
    numbers += index === 0 ? String(line.number) : `,${line.number}`;
  }
  const [row] = await session.query<{ known: number; unknown: string }>(
    `with chunk as (
       select c.line_digest, c.line
         from unnest(string_to_array($1, ',')::uuid[], string_to_array($2, ',')::bigint[]) as c(line_digest, line)
     ), known as (
       -- The array keeps the probes to the index: joined to the chunk alone, the planner read all of it.
       select distinct on (c.line) c.line, c.line_digest, d.type, d.reference, d.digest
         from record_digests d join chunk c on c.line_digest = d.line_digest
        where d.line_digest = any(string_to_array($1, ',')::uuid[])
        order by c.line
     ), staged as (
       insert into import_staged (id, type, reference, source, line, deleted, digest, line_digest, known_line)
       select $3::bigint * ${2 ** 32} + k.line, k.type, k.reference, $3::integer, k.line, false, k.digest,
              k.line_digest, true
         from known k
       returning 1
     )
     select (select count(*) from staged)::integer as known,
            (select coalesce(string_agg(c.line::text, ','), '') from chunk c
              where c.line not in (select k.line from known k)) as unknown`,
    [digests, numbers, chunk.source],
  );
  const unknown = new Set<number>();
  if (row?.unknown) for (const number of row.unknown.split(',')) unknown.add(Number(number));
  return { known: Number(row?.known ?? 0), unknown };
}

/**
 * Adds records to the staging tables with one COPY per table, in COPY text as their reading built it (see
 * staged-rows.ts): their rows, and the rows of import_keys and import_links.
 */
export async function stageRows(session: BulkSession, rows: StagingText): Promise<void> {
  const any = (parts: readonly Uint8Array[]) => parts.some((part) => part.length > 0);
  if (any(rows.staged)) await session.copy('import_staged', stagedColumns, rows.staged);
  if (any(rows.keys)) await session.copy('import_keys', ['kind', 'key', 'id'], rows.keys);
  if (any(rows.links)) await session.copy('import_links', ['id', 'link', 'key'], rows.links);
  for (const [table, parts] of rows.rows) {
    if (any(parts)) {
      await session.copy(stagedRowsTable(table), ['import_id', ...(rowColumns.get(table) ?? [])], parts);
    }
  }
}

/**
 * Stages the keys of the records staged from known lines, their extra keys (client summaries) and, with `links`,
 * their links, read from the store: such a record is stored as the line gives it, so its stored links are the
 * line's. Run once the reading is done, before {@link settleDuplicates}.
 *
 * A known record's links all name stored records (every link column is a foreign key, and a write that changes
 * the record forgets its digest), so they can fail to resolve only when the import deletes their target or, for
 * a client summary, when the import's own version of its organisation no longer lists it. Without deletions
 * and parsed organisations in the import, `links` is false and they are not staged: the usual re-import.
 */
export async function stageStoredLinks(session: BulkSession, options: { links: boolean }): Promise<void> {
  await session.query(
    'insert into import_keys (kind, key, id) select type, reference::text, id from import_staged where known_line',
  );
  for (const [type, links] of Object.entries(options.links ? storedLinks : {})) {
    for (const link of links) {
      await session.query(`
        insert into import_links (id, link, key)
          select s.id, ${linkCode(type, link.path)}, x.${link.column}::text
            from import_staged s join ${link.table} x on x.${link.owner} = s.reference
           where s.type = '${type}' and s.known_line and x.${link.column} is not null`);
    }
  }
  for (const [type, keys] of Object.entries(storedExtraKeys)) {
    for (const key of keys ?? []) {
      await session.query(`
        insert into import_keys (kind, key, id)
          select '${key.kind}', x.${key.column}::text, s.id
            from import_staged s join ${key.table} x on x.${key.owner} = s.reference
           where s.type = '${type}' and s.known_line`);
    }
  }
}

/**
 * Indexes the staged records by batch, for an import stored batch by batch (an initial load reads them by type).
 * Once per import; a no-op after the first.
 */
export async function indexBatches(session: BulkSession): Promise<void> {
  await session.query('create index if not exists import_staged_type_batch on import_staged (type, batch)');
}

/** Indexes the staging tables once they are full, and marks repeated references. */
export async function settleDuplicates(session: BulkSession): Promise<void> {
  // The key is built once the table is full rather than kept up at each COPY.
  await session.query(`
    alter table import_staged add primary key (id);
    create index on import_staged (type, reference);
    create index on import_keys (kind, key);
    create index on import_keys (id);
    create index on import_links (link);
    analyze import_staged, import_keys, import_links;`);
  await session.query(`
    with repeated as (
      select type, reference, min(id) as first from import_staged group by type, reference having count(*) > 1
    ), versions as (
      -- Only the repeated references' digests are compared, rather than sorting every document.
      select r.type, r.reference, r.first, count(distinct s.digest) as versions,
             string_agg(f.name || ' line ' || s.line, ', ' order by s.id) as places
        from repeated r
        join import_staged s on s.type = r.type and s.reference = r.reference
        join import_sources f on f.id = s.source
       group by r.type, r.reference, r.first
    )
    , marked as (
      update import_staged s
         set state = case when r.versions > 1 then 'rejected' when s.id = r.first then s.state else 'duplicate' end,
             reasons = case when r.versions > 1
               then s.reasons || ('reference ' || s.reference || ' appears more than once in this import with different content (' || r.places || ')')
               else s.reasons end
        from versions r
       where s.type = r.type and s.reference = r.reference
      returning s.id, s.state
    )
    delete from import_keys k using marked m where k.id = m.id and m.state <> 'valid'`);
}

function storedTarget(target: StagedLink['target'], value: string): string {
  if (target === 'industry') return `exists (select 1 from industries x where x.code = ${value})`;
  if (target === 'client_summary') {
    // A stored client summary counts unless its organisation is in the import, whose list then decides.
    return `exists (select 1 from client_summaries x where x.reference = ${value}::uuid
      and not exists (select 1 from import_keys d where d.kind in ('organisation', 'deleted:organisation')
        and d.key = x.organisation_reference::text))`;
  }
  const table = recordTables[target];
  return `(exists (select 1 from ${table.table} x where x.${table.key} = ${value}::uuid)
    and not exists (select 1 from import_keys d where d.kind = 'deleted:${target}' and d.key = ${value}))`;
}

/**
 * Marks `unlinked` the staged records of `type` with a link that names no valid record of the import and no
 * stored record the import keeps. Run type by type in storage order, so that a record linking to a rejected one
 * is rejected in turn. Returns how many records it marked.
 */
export async function resolveLinks(
  session: BulkSession,
  type: StoredRecordType,
  links: readonly StagedLink[],
): Promise<void> {
  for (const link of links) {
    const label = link.path.replace(/^\$\./, '').replace(/\[\*\]/g, '[]');
    // import_keys holds the keys of valid records only (rejected ones are taken out as they are found).
    await session.query(`
      with missing as (
        select l.id, string_agg(distinct l.key, ', ') as refs
          from import_links l
         where l.link = ${linkCode(type, link.path)}
           and not exists (select 1 from import_keys k where k.kind = '${link.target}' and k.key = l.key)
           and not ${storedTarget(link.target, 'l.key')}
         group by l.id
      ), marked as (
        update import_staged s
           set state = 'unlinked',
               reasons = s.reasons || ('${label} links to no ${link.target.replace('_', ' ')} in the import or the store: ' || m.refs)
          from missing m where s.id = m.id and s.state in ('valid', 'unlinked')
        returning s.id
      )
      delete from import_keys k using marked m where k.id = m.id`);
  }
  if (type === 'occupation') {
    // Occupation names are unique: a name may not be taken by another occupation staged or stored.
    await session.query(`
      with marked as (
        update import_staged s
           set state = 'rejected',
               reasons = s.reasons || ('name ' || (s.doc->>'name') || ' is already the name of occupation ' || o.reference)
          from occupations o
         where s.type = 'occupation' and s.state = 'valid' and not s.deleted
           and o.name = s.doc->>'name' and o.reference <> s.reference
           and not exists (select 1 from import_staged d where d.type = 'occupation' and d.reference = o.reference
                            and d.state = 'valid' and (d.deleted or d.doc->>'name' <> o.name))
        returning s.id
      )
      delete from import_keys k using marked m where k.id = m.id`);
    await session.query(`
      with taken as (
        select doc->>'name' as name from import_staged
         where type = 'occupation' and state = 'valid' and not deleted group by 1 having count(*) > 1
      )
      , marked as (
        update import_staged s
           set state = 'rejected', reasons = s.reasons || ('name ' || t.name || ' is given to more than one occupation in this import')
          from taken t where s.type = 'occupation' and s.state = 'valid' and not s.deleted and s.doc->>'name' = t.name
        returning s.id
      )
      delete from import_keys k using marked m where k.id = m.id`);
  }
}

/**
 * Compares the batch's records with the stored ones and sets each one's outcome. A record whose digest is kept
 * (record_digests) and equals its document's is unchanged without building the stored document, the cost of a
 * re-import; the stored document is built only where no digest is kept, or where it differs. `batch` is one
 * batch, several, or null for all of the type's.
 */
export async function classifyBatch(
  session: BulkSession,
  type: StoredRecordType,
  batch: number | readonly number[] | null,
): Promise<void> {
  const table = recordTables[type];
  const inBatch =
    batch === null ? 'true' : typeof batch === 'number' ? 's.batch = $1' : 's.batch = any($1::integer[])';
  const parameters = batch === null ? [] : [batch];
  await session.query(
    // Into a narrow table of its own: updating the wide staged rows rewrote every document once more.
    // A record staged without its document had the stored digest when read; should another writer have changed
    // the record since (its digest forgotten), it is \`stale\`, rejected below, and a rerun stores it.
    `insert into import_outcomes (id, type, batch, outcome, digest, known)
       select s.id, s.type, s.batch,
              case when s.deleted then case when r.${table.key} is null then 'absent' else 'deleted' end
                   when d.digest = s.digest and r.${table.key} is not null then 'unchanged'
                   when s.doc is null then 'stale'
                   when r.${table.key} is null then 'inserted'
                   when ${table.document} = s.doc then 'unchanged'
                   else 'updated' end as outcome,
              s.digest, coalesce(d.digest = s.digest and d.line_digest = s.line_digest, false)
         from import_staged s
         left join ${table.table} r on r.${table.key} = s.reference
         left join record_digests d on d.type = '${type}' and d.reference = s.reference
        where s.type = '${type}' and s.state = 'valid' and ${inBatch}
     on conflict (id) do update set outcome = excluded.outcome, digest = excluded.digest, known = excluded.known`,
    parameters,
  );
  await session.query(
    `with stale as (
       delete from import_outcomes o where o.type = '${type}' and o.outcome = 'stale' and ${inBatch.replace('s.', 'o.')}
       returning o.id
     )
     update import_staged s set state = 'rejected', reasons = s.reasons || ${staleReason}
       from stale where s.id = stale.id`,
    parameters,
  );
}

const staleReason = `'the stored record changed while this import ran: import it again'::text`;

/**
 * Rejects, as stale, the records of `type` staged from lines the store knows (stageKnownLines) whose digest the
 * store no longer keeps: another writer changed the record since its line was looked up. One statement for all
 * of them, outside any batch's transaction. The rest are unchanged (a kept digest vouches for the record's rows, its
 * main row included, since deleting that row forgets it); nothing is written for them, so they get no outcome rows:
 * {@link countOutcomes} counts them as unchanged.
 */
export async function confirmKnownLines(session: BulkSession, type: StoredRecordType): Promise<void> {
  await session.query(
    `update import_staged s set state = 'rejected', reasons = s.reasons || ${staleReason}
      where s.type = '${type}' and s.state = 'valid' and s.known_line
        and not exists (
          select 1 from record_digests d where d.type = '${type}' and d.reference = s.reference and d.digest = s.digest)`,
  );
}

/**
 * Stores one classified batch: deletions first, then the inserted and updated records, then the digests of the
 * records now stored as staged (inserted, updated, and unchanged ones without a digest). Returns how many records
 * it wrote. The upserts run with orgraph.keep_digests on, so that the triggers that forget a record's digest on
 * any other insert or update leave alone the ones this batch stores (a deleted row forgets its record's digest
 * whatever the setting: deletions cascade to records of other types); the deletions of records run before it.
 */
export async function writeBatch(
  session: BulkSession,
  type: StoredRecordType,
  batch: number,
): Promise<number> {
  const table = recordTables[type];
  const [row] = await session.query<{ n: number; digests: number }>(
    `select count(*) filter (where outcome in ('inserted', 'updated', 'deleted'))::integer as n,
            count(*) filter (where outcome <> 'deleted' and outcome <> 'absent' and not known)::integer as digests
       from import_outcomes where type = '${type}' and batch = $1`,
    [batch],
  );
  const written = Number(row?.n ?? 0);
  if (written === 0 && Number(row?.digests ?? 0) === 0) return 0;
  if (written > 0) {
    await session.query(
      `delete from ${table.table} where ${table.key} in (
         select s.reference from import_outcomes o join import_staged s on s.id = o.id
          where o.type = '${type}' and o.batch = $1 and o.outcome = 'deleted')`,
      [batch],
    );
  }
  await session.query(`select set_config('orgraph.keep_digests', 'on', true)`);
  if (written > 0) for (const statement of writeStatements[type]) await session.query(statement, [batch]);
  await session.query(
    `insert into record_digests (type, reference, digest, line_digest)
       select o.type, s.reference, o.digest, s.line_digest from import_outcomes o join import_staged s on s.id = o.id
        where o.type = '${type}' and o.batch = $1 and o.outcome in ('inserted', 'updated', 'unchanged') and not o.known
     on conflict (type, reference) do update set digest = excluded.digest, line_digest = excluded.line_digest`,
    [batch],
  );
  await session.query(`select set_config('orgraph.keep_digests', 'off', true)`);
  return written;
}

export interface OutcomeCount {
  type: string;
  outcome: string;
  records: number;
}

/**
 * How many staged records of each type ended how (`rejected` for every state but valid and duplicate). After an
 * initial load (see loadIntoEmptyStore) every valid record was inserted, or was a deletion of nothing.
 */
export async function countOutcomes(session: BulkSession, initialLoad = false): Promise<OutcomeCount[]> {
  const outcomes = initialLoad
    ? `select type, case when deleted then 'absent' else 'inserted' end as outcome, count(*)::integer as records
         from import_staged where state = 'valid' group by 1, 2`
    : `select type, outcome, count(*)::integer as records from import_outcomes group by 1, 2
       union all
       select type, 'unchanged', count(*)::integer from import_staged s
        where state = 'valid' and not exists (select 1 from import_outcomes o where o.id = s.id) group by 1`;
  const rows = await session.query<{ type: string; outcome: string; records: number }>(`
    ${outcomes}
    union all
    select type, 'rejected', count(*)::integer from import_staged where state in ('rejected', 'unlinked') group by 1`);
  return rows.map((row) => ({ ...row, records: Number(row.records) }));
}

export interface StagedRejection {
  id: number;
  source: number;
  line: number;
  document: string;
  /** False for a record staged as its rows, without its document: `document` is then only its type and reference. */
  documented: boolean;
  reasons: string[];
}

/** The staged records rejected, in import order, `limit` after `afterId`. */
export async function rejectedRecords(
  session: BulkSession,
  afterId: number,
  limit: number,
): Promise<StagedRejection[]> {
  const rows = await session.query<{
    id: string | number;
    source: number;
    line: string | number;
    document: string;
    documented: boolean;
    reasons: string[];
  }>(
    // A record staged without its document (its digest the stored one's) shows the stored document, the same.
    `select s.id, s.source, s.line, coalesce(s.doc::text, (case s.type ${Object.entries(recordTables)
      .map(
        ([type, table]) =>
          `when '${type}' then (select (${table.document})::text from ${table.table} r where r.${table.key} = s.reference)`,
      )
      .join(' ')} end), jsonb_build_object('type', s.type, 'reference', s.reference)::text) as document,
            s.doc is not null or s.known_line as documented, s.reasons
       from import_staged s
      where s.state in ('rejected', 'unlinked') and s.id > $1 order by s.id limit ${Math.floor(limit)}`,
    [afterId],
  );
  return rows.map((row) => ({ ...row, id: Number(row.id), line: Number(row.line) }));
}

export async function countRejected(session: BulkSession): Promise<number> {
  const [row] = await session.query<{ n: number }>(
    `select count(*)::integer as n from import_staged where state in ('rejected', 'unlinked')`,
  );
  return Number(row?.n ?? 0);
}
