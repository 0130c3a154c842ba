import { sql } from 'drizzle-orm';
import type { Database } from '../db/database.ts';

/**
 * Rebuilds the index of organisations with recorded activity without blocking readers, and brings each
 * organisation's `has_activity` flag in line with it (only the rows whose flag changes are written).
 */
export async function refreshOrganisationActivity(db: Database): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`refresh materialized view concurrently organisation_activity`);
    await tx.execute(sql`
      update organisations o set has_activity = not o.has_activity
      where o.has_activity <> exists (
        select 1 from organisation_activity a where a.organisation_reference = o.reference
      )`);
  });
}
