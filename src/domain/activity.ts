import { sql } from 'drizzle-orm';
import type { Database } from '../db/database.ts';
import { queryRows } from '../db/database.ts';

/**
 * The activity index (`organisation_activity`) and each organisation's `has_activity` flag are kept current by
 * statement triggers on events and AUM records as they are written (migration 0012), so a change shows in the
 * default organisation list when its transaction commits. What remains periodic is a safety net: each pass
 * recomputes one slice of organisations, in reference order, and writes only what differs (writes made with the
 * triggers off, for instance a restore with `session_replication_role = replica`, are repaired this way).
 */
export const activitySliceSize = 2_000;

/**
 * Reconciles the slice of `size` organisations after `after` (from the start when null) and returns where the
 * next slice starts, or null when this one reached the end.
 */
export async function reconcileOrganisationActivity(
  db: Database,
  after: string | null,
  size = activitySliceSize,
): Promise<string | null> {
  const [row] = await queryRows<{ last: string | null }>(
    db,
    sql`select orgraph_organisation_activity_reconcile(${after}::uuid, ${size}::integer) as last`,
  );
  return row?.last ?? null;
}

/** A pass at a time over all organisations, wrapping round at the end: what the server runs on its timer. */
export function activityReconciler(db: Database, size = activitySliceSize): () => Promise<void> {
  let cursor: string | null = null;
  return async () => {
    cursor = await reconcileOrganisationActivity(db, cursor, size);
  };
}
