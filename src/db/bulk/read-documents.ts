import { recordTables, type StoredRecordType } from './documents.ts';
import type { BulkSession } from './session.ts';

/**
 * The stored records of `type` as canonical JSON lines, `pageSize` at a time in reference order (keyset paging:
 * each page is one indexed range, and memory holds one page whatever the table's size).
 */
export async function* readDocuments(
  session: BulkSession,
  type: StoredRecordType,
  pageSize = 2_000,
): AsyncGenerator<string[]> {
  const table = recordTables[type];
  let after: string | null = null;
  for (;;) {
    const rows: { key: string; line: string }[] = await session.query(
      `select r.${table.key}::text as key, (${table.document})::text as line
         from ${table.table} r
        where $1::uuid is null or r.${table.key} > $1::uuid
        order by r.${table.key} limit ${Math.floor(pageSize)}`,
      [after],
    );
    if (rows.length === 0) return;
    yield rows.map((row) => row.line);
    if (rows.length < pageSize) return;
    after = rows[rows.length - 1]!.key;
  }
}
