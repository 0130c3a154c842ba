import { index, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * One row per organisation and kind of activity, with the latest date of that activity: every event that names
 * the organisation (as subject, acquirer or acquiree) and every assets-under-management record. Kept current by
 * statement triggers on `events` and `client_summaries` as they are written (migration 0012), together with each
 * organisation's `has_activity` flag; the organisation list searches it unless `show_empty=true`.
 */
export const organisationActivityTable = pgTable(
  'organisation_activity',
  {
    organisationReference: uuid().notNull(),
    activityType: text().notNull(),
    lastActivityAt: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    primaryKey({ name: 'organisation_activity_key', columns: [t.organisationReference, t.activityType] }),
    index('organisation_activity_type_at').on(t.activityType, t.lastActivityAt),
  ],
);
