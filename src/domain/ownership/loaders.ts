import type { Database } from '../../db/database.ts';
import { manyByKey, oneByKey } from '../batch.ts';
import { listOwners, listSubsidiaries } from './organisation-ownership.ts';
import { listProfileOwners, listStakesByReference, listStakesOfProfiles } from './profile-stakes.ts';

type References = readonly string[];

export function createOwnershipLoaders(db: Database) {
  const byOrganisation = (row: { organisationReference: string }) => row.organisationReference;
  return {
    ownersByOrganisation: manyByKey((references: References) => listOwners(db, references), byOrganisation),
    subsidiariesByOrganisation: manyByKey(
      (references: References) => listSubsidiaries(db, references),
      byOrganisation,
    ),
    /** Active stakes only, control persons first. */
    profileOwnersByOrganisation: manyByKey(
      (references: References) => listProfileOwners(db, references),
      byOrganisation,
    ),
    /** Every stake, active first, then the latest start first. */
    stakesByProfile: manyByKey(
      (references: References) => listStakesOfProfiles(db, references),
      (row) => row.profileReference,
    ),
    profileStakeByReference: oneByKey(
      (references: References) => listStakesByReference(db, references),
      (row) => row.reference,
    ),
  };
}
