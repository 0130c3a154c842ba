import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../../db/database.ts';
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

/** The people holding an active stake in each of `references`: control persons first, then by name. */
export function listProfileOwners(db: Database, references: readonly string[]): Promise<NamedStake[]> {
  const s = profileStakesTable;
  return selectNamedStakes(db)
    .where(and(inArray(s.organisationReference, [...references]), eq(s.isActive, true)))
    .orderBy(
      desc(s.isControlPerson),
      asc(profilesTable.lastName),
      asc(profilesTable.firstName),
      asc(s.reference),
    );
}

/** Every stake of each of `profileReferences`, active first, then the latest start first. */
export function listStakesOfProfiles(
  db: Database,
  profileReferences: readonly string[],
): Promise<NamedStake[]> {
  const s = profileStakesTable;
  return selectNamedStakes(db)
    .where(inArray(s.profileReference, [...profileReferences]))
    .orderBy(
      desc(s.isActive),
      sql`${s.startDate} desc nulls last`,
      asc(organisationsTable.name),
      asc(s.reference),
    );
}

export function listStakesByReference(db: Database, references: readonly string[]): Promise<NamedStake[]> {
  return selectNamedStakes(db).where(inArray(profileStakesTable.reference, [...references]));
}

/** Every stake a person holds or held (empty for an unknown person, as the interface asks). */
export function getProfileStakes(db: Database, profileReference: string): Promise<NamedStake[]> {
  return listStakesOfProfiles(db, [profileReference]);
}
