import DataLoader from 'dataloader';
import { inArray } from 'drizzle-orm';
import type { Database } from '../../db/database.ts';
import { eventsTable } from '../../db/schema/events.ts';
import { loaderByArguments, oneByKey } from '../batch.ts';
import type { ListWindow, Total } from '../paging.ts';
import { type EventParticipant, findParticipants } from './describe-events.ts';
import {
  countEventsOfParents,
  type EventKey,
  type EventParentKind,
  findEventsOfParents,
  type ListedEvent,
} from './find-events.ts';

function eventsOf(db: Database, kind: EventParentKind) {
  return loaderByArguments<ListWindow<EventKey>, ListedEvent[]>(
    (references, window) => findEventsOfParents(db, kind, references, window),
    () => [],
  );
}

function eventCountOf(db: Database, kind: EventParentKind) {
  return loaderByArguments<{ timeoutMs: number }, Total>(
    (references, { timeoutMs }) => countEventsOfParents(db, kind, references, timeoutMs),
    () => ({ value: 0, isEstimate: false }),
  );
}

export function createEventLoaders(db: Database) {
  return {
    eventByReference: oneByKey(
      (references: readonly string[]) =>
        db
          .select()
          .from(eventsTable)
          .where(inArray(eventsTable.reference, [...references])),
      (row) => row.reference,
    ),
    /** People taking part in funding rounds and public offerings, by surname. */
    participantsByEvent: new DataLoader<string, EventParticipant[]>(async (references) => {
      const byEvent = new Map<string, EventParticipant[]>();
      for (const row of await findParticipants(db, references)) {
        const list = byEvent.get(row.eventReference) ?? [];
        list.push({ profile: row.profile, role: row.role });
        byEvent.set(row.eventReference, list);
      }
      return references.map((reference) => byEvent.get(reference) ?? []);
    }),
    /** A window of each organisation's events (as organisation, acquirer or acquiree), newest first. */
    eventsOfOrganisation: eventsOf(db, 'organisation'),
    /** A window of each person's events (moves and participations), newest first. */
    eventsOfProfile: eventsOf(db, 'profile'),
    eventCountOfOrganisation: eventCountOf(db, 'organisation'),
    eventCountOfProfile: eventCountOf(db, 'profile'),
  };
}
