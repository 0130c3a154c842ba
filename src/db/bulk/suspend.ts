/** What runs the statements: a bulk session, or the seed's loader. */
export interface StatementRunner {
  query<Row>(statement: string): Promise<Row[]>;
}

/**
 * Drops the foreign keys and secondary indexes of `tables` until the returned function puts them back.
 * Maintaining indexes row by row (random UUID keys) and checking every foreign key per row cost several times
 * more than building each index once and validating each constraint in one pass after the load. Inside the
 * load's transaction this is all-or-nothing: a failed load rolls the definitions back with the data.
 */
export async function suspendConstraintsAndIndexes(
  session: StatementRunner,
  tables: readonly string[],
): Promise<() => Promise<void>> {
  const names = tables.map((table) => `'${table}'`).join(', ');
  const foreignKeys = await session.query<{ table_name: string; name: string; definition: string }>(
    `select c.conrelid::regclass::text as table_name, c.conname as name, pg_get_constraintdef(c.oid) as definition
       from pg_constraint c
      where c.contype = 'f' and c.conrelid::regclass::text in (${names})
      order by 1, 2`,
  );
  const indexes = await session.query<{ name: string; definition: string }>(
    `select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as definition
       from pg_index i
      where i.indrelid::regclass::text in (${names})
        and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)
      order by 1`,
  );
  for (const key of foreignKeys)
    await session.query(`alter table ${key.table_name} drop constraint "${key.name}"`);
  for (const index of indexes) await session.query(`drop index ${index.name}`);
  return async () => {
    for (const index of indexes) await session.query(index.definition);
    for (const key of foreignKeys) {
      await session.query(`alter table ${key.table_name} add constraint "${key.name}" ${key.definition}`);
    }
  };
}
