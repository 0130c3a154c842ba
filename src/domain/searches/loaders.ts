import { inArray } from 'drizzle-orm';
import type { Database } from '../../db/database.ts';
import { savedSearchesTable } from '../../db/schema/searches.ts';
import { oneByKey } from '../batch.ts';

export function createSearchLoaders(db: Database) {
  return {
    savedSearchByQueryId: oneByKey(
      (queryIds: readonly string[]) =>
        db
          .select()
          .from(savedSearchesTable)
          .where(inArray(savedSearchesTable.queryId, [...queryIds])),
      (row) => row.queryId,
    ),
  };
}
