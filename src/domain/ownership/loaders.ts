import type { Database } from '../../db/database.ts';

export function createOwnershipLoaders(_db: Database) {
  return {};
}
