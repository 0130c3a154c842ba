import { sql } from 'drizzle-orm';
import { boolean, check, date, index, pgTable, real, text, uuid } from 'drizzle-orm/pg-core';
import { organisationsTable } from './organisations.ts';
import { occupationsTable } from './reference.ts';

export const profilesTable = pgTable(
  'profiles',
  {
    reference: uuid().primaryKey(),
    firstName: text().notNull(),
    lastName: text().notNull(),
    fullName: text().notNull(),
    linkedinUrl: text(),
    /** Match confidence, 0 to 1. */
    confidenceScore: real(),
    /** Registered investment adviser or broker (the spec's `investment_advisor` and `broker` profile types). */
    isRegisteredAdviser: boolean().notNull().default(false),
  },
  (t) => [
    index('profiles_full_name_trgm').using('gin', sql`${t.fullName} gin_trgm_ops`),
    index('profiles_name_order').on(t.lastName, t.firstName, t.reference),
    // Resolving a list: the name's words in any order, case or accents, and the LinkedIn handle (migration 0029).
    index('profiles_match_key').on(sql`orgraph_person_key(${t.fullName})`),
    // The same key family name first, so that a close name is also a near one when the typo is in the given name
    // (migration 0031).
    index('profiles_family_first_key').on(sql`orgraph_person_key(${t.lastName} || ' ' || ${t.firstName})`),
    index('profiles_linkedin_handle').on(sql`orgraph_linkedin_handle(${t.linkedinUrl})`),
    check('profiles_confidence_range', sql`${t.confidenceScore} between 0 and 1`),
  ],
);

export const profileEmailsTable = pgTable(
  'profile_emails',
  {
    reference: uuid().primaryKey(),
    profileReference: uuid()
      .notNull()
      .references(() => profilesTable.reference, { onDelete: 'cascade' }),
    value: text().notNull(),
    domain: text().notNull(),
    confidenceScore: real().notNull(),
    isValid: boolean().notNull(),
  },
  (t) => [index().on(t.profileReference), index('profile_emails_value').on(sql`lower(${t.value})`)],
);

/** One role a person held; `endDate` null means a current role. */
export const experiencesTable = pgTable(
  'experiences',
  {
    reference: uuid().primaryKey(),
    profileReference: uuid()
      .notNull()
      .references(() => profilesTable.reference, { onDelete: 'cascade' }),
    organisationReference: uuid().references(() => organisationsTable.reference, { onDelete: 'set null' }),
    occupationTitle: text().notNull(),
    occupationReference: uuid().references(() => occupationsTable.reference),
    startDate: date({ mode: 'string' }),
    endDate: date({ mode: 'string' }),
  },
  (t) => [
    index().on(t.profileReference, t.startDate),
    index().on(t.organisationReference, t.endDate),
    index().on(t.occupationReference),
  ],
);

export type Profile = typeof profilesTable.$inferSelect;
export type NewProfile = typeof profilesTable.$inferInsert;
export type ProfileEmail = typeof profileEmailsTable.$inferSelect;
export type Experience = typeof experiencesTable.$inferSelect;
