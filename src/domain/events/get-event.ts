import { eq } from 'drizzle-orm';
import type { Database } from '../../db/database.ts';
import { type Event, eventsTable } from '../../db/schema/events.ts';
import { notFound } from '../errors.ts';

/** One event by its reference; NOT_FOUND when none has it. */
export async function getEvent(db: Database, reference: string): Promise<Event> {
  const [event] = await db.select().from(eventsTable).where(eq(eventsTable.reference, reference));
  if (!event) throw notFound('event', reference);
  return event;
}
