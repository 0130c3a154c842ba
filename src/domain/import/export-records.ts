import { readDocuments } from '../../db/bulk/read-documents.ts';
import { openBulkSession } from '../../db/bulk/session.ts';
import type { DatabaseHandle } from '../../db/database.ts';
import type { RecordType } from './records.ts';

/**
 * Streams the stored records of `types` (in the given order) as the import reads them: one JSON object per
 * line, with its `type`. `write` receives a page of lines at a time and may wait (back-pressure).
 */
export async function exportRecords(
  handle: DatabaseHandle,
  types: readonly RecordType[],
  write: (type: RecordType, lines: string[]) => Promise<void>,
): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  const session = await openBulkSession(handle.driver, 'orgraph-export');
  try {
    for (const type of types) {
      counts[type] = 0;
      for await (const lines of readDocuments(session, type)) {
        counts[type] += lines.length;
        await write(type, lines);
      }
    }
  } finally {
    await session.close();
  }
  return counts;
}
