import type { Database } from '../../db/database.ts';

export function createArticleLoaders(_db: Database) {
  return {};
}
