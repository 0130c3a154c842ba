import type { Database } from '../../db/database.ts';
import { DomainError } from '../errors.ts';
import type { Loaders } from '../loaders.ts';
import type { Organisation } from '../records.ts';
import { getOrganisation, type OrganisationRecord } from './get-organisation.ts';

/**
 * Reads an organisation's whole record in one statement and hands its parts to the loaders its fields resolve
 * through, so that they send nothing: one JSON-aggregated statement costs less than a statement per part
 * (bench/NOTES.md). Null when no organisation has `reference`.
 */
export async function loadOrganisationRecord(
  db: Database,
  loaders: Loaders,
  reference: string,
): Promise<Organisation | null> {
  let record: OrganisationRecord;
  try {
    record = await getOrganisation(db, reference);
  } catch (error) {
    if (error instanceof DomainError && error.code === 'NOT_FOUND') return null;
    throw error;
  }
  const { organisation, addresses } = record;
  loaders.organisationByReference.prime(reference, organisation);
  loaders.aliasesByOrganisation.prime(reference, record.aliases);
  loaders.tickersByOrganisation.prime(reference, record.tickers);
  loaders.domainsByOrganisation.prime(reference, record.domains);
  loaders.phonesByOrganisation.prime(reference, record.phones);
  loaders.industriesByOrganisation.prime(reference, record.industries);
  loaders.addressesByOrganisation.prime(
    reference,
    [addresses.company, addresses.mailing].flatMap((address) => address ?? []),
  );
  loaders.latestClientSummaryByOrganisation.prime(reference, record.clientSummary);
  return organisation;
}
