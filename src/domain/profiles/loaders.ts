import type { Database } from '../../db/database.ts';

export function createProfileLoaders(_db: Database) {
  return {};
}
