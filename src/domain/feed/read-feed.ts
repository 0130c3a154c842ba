import { getTableColumns, type SQL, sql } from 'drizzle-orm';
import { type Database, queryRows } from '../../db/database.ts';
import { type Event, eventsTable } from '../../db/schema/events.ts';
import type { SavedSearch } from '../../db/schema/searches.ts';
import { type DescribedEvent, type DescribeOptions, describeEvents } from '../events/describe-events.ts';
import { chipCondition } from '../searches/chip-filter.ts';
import { getSavedSearch } from '../searches/save-search.ts';
import type { FeedChange } from '../vocabulary/feed.ts';
import {
  comparePositions,
  type FeedPosition,
  loadCursorKey,
  signCursor,
  verifyCursor,
} from './feed-cursor.ts';

/** One row of a feed: the event as the change left it (as it was, for a removal), how, and where to resume after it. */
export interface FeedEntry {
  event: Event;
  change: FeedChange;
  cursor: string;
}

export interface FeedPage {
  entries: FeedEntry[];
  /** Where to resume: after the last entry, or past every change read when the page is not full. */
  cursor: string;
  /** True when more changes may already be readable (the page is full, or the scan stopped at its bound). */
  hasMore: boolean;
  /**
   * True when changes after the cursor have committed but wait behind an older transaction the horizon counts (one
   * still open, or one that ended while the read ran): they become readable without a new commit to announce them.
   */
  held: boolean;
}

/** The most changes one read looks at, matching or not, so a selective search cannot make a read unbounded. */
export const feedScanLimit = 5000;

/**
 * The horizon of the statement's snapshot: the oldest transaction still open in this database, or the first
 * transaction id not yet assigned. Every change of a transaction below it has committed (and is visible) or never
 * will. Transactions open in other databases of the same server are left out (they cannot write this log), so a
 * long load elsewhere does not hold the feed back; one this process cannot place (another role's, or one that
 * ended since the snapshot) still bounds the horizon, which only delays a change, never skips one.
 */
export const horizonOf = sql`select coalesce(
    (select min(x) from snap, pg_snapshot_xip(snap.s) as x
     where not exists (select 1 from pg_stat_activity a where a.backend_xid = x::xid and a.datname is distinct from current_database())),
    (select pg_snapshot_xmax(snap.s) from snap)) as xmin`;

const keys = new WeakMap<Database, Promise<Buffer>>();

function cursorKey(db: Database): Promise<Buffer> {
  let key = keys.get(db);
  if (!key) {
    key = loadCursorKey(db);
    // A failed load (database down) is not cached.
    key.catch(() => keys.delete(db));
    keys.set(db, key);
  }
  return key;
}

interface ScannedRow {
  horizon: string;
  held: boolean;
  xid: string | null;
  seq: string | null;
  at: string | null;
  change: FeedChange | null;
  image: Record<string, unknown> | string | null;
}

/**
 * The changes `where` selects below the horizon, in position order, each classified against the chips; with
 * `withHeld`, also whether any it selects are committed at or past the horizon (a page's `held`).
 */
function scanChanges(db: Database, chips: SavedSearch['query'], where: SQL, limit: number, withHeld = false) {
  const condition = chipCondition(chips);
  const matches = (image: 'old_image' | 'new_image') =>
    sql`coalesce((select ${condition} from jsonb_populate_record(null::events, s.${sql.raw(image)}) as events where s.${sql.raw(image)} is not null), false)`;
  return queryRows<ScannedRow>(
    db,
    sql`with snap as (select pg_current_snapshot() as s),
      horizon as (${horizonOf}),
      scanned as (
        select c.xid, c.seq, c.changed_at, c.old_image, c.new_image from event_changes c, horizon h
        where ${where} and c.xid < h.xmin
        order by c.xid, c.seq limit ${limit}
      ),
      matched as (
        select s.*, ${matches('old_image')} as was_match, ${matches('new_image')} as is_match from scanned s
      )
      select h.xmin::text as horizon,
        ${withHeld ? sql`exists (select 1 from event_changes c where ${where} and c.xid >= h.xmin)` : sql`false`} as held,
        m.xid::text as xid, m.seq::text as seq,
        (extract(epoch from m.changed_at) * 1000)::bigint::text as at,
        case when m.was_match and m.is_match then 'updated' when m.is_match then 'added' when m.was_match then 'removed' end as change,
        case when m.is_match then m.new_image when m.was_match then m.old_image end as image
      from horizon h left join matched m on true
      order by m.xid, m.seq`,
  );
}

