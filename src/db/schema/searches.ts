import { jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

export interface StoredChip {
  fieldType: string;
  label: string;
  value: string;
  /** Condition chips only; stored upper case. */
  operator?: string;
}

/** Saved event searches; identical chip lists share one row through `fingerprint`. They never expire. */
export const savedSearchesTable = pgTable('saved_searches', {
  queryId: uuid().primaryKey(),
  fingerprint: text().notNull().unique(),
  query: jsonb().$type<StoredChip[]>().notNull(),
  ignoredFieldTypes: text().array().notNull(),
  createdAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

export type SavedSearch = typeof savedSearchesTable.$inferSelect;
