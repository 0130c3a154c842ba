import { jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { StoredChip } from '../../domain/vocabulary/searches.ts';

/** Saved event searches; identical chip lists share one row through `fingerprint`. They never expire. */
export const savedSearchesTable = pgTable('saved_searches', {
  queryId: uuid().primaryKey(),
  fingerprint: text().notNull().unique(),
  query: jsonb().$type<StoredChip[]>().notNull(),
  ignoredFieldTypes: text().array().notNull(),
  createdAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

export type SavedSearch = typeof savedSearchesTable.$inferSelect;
