import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/database.ts';
import { preparedByReferences, type ReferenceQuery } from '../../db/prepared-query.ts';
import { organisationsTable } from '../../db/schema/organisations.ts';
import { type ProfileStake, profileStakesTable } from '../../db/schema/ownership.ts';
import { profilesTable } from '../../db/schema/profiles.ts';

/** A stake with the names of both ends, as the ownership endpoints show them. */
export interface NamedStake extends ProfileStake {
  profileName: string;
  organisationName: string;
}

function selectNamedStakes(db: Database) {
  const s = profileStakesTable;
  return db
    .select({
      reference: s.reference,
      profileReference: s.profileReference,
      organisationReference: s.organisationReference,
      ownershipType: s.ownershipType,
      ownershipBand: s.ownershipBand,
      titleOrStatus: s.titleOrStatus,
      isControlPerson: s.isControlPerson,
      isActive: s.isActive,
      startDate: s.startDate,
      endDate: s.endDate,
      profileName: profilesTable.fullName,
      organisationName: organisationsTable.name,
    })
    .from(s)
    .innerJoin(profilesTable, eq(profilesTable.reference, s.profileReference))
    .innerJoin(organisationsTable, eq(organisationsTable.reference, s.organisationReference));
}

const s = profileStakesTable;

/** The people holding an active stake in each of the organisations: control persons first, then by name. */
export const listProfileOwners: ReferenceQuery<NamedStake> = preparedByReferences(
  'orgraph_profile_owners',
  (db, match) =>
    selectNamedStakes(db)
      .where(and(match(s.organisationReference), eq(s.isActive, true)))
      .orderBy(
        desc(s.isControlPerson),
        asc(profilesTable.lastName),
        asc(profilesTable.firstName),
        asc(s.reference),
      ),
);

/** Every stake of each of the people, active first, then the latest start first. */
export const listStakesOfProfiles: ReferenceQuery<NamedStake> = preparedByReferences(
  'orgraph_stakes_of_profiles',
  (db, match) =>
    selectNamedStakes(db)
      .where(match(s.profileReference))
      .orderBy(
        desc(s.isActive),
        sql`${s.startDate} desc nulls last`,
        asc(organisationsTable.name),
        asc(s.reference),
      ),
);

export const listStakesByReference: ReferenceQuery<NamedStake> = preparedByReferences(
  'orgraph_stakes_by_reference',
  (db, match) => selectNamedStakes(db).where(match(s.reference)),
);

/** Every stake a person holds or held (empty for an unknown person, as the interface asks). */
export function getProfileStakes(db: Database, profileReference: string): Promise<NamedStake[]> {
  return listStakesOfProfiles(db, [profileReference]);
}
