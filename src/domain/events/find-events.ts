import { and, asc, desc, eq, getTableColumns, gte, inArray, lt, type SQL, sql } from 'drizzle-orm';
import { countWithinLimit, estimateRows } from '../../db/counting.ts';
import { type Database, queryRows } from '../../db/database.ts';
import { type Event, eventParticipantsTable, eventsTable } from '../../db/schema/events.ts';
import { invalidParameter } from '../errors.ts';
import type { ListWindow, Total } from '../paging.ts';
import { chipCondition } from '../searches/chip-filter.ts';
import { getSavedSearch } from '../searches/save-search.ts';
import type { EventType } from '../vocabulary/events.ts';

/** What the event list can be narrowed by; every given filter must hold (AND). */
export interface EventFilter {
  eventType?: EventType | undefined;
  /** A saved search whose chips the events must match. */
  queryId?: string | undefined;
  /** The event's organisation, acquirer or acquiree. */
  organisationReference?: string | undefined;
  /** The person a move is about, or a participant of a funding round or offering. */
  profileReference?: string | undefined;
  /** Inclusive lower bound of `publishDate`. */
  publishedAfter?: Date | undefined;
  /** Exclusive upper bound of `publishDate`: the window is half-open, so adjacent windows never overlap. */
  publishedBefore?: Date | undefined;
}

/** A filter checked and resolved (its saved search loaded) into one condition over `events`. */
export interface PreparedEventFilter {
  where: SQL | undefined;
}

/**
 * The sort key of the event list: newest first, the reference breaking ties. The publication time is
 * kept as the database's text (microseconds) because a JavaScript date would round it to milliseconds
 * and a cursor built from it could skip rows.
 */
export interface EventKey {
  publishedAt: string;
  reference: string;
}

/** An event read from a list, with its sort key. */
export type ListedEvent = Event & { publishKey: string };

export function eventKeyOf(event: ListedEvent): EventKey {
  return { publishedAt: event.publishKey, reference: event.reference };
}

