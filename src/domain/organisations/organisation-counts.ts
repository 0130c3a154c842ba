import { and, eq, gte, type SQL, sql } from 'drizzle-orm';
import { type Database, queryRows } from '../../db/database.ts';
import { organisationCountsTable, organisationFilterCountsTable } from '../../db/schema/counts.ts';
import type { OrganisationStatus } from '../vocabulary/organisations.ts';

/** A filter on the columns `organisation_counts` groups by; an absent field does not filter. */
export interface TallyFilter {
  /** A company country (alpha-2) and a GICS node ('' for any): summed from `organisation_filter_counts` then. */
  place?: { country: string; node: string };
  hasActivity?: boolean;
  isFund?: boolean;
  status?: OrganisationStatus;
  verified?: boolean;
  minConfidence: number;
}

/**
 * The exact number of organisations matching `filter`, summed from the maintained counts (a few thousand rows at
 * most, whatever the number of organisations) rather than counted.
 */
export async function tallyOrganisations(db: Database, filter: TallyFilter): Promise<number> {
  const c = filter.place ? organisationFilterCountsTable : organisationCountsTable;
  const conditions: SQL[] = [];
  if (filter.place) {
    conditions.push(
      eq(organisationFilterCountsTable.country, filter.place.country),
      eq(organisationFilterCountsTable.node, filter.place.node),
    );
  }
  if (filter.hasActivity !== undefined) conditions.push(eq(c.hasActivity, filter.hasActivity));
  if (filter.isFund !== undefined) conditions.push(eq(c.isFund, filter.isFund));
  if (filter.status !== undefined) conditions.push(eq(c.status, filter.status));
  if (filter.verified !== undefined) conditions.push(eq(c.verified, filter.verified));
  if (filter.minConfidence > 0) conditions.push(gte(c.confidence, filter.minConfidence));
  const where = conditions.length > 0 ? sql` where ${and(...conditions)}` : sql``;
  const [row] = await queryRows<{ count: string | number | null }>(
    db,
    sql`select coalesce(sum(${c.organisations}), 0)::bigint as count from ${c}${where}`,
  );
  return Number(row?.count ?? 0);
}
