import { sql } from 'drizzle-orm';
import type { Database } from '../db/database.ts';

/** Rebuilds the index of organisations with recorded activity without blocking readers. */
export async function refreshOrganisationActivity(db: Database): Promise<void> {
  await db.execute(sql`refresh materialized view concurrently organisation_activity`);
}
