import { and, asc, desc, eq, type SQL, sql } from 'drizzle-orm';
import { countWithinLimit } from '../../db/counting.ts';
import type { Database } from '../../db/database.ts';
import { eventParticipantsTable, eventsTable } from '../../db/schema/events.ts';
import { profileStakesTable } from '../../db/schema/ownership.ts';
import { experiencesTable, type Profile, profilesTable } from '../../db/schema/profiles.ts';
import type { ListWindow, Total } from '../paging.ts';
import { likeSubstring } from '../text-filter.ts';

/** The spec's `profileType` values. `investment_advisor` and `broker` select the same people. */
export const profileTypes = [
  'business_owner',
  'investment_advisor',
  'broker',
  'funding_participant',
  'public_offering_participant',
] as const;
export type ProfileType = (typeof profileTypes)[number];

export interface ProfileFilter {
  /** Case-insensitive substring of the full name, taken literally. */
  search?: string;
  /** People with any role, current or past, at this organisation. */
  organisationReference?: string;
  profileType?: ProfileType;
}

/** The list order: surname, then first name, then reference. */
export interface ProfileSortKey {
  lastName: string;
  firstName: string;
  reference: string;
}

export function profileSortKey(profile: Profile): ProfileSortKey {
  return { lastName: profile.lastName, firstName: profile.firstName, reference: profile.reference };
}

/** Profiles matching `filter`, in list order (reversed when the window is inverted). */
export async function findProfiles(
  db: Database,
  filter: ProfileFilter,
  window: ListWindow<ProfileSortKey>,
): Promise<Profile[]> {
  const t = profilesTable;
  const conditions = filterConditions(filter);
  if (window.after)
    conditions.push(sql`(${t.lastName}, ${t.firstName}, ${t.reference}) > ${keyTuple(window.after)}`);
  if (window.before)
    conditions.push(sql`(${t.lastName}, ${t.firstName}, ${t.reference}) < ${keyTuple(window.before)}`);
  const direction = window.inverted ? desc : asc;
  return db
    .select()
    .from(t)
    .where(and(...conditions))
    .orderBy(direction(t.lastName), direction(t.firstName), direction(t.reference))
    .limit(window.limit)
    .offset(window.offset ?? 0);
}

/** How many profiles match `filter`, exact unless counting runs past `timeoutMs`. */
export async function countProfiles(db: Database, filter: ProfileFilter, timeoutMs: number): Promise<Total> {
  const where = and(...filterConditions(filter));
  const query = sql`select count(*) as count from ${profilesTable}${where ? sql` where ${where}` : sql``}`;
  return countWithinLimit(db, query, { table: 'profiles', timeoutMs });
}

function keyTuple(key: ProfileSortKey): SQL {
  return sql`(${key.lastName}, ${key.firstName}, ${key.reference}::uuid)`;
}

function filterConditions(filter: ProfileFilter): SQL[] {
  const t = profilesTable;
  const conditions: SQL[] = [];
  if (filter.search) conditions.push(sql`${t.fullName} ilike ${likeSubstring(filter.search)}`);
  if (filter.organisationReference) {
    const e = experiencesTable;
    conditions.push(
      sql`exists (select 1 from ${e} where ${e.profileReference} = ${t.reference} and ${e.organisationReference} = ${filter.organisationReference})`,
    );
  }
  if (filter.profileType) conditions.push(profileTypeCondition(filter.profileType));
  return conditions;
}

function profileTypeCondition(type: ProfileType): SQL {
  const t = profilesTable;
  switch (type) {
    case 'business_owner': {
      const s = profileStakesTable;
      return sql`exists (select 1 from ${s} where ${s.profileReference} = ${t.reference} and ${s.isActive})`;
    }
    case 'investment_advisor':
    case 'broker':
      // The data records one registration for both; the spec says the two return the same set.
      return eq(t.isRegisteredAdviser, true);
    case 'funding_participant':
      return participatesIn('funding');
    case 'public_offering_participant':
      return participatesIn('public_offering');
  }
}

function participatesIn(eventType: 'funding' | 'public_offering'): SQL {
  const p = eventParticipantsTable;
  const e = eventsTable;
  return sql`exists (select 1 from ${p} join ${e} on ${e.reference} = ${p.eventReference} where ${p.profileReference} = ${profilesTable.reference} and ${e.type} = ${eventType})`;
}
