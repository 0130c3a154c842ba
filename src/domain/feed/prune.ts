import { sql } from 'drizzle-orm';
import { type Database, queryRows } from '../../db/database.ts';
import { feedRetentionDays } from '../vocabulary/feed.ts';

/**
 * Deletes changes older than the retention (the cursors' 30 days and a day's margin) and the deliveries that
 * were settled that long ago; returns how many changes went.
 */
export async function pruneChangeLog(db: Database, retentionDays = feedRetentionDays): Promise<number> {
  const [row] = await queryRows<{ count: string | number }>(
    db,
    sql`with gone as (
        delete from event_changes where changed_at < now() - make_interval(days => ${retentionDays}) returning 1
      ) select count(*) as count from gone`,
  );
  await queryRows(
    db,
    sql`delete from webhook_deliveries where status <> 'pending' and created_at < now() - make_interval(days => ${retentionDays})`,
  );
  return Number(row?.count ?? 0);
}
