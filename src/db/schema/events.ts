import { sql } from 'drizzle-orm';
import { index, jsonb, pgEnum, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { type EventDetails, eventTypes } from '../../domain/vocabulary/events.ts';
import { articlesTable } from './articles.ts';
import { clientSummariesTable, organisationsTable } from './organisations.ts';
import { profilesTable } from './profiles.ts';
import { occupationsTable } from './reference.ts';

export const eventTypeEnum = pgEnum('event_type', eventTypes);

export const eventsTable = pgTable(
  'events',
  {
    reference: uuid().primaryKey(),
    type: eventTypeEnum().notNull(),
    summary: text(),
    publishDate: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
    /** The organisation the event is about; for deals the acquiree's side is in `acquireeReference`. */
    organisationReference: uuid().references(() => organisationsTable.reference, { onDelete: 'cascade' }),
    profileReference: uuid().references(() => profilesTable.reference, { onDelete: 'cascade' }),
    occupationReference: uuid().references(() => occupationsTable.reference),
    moveType: text(),
    effectiveDate: timestamp({ withTimezone: true, mode: 'date' }),
    acquirerReference: uuid().references(() => organisationsTable.reference, { onDelete: 'cascade' }),
    acquireeReference: uuid().references(() => organisationsTable.reference, { onDelete: 'cascade' }),
    dealType: text(),
    dealStatus: text(),
    clientSummaryReference: uuid().references(() => clientSummariesTable.reference, { onDelete: 'cascade' }),
    details: jsonb().$type<EventDetails>().notNull().default({}),
  },
  // Plain DESC (nulls first, as `order by ... desc` sorts): drizzle's `.desc()` alone makes DESC NULLS LAST,
  // which the newest-first queries cannot read in order, so they sorted the whole table instead.
  (t) => [
    index().on(t.publishDate.desc().nullsFirst(), t.reference.desc().nullsFirst()),
    index().on(t.type, t.publishDate.desc().nullsFirst()),
    index().on(t.organisationReference, t.publishDate.desc().nullsFirst()),
    index().on(t.acquirerReference),
    index().on(t.acquireeReference),
    index().on(t.profileReference, t.publishDate.desc().nullsFirst()),
    // Migration 0019 also includes move_type, for an index-only count (drizzle's builder has no INCLUDE).
    index('events_occupation_move_order')
      .on(
        t.occupationReference,
        t.type,
        sql`lower(${t.moveType})`,
        t.publishDate.desc().nullsFirst(),
        t.reference.desc().nullsFirst(),
      )
      .where(sql`${t.occupationReference} is not null`),
    index().on(t.moveType),
    index().on(t.dealType),
    index().on(t.dealStatus),
  ],
);

/** People taking part in a funding round or a public offering (beyond the subject of a move). */
export const eventParticipantsTable = pgTable(
  'event_participants',
  {
    eventReference: uuid()
      .notNull()
      .references(() => eventsTable.reference, { onDelete: 'cascade' }),
    profileReference: uuid()
      .notNull()
      .references(() => profilesTable.reference, { onDelete: 'cascade' }),
    role: text().notNull(),
  },
  (t) => [primaryKey({ columns: [t.eventReference, t.profileReference] }), index().on(t.profileReference)],
);

export const eventArticlesTable = pgTable(
  'event_articles',
  {
    eventReference: uuid()
      .notNull()
      .references(() => eventsTable.reference, { onDelete: 'cascade' }),
    articleReference: uuid()
      .notNull()
      .references(() => articlesTable.reference, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.eventReference, t.articleReference] }), index().on(t.articleReference)],
);

export type Event = typeof eventsTable.$inferSelect;
export type NewEvent = typeof eventsTable.$inferInsert;
export type EventParticipant = typeof eventParticipantsTable.$inferSelect;
