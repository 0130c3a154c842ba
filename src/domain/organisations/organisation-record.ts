import type { Database } from '../../db/database.ts';
import { DomainError } from '../errors.ts';
import type { Organisation } from '../records.ts';
import { getOrganisation, type OrganisationRecord } from './get-organisation.ts';

/** On an organisation read as a single record: the parts read with it, which its fields answer synchronously. */
export const recordParts = Symbol('record parts');

export type OrganisationWithParts = Organisation & { [recordParts]?: OrganisationRecord };

/**
 * Reads an organisation's whole record in one statement, its parts attached under `recordParts` so that the fields
 * reading them send nothing and wait for nothing (bench/NOTES.md 77). Null when no organisation has `reference`.
 */
export async function loadOrganisationRecord(
  db: Database,
  reference: string,
): Promise<OrganisationWithParts | null> {
  let record: OrganisationRecord;
  try {
    record = await getOrganisation(db, reference);
  } catch (error) {
    if (error instanceof DomainError && error.code === 'NOT_FOUND') return null;
    throw error;
  }
  const organisation: OrganisationWithParts = record.organisation;
  organisation[recordParts] = record;
  return organisation;
}
