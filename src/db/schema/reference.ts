import { sql } from 'drizzle-orm';
import { type AnyPgColumn, index, pgTable, smallint, text, uuid } from 'drizzle-orm/pg-core';

/** GICS nodes at all four levels; a node's parent is its code minus the last two digits. */
export const industriesTable = pgTable(
  'industries',
  {
    code: text().primaryKey(),
    name: text().notNull(),
    level: smallint().notNull(),
    parentCode: text().references((): AnyPgColumn => industriesTable.code),
  },
  (t) => [index().on(t.parentCode)],
);

/** Normalised job titles that recorded titles map to. */
export const occupationsTable = pgTable(
  'occupations',
  {
    reference: uuid().primaryKey(),
    name: text().notNull().unique(),
  },
  (t) => [index('occupations_name_trgm').using('gin', sql`${t.name} gin_trgm_ops`)],
);

export type Industry = typeof industriesTable.$inferSelect;
export type Occupation = typeof occupationsTable.$inferSelect;
