import type { Database } from '../../db/database.ts';

export function createSearchLoaders(_db: Database) {
  return {};
}
