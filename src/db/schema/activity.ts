import { pgMaterializedView, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * One row per organisation and kind of activity, with the latest date of that activity.
 * Refreshed periodically (and after seeding); the organisation list searches it unless `show_empty=true`.
 * Defined in SQL by a hand-written migration.
 */
export const organisationActivityView = pgMaterializedView('organisation_activity', {
  organisationReference: uuid('organisation_reference').notNull(),
  activityType: text('activity_type').notNull(),
  lastActivityAt: timestamp('last_activity_at', { withTimezone: true, mode: 'date' }).notNull(),
}).existing();
