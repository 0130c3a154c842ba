import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Plan names; what each plan covers and its limits live in the plan catalogue (configuration). */
export const plansTable = pgTable('plans', {
  name: text().primaryKey(),
});

/** API tokens, stored only as a SHA-256 hash of the secret. */
export const apiTokensTable = pgTable(
  'api_tokens',
  {
    id: uuid().primaryKey(),
    tokenHash: text().notNull().unique(),
    /** The first characters of the token, enough to recognise it in a listing. */
    hint: text().notNull(),
    label: text(),
    plan: text()
      .notNull()
      .references(() => plansTable.name),
    createdAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    revokedAt: timestamp({ withTimezone: true, mode: 'date' }),
  },
  (t) => [index().on(t.plan)],
);

export type ApiToken = typeof apiTokensTable.$inferSelect;