const publishKey = sql<string>`to_char(${eventsTable.publishDate} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/**
 * Checks a filter and turns it into one condition; throws NOT_FOUND for an unknown saved search. A window whose
 * start is after its end holds no event, like one whose start is its end: it is answered, empty, not refused.
 */
export async function prepareEventFilter(db: Database, filter: EventFilter): Promise<PreparedEventFilter> {
  const { publishedAfter, publishedBefore } = filter;
  for (const [name, instant] of [
    ['published after', publishedAfter],
    ['published before', publishedBefore],
  ] as const) {
    // JavaScript dates reach years the database cannot store (0, or beyond 9999 as written in ISO 8601).
    const year = instant?.getUTCFullYear();
    if (year !== undefined && (Number.isNaN(year) || year < 1 || year > 9999)) {
      throw invalidParameter(`The ${name} instant must fall within the years 0001 to 9999.`);
    }
  }
  const conditions: (SQL | undefined)[] = [];
  if (filter.eventType) conditions.push(eq(eventsTable.type, filter.eventType));
  if (filter.organisationReference) conditions.push(involvesOrganisation(filter.organisationReference));
  if (filter.profileReference) conditions.push(involvesProfile(filter.profileReference));
  if (publishedAfter) conditions.push(gte(eventsTable.publishDate, publishedAfter));
  if (publishedBefore) conditions.push(lt(eventsTable.publishDate, publishedBefore));
  if (filter.queryId) {
    const search = await getSavedSearch(db, filter.queryId);
    conditions.push(chipCondition(search.query));
  }
  return { where: and(...conditions) };
}

/** The event's organisation, acquirer or acquiree is `reference` (a value, or a column of an outer query). */
export function involvesOrganisation(reference: string | SQL): SQL {
  return sql`(${eventsTable.organisationReference} = ${reference} or ${eventsTable.acquirerReference} = ${reference} or ${eventsTable.acquireeReference} = ${reference})`;
}

/**
 * The move's person or a participant is `reference`; written as a union of two indexed lookups so
 * neither side makes the planner scan every event.
 */
export function involvesProfile(reference: string | SQL): SQL {
  return sql`${eventsTable.reference} in (
    select ${eventsTable.reference} from ${eventsTable} where ${eventsTable.profileReference} = ${reference}
    union all
    select ${eventParticipantsTable.eventReference} from ${eventParticipantsTable}
    where ${eventParticipantsTable.profileReference} = ${reference})`;
}

/** The keyset bounds of a window, in the list's order (newest first). */
export function keysetCondition(window: ListWindow<EventKey>): SQL | undefined {
  const bound = (key: EventKey, direction: 'older' | 'newer') =>
    direction === 'older'
      ? sql`(${eventsTable.publishDate}, ${eventsTable.reference}) < (${key.publishedAt}::timestamptz, ${key.reference}::uuid)`
      : sql`(${eventsTable.publishDate}, ${eventsTable.reference}) > (${key.publishedAt}::timestamptz, ${key.reference}::uuid)`;
  return and(
    window.after ? bound(window.after, 'older') : undefined,
    window.before ? bound(window.before, 'newer') : undefined,
  );
}

function orderOf(window: ListWindow<EventKey>) {
  return window.inverted
    ? [asc(eventsTable.publishDate), asc(eventsTable.reference)]
    : [desc(eventsTable.publishDate), desc(eventsTable.reference)];
}

/**
 * Events matching a prepared filter, newest first, in the given window (an offset page or keyset
 * bounds; oldest first when `inverted`).
 */
export async function findEvents(
  db: Database,
  filter: PreparedEventFilter,
  window: ListWindow<EventKey>,
): Promise<ListedEvent[]> {
  return db
    .select({ ...getTableColumns(eventsTable), publishKey })
    .from(eventsTable)
    .where(and(filter.where, keysetCondition(window)))
    .orderBy(...orderOf(window))
    .limit(window.limit)
    .offset(window.offset ?? 0);
}

/** How many events match, under the count time limit (then the table-wide estimate). */
export function countEvents(db: Database, filter: PreparedEventFilter, timeoutMs: number): Promise<Total> {
  const where = filter.where ?? sql`true`;
  return countWithinLimit(db, sql`select count(*) as count from ${eventsTable} where ${where}`, {
    table: 'events',
    timeoutMs,
  });
}

/** Whose events a batched nested list reads. */
export type EventParentKind = 'organisation' | 'profile';

function parentCondition(kind: EventParentKind, parent: SQL): SQL {
  return kind === 'organisation' ? involvesOrganisation(parent) : involvesProfile(parent);
}

function uuidArray(references: readonly string[]): SQL {
  return sql`array[${sql.join(
    references.map((reference) => sql`${reference}`),
    sql`, `,
  )}]::uuid[]`;
}

/**
 * The same window of events for several organisations or people at once: one statement picks each
 * parent's page (a lateral keyset read per parent), a second loads those events. Keyset windows
 * only (the graph's nested connections); an offset is not applied.
 */
export async function findEventsOfParents(
  db: Database,
  kind: EventParentKind,
  parents: readonly string[],
  window: ListWindow<EventKey>,
): Promise<Map<string, ListedEvent[]>> {
  const pages = new Map<string, ListedEvent[]>(parents.map((parent) => [parent, []]));
  if (parents.length === 0) return pages;
  const direction = window.inverted ? sql`asc` : sql`desc`;
  const picks = await queryRows<{ parent: string; reference: string; publish_key: string }>(
    db,
    sql`select p.parent, page.reference, page.publish_key
      from unnest(${uuidArray(parents)}) as p(parent)
      cross join lateral (
        select ${eventsTable.reference} as reference, ${publishKey} as publish_key from ${eventsTable}
        where ${and(parentCondition(kind, sql`p.parent`), keysetCondition(window))}
        order by ${eventsTable.publishDate} ${direction}, ${eventsTable.reference} ${direction}
        limit ${window.limit}
      ) as page`,
  );
  if (picks.length === 0) return pages;
  const events = await db
    .select()
    .from(eventsTable)
    .where(
      inArray(
        eventsTable.reference,
        picks.map((pick) => pick.reference),
      ),
    );
  const byReference = new Map(events.map((event) => [event.reference, event]));
  const sign = window.inverted ? 1 : -1;
  for (const pick of picks) {
    const event = byReference.get(pick.reference);
    if (event) pages.get(pick.parent)?.push({ ...event, publishKey: pick.publish_key });
  }
  for (const page of pages.values())
    page.sort((a, b) => sign * compareEventKeys(eventKeyOf(a), eventKeyOf(b)));
  return pages;
}

/** Ascending order of the sort key (oldest first). */
export function compareEventKeys(a: EventKey, b: EventKey): number {
  if (a.publishedAt !== b.publishedAt) return a.publishedAt < b.publishedAt ? -1 : 1;
  return a.reference < b.reference ? -1 : a.reference > b.reference ? 1 : 0;
}

/**
 * How many events each organisation or person has, in one statement under the count time limit;
 * past it every total is the table-wide estimate, as for the top-level list.
 */
export async function countEventsOfParents(
  db: Database,
  kind: EventParentKind,
  parents: readonly string[],
  timeoutMs: number,
): Promise<Map<string, Total>> {
  if (parents.length === 0) return new Map();
  const query = sql`select p.parent, (
      select count(*) from ${eventsTable} where ${parentCondition(kind, sql`p.parent`)}
    ) as count
    from unnest(${uuidArray(parents)}) as p(parent)`;
  try {
    const rows = await db.transaction(async (tx) => {
      await tx.execute(sql.raw(`set local statement_timeout = ${Math.max(1, Math.floor(timeoutMs))}`));
      return queryRows<{ parent: string; count: string | number }>(tx as unknown as Database, query);
    });
    const counted = new Map(rows.map((row) => [row.parent, Number(row.count)]));
    return new Map(parents.map((parent) => [parent, { value: counted.get(parent) ?? 0, isEstimate: false }]));
  } catch (error) {
    if (!isStatementTimeout(error)) throw error;
    const estimate = await estimateRows(db, 'events');
    return new Map(parents.map((parent) => [parent, { value: estimate, isEstimate: true }]));
  }
}

function isStatementTimeout(error: unknown): boolean {
  const failure = error as { code?: string; cause?: { code?: string } };
  return failure.code === '57014' || failure.cause?.code === '57014';
}
