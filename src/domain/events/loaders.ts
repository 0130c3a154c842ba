import type { Database } from '../../db/database.ts';

export function createEventLoaders(_db: Database) {
  return {};
}
