import { type StoredRecordType, storedTables } from './documents.ts';
import type { BulkSession } from './session.ts';
import { suspendConstraintsAndIndexes } from './suspend.ts';
import { initialRowStatements, initialWriteStatements, unstoredRecords } from './write-records.ts';

/** Every table an import writes, in storage order, and the digests it keeps. */
const loadedTables = [...Object.values(storedTables).flat(), 'record_digests'];

/** How long the initial load waits for the tables' locks before it leaves them to the batches. */
const lockTimeout = '5s';

/** Whether the store holds any record, of any type. */
export async function storeHoldsRecords(session: BulkSession): Promise<boolean> {
  const mainTables = Object.values(storedTables).map((tables) => tables[0]);
  const [row] = await session.query<{ held: boolean }>(
    `select ${mainTables.map((table) => `exists (select 1 from ${table})`).join(' or ')} as held`,
  );
  return Boolean(row?.held);
}

/**
 * Stores every valid staged record in one transaction when the store holds no record at all: the tables are
 * locked, their foreign keys and secondary indexes dropped, each table filled in one statement (from the staged
 * documents, or with `rows` from the staged rows), and the indexes built and the constraints validated once at
 * the end, as the seed loads. Readers of the tables wait for the commit. Returns false, having written nothing,
 * when the store holds records or another session holds the tables: the batches store the import instead.
 */
export async function loadIntoEmptyStore(
  session: BulkSession,
  onType: (type: StoredRecordType) => void,
  options: { rows: boolean },
): Promise<boolean> {
  // Asked first without locks: an import into a store that holds records never locks its tables (it would wait
  // for, and deadlock with, the batches of another import).
  if (await storeHoldsRecords(session)) return false;
  const locked = async (tx: BulkSession): Promise<boolean> => {
    if (tx.kind === 'pglite') return true;
    try {
      await tx.query(`set local lock_timeout = '${lockTimeout}'`);
      await tx.query(`lock table ${loadedTables.join(', ')} in access exclusive mode`);
      await tx.query('set local lock_timeout = 0');
      return true;
    } catch (error) {
      // Not granted in time, or chosen to break a deadlock: the batches store the import.
      if (['55P03', '40P01'].includes((error as { code?: string }).code ?? '')) return false;
      throw error;
    }
  };
  try {
    return await session.transaction(async (tx) => {
      if (!(await locked(tx)) || (await storeHoldsRecords(tx))) throw new NotEmpty();
      await loadSuspended(tx, async () => {
        if (options.rows) await tx.query(unstoredRecords);
        for (const [type, statements] of Object.entries(
          options.rows ? initialRowStatements : initialWriteStatements,
        ) as [StoredRecordType, readonly string[]][]) {
          onType(type);
          for (const statement of statements) await tx.query(statement);
        }
        await tx.query(`
          insert into record_digests (type, reference, digest, line_digest)
            select type, reference, digest, line_digest from import_staged where state = 'valid' and not deleted`);
      });
      return true;
    });
  } catch (error) {
    if (error instanceof NotEmpty) return false;
    throw error;
  }
}

/**
 * Runs `write`, which fills the empty record tables and record_digests, inside the caller's transaction the way
 * an initial load does: foreign keys and secondary indexes dropped, the triggers that would rebuild derived rows
 * per statement off, and afterwards the filter keys, name fragments and name trigrams built once, the indexes
 * built and the constraints validated.
 */
export async function loadSuspended(tx: BulkSession, write: () => Promise<void>): Promise<void> {
  // The filter keys are built once at the end (below): their index waits with the others.
  const restore = await suspendConstraintsAndIndexes(tx, [...loadedTables, 'organisation_filter_keys']);
  // Off for the load: the triggers that forget a record's digest on insert (the load writes the digests), and
  // those of the filter keys, the name fragments and the name trigrams, which each statement of organisations,
  // addresses, industries and events would rebuild for every organisation again; all three are built once at the
  // end.
  const offForLoad = await tx.query<{ table_name: string; name: string }>(
    `select t.tgrelid::regclass::text as table_name, t.tgname as name from pg_trigger t
      where ((t.tgfoid = 'orgraph_forget_record_digest'::regproc and (t.tgtype & 4) <> 0)
          or (t.tgfoid in ('orgraph_organisation_filter_keys_names_changed'::regproc,
            'orgraph_organisation_filter_keys_industries_changed'::regproc,
            'orgraph_organisation_name_fragments_change'::regproc,
            'orgraph_organisation_name_trigrams_change'::regproc)))
        and t.tgrelid::regclass::text in (${loadedTables.map((table) => `'${table}'`).join(', ')})`,
  );
  for (const trigger of offForLoad)
    await tx.query(`alter table ${trigger.table_name} disable trigger ${trigger.name}`);
  // The records' own inserts keep the digests the load writes (see writeBatch).
  await tx.query(`select set_config('orgraph.keep_digests', 'on', true)`);
  await write();
  await tx.query(`select set_config('orgraph.keep_digests', 'off', true)`);
  for (const trigger of offForLoad)
    await tx.query(`alter table ${trigger.table_name} enable trigger ${trigger.name}`);
  await tx.query('select orgraph_organisation_filter_keys_rebuild()');
  await tx.query('select orgraph_organisation_name_fragments_rebuild()');
  await tx.query('select orgraph_organisation_name_trigrams_rebuild()');
  await restore();
}

/** Rolls the initial load's transaction back: the batches store the import. */
class NotEmpty extends Error {}
