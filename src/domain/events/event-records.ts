import type { Database } from '../../db/database.ts';
import type { Total } from '../paging.ts';
import { type DescribedEvent, type DescribeOptions, describeEvents } from './describe-events.ts';
import { countEvents, type EventFilter, findEvents, prepareEventFilter } from './find-events.ts';
import { getEvent } from './get-event.ts';

/** One event with its embedded records; NOT_FOUND when no event has `reference`. */
export async function getEventRecord(
  db: Database,
  reference: string,
  options: DescribeOptions,
): Promise<DescribedEvent> {
  const [described] = await describeEvents(db, [await getEvent(db, reference)], options);
  return described!;
}

/**
 * An offset window of the event list, each event with its embedded records, and the number of matches. The
 * saved search a filter names is read from `primaryDb`, so one saved a moment ago is found behind a replica too.
 */
export async function findEventsPage(
  db: Database,
  primaryDb: Database,
  input: EventFilter,
  window: { offset: number; limit: number },
  options: DescribeOptions & { countTimeoutMs: number },
): Promise<{ rows: DescribedEvent[]; total: Total }> {
  const filter = await prepareEventFilter(primaryDb, input);
  const [events, total] = await Promise.all([
    findEvents(db, filter, window),
    countEvents(db, filter, options.countTimeoutMs),
  ]);
  return { rows: await describeEvents(db, events, options), total };
}
