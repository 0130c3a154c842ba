import { sql } from 'drizzle-orm';
import { boolean, check, date, index, pgEnum, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { ownerRelationships } from '../../domain/vocabulary/ownership.ts';
import { organisationsTable } from './organisations.ts';
import { profilesTable } from './profiles.ts';

export const ownerRelationshipEnum = pgEnum('owner_relationship', ownerRelationships);

/** One row serves both directions: the owner's subsidiaries and the owned organisation's owners. */
export const organisationOwnershipsTable = pgTable(
  'organisation_ownerships',
  {
    reference: uuid().primaryKey(),
    ownerReference: uuid()
      .notNull()
      .references(() => organisationsTable.reference, { onDelete: 'cascade' }),
    ownedReference: uuid()
      .notNull()
      .references(() => organisationsTable.reference, { onDelete: 'cascade' }),
    relationship: ownerRelationshipEnum().notNull(),
    ownershipLabel: text().notNull(),
    isControllingInterest: boolean().notNull(),
  },
  (t) => [
    index().on(t.ownerReference),
    index().on(t.ownedReference),
    check('organisation_ownerships_not_self', sql`${t.ownerReference} <> ${t.ownedReference}`),
  ],
);

/** A person's stake in an organisation. */
export const profileStakesTable = pgTable(
  'profile_stakes',
  {
    reference: uuid().primaryKey(),
    profileReference: uuid()
      .notNull()
      .references(() => profilesTable.reference, { onDelete: 'cascade' }),
    organisationReference: uuid()
      .notNull()
      .references(() => organisationsTable.reference, { onDelete: 'cascade' }),
    ownershipType: text().notNull(),
    /** A band label such as `25% - 50%`, never a number. */
    ownershipBand: text().notNull(),
    titleOrStatus: text(),
    isControlPerson: boolean().notNull(),
    isActive: boolean().notNull(),
    startDate: date({ mode: 'string' }),
    endDate: date({ mode: 'string' }),
  },
  (t) => [index().on(t.profileReference), index().on(t.organisationReference)],
);

export type OrganisationOwnership = typeof organisationOwnershipsTable.$inferSelect;
export type ProfileStake = typeof profileStakesTable.$inferSelect;