/**
 * The feed rows one transaction's changes make for a saved search (a webhook delivery), and the cursor after the
 * transaction's last change; null while the transaction is not yet below the horizon.
 */
export async function readTransactionFeed(
  db: Database,
  search: SavedSearch,
  xid: string,
): Promise<{ entries: FeedEntry[]; cursor: string } | null> {
  const key = await cursorKey(db);
  const rows = await scanChanges(db, search.query, sql`c.xid = ${xid}::xid8`, 1_000_000);
  const horizon = BigInt(rows[0]?.horizon ?? '0');
  if (BigInt(xid) >= horizon) return null;
  const scanned = rows.filter((row) => row.xid !== null);
  const entries = scanned
    .filter((row) => row.change && row.image)
    .map((row) => ({
      event: eventFromImage(row.image!),
      change: row.change!,
      cursor: signCursor(key, search.queryId, { xid: row.xid!, seq: row.seq!, at: Number(row.at) }),
    }));
  const last = scanned.at(-1);
  const cursor = signCursor(key, search.queryId, {
    xid,
    seq: last?.seq ?? '0',
    at: last ? Number(last.at) : Date.now(),
  });
  return { entries, cursor };
}

/**
 * A page of a saved search's feed after `after` (a cursor from this feed; none: from now). Reads the change log
 * in position order, but only the changes of transactions that have ended for every reader (below the xmin of
 * the statement's snapshot), so a position once passed never gains a change before it: resuming from any cursor
 * misses nothing and repeats nothing. Each change is matched against the chips as the event was before and after
 * it: matching after only is `added`, both `updated`, before only `removed`.
 */
export async function readFeed(
  db: Database,
  queryId: string,
  input: { after?: string | undefined; limit: number },
): Promise<FeedPage> {
  const search = await getSavedSearch(db, queryId);
  const key = await cursorKey(db);
  // Signed for the stored queryId, so a cursor does not depend on how the caller spelt it.
  const after = input.after ? verifyCursor(key, search.queryId, input.after) : null;
  const from = after ? sql`(c.xid, c.seq) > (${after.xid}::xid8, ${after.seq}::bigint)` : sql`false`;
  const rows = await scanChanges(db, search.query, from, feedScanLimit, true);
  const horizon = rows[0]?.horizon ?? '0';
  const scanned = rows.filter((row) => row.xid !== null);
  const picked: { position: FeedPosition; change: FeedChange; event: Event }[] = [];
  let last: FeedPosition | null = null;
  let pageFull = false;
  for (const row of scanned) {
    const position = { xid: row.xid!, seq: row.seq!, at: Number(row.at) };
    if (row.change && row.image) {
      if (picked.length === input.limit) {
        pageFull = true;
        break;
      }
      picked.push({ position, change: row.change, event: eventFromImage(row.image) });
    }
    last = position;
  }
  const hasMore = pageFull || scanned.length === feedScanLimit;
  let resume: FeedPosition;
  if (hasMore && last) {
    resume = last;
  } else {
    // Every readable change was read: resume at the horizon, below which no change can still appear.
    const caughtUp = { xid: horizon, seq: '0', at: Date.now() };
    resume = after && comparePositions(after, caughtUp) > 0 ? { ...after, at: Date.now() } : caughtUp;
  }
  return {
    entries: picked.map((entry) => ({
      event: entry.event,
      change: entry.change,
      cursor: signCursor(key, search.queryId, entry.position),
    })),
    cursor: signCursor(key, search.queryId, resume),
    hasMore,
    held: rows[0]?.held ?? false,
  };
}

const columns = Object.entries(getTableColumns(eventsTable)).map(([name, column]) => ({
  name,
  stored: name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`),
  isTime: column.columnType === 'PgTimestamp',
}));

/** An event from its image in the change log (`to_jsonb` of the row: stored column names, times as text). */
function eventFromImage(image: Record<string, unknown> | string): Event {
  const row = typeof image === 'string' ? (JSON.parse(image) as Record<string, unknown>) : image;
  const event: Record<string, unknown> = {};
  for (const column of columns) {
    const value = row[column.stored] ?? null;
    event[column.name] = column.isTime && typeof value === 'string' ? new Date(value) : value;
  }
  return event as unknown as Event;
}

/** The feed page's events with every record their full description embeds (the REST rows). */
export async function describeFeed(
  db: Database,
  page: FeedPage,
  options: DescribeOptions,
): Promise<(FeedEntry & { described: DescribedEvent })[]> {
  const described = await describeEvents(
    db,
    page.entries.map((entry) => entry.event),
    options,
  );
  return page.entries.map((entry, index) => ({ ...entry, described: described[index]! }));
}
