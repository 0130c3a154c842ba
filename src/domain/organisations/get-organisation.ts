import { eq } from 'drizzle-orm';
import type { Database } from '../../db/database.ts';
import {
  type ClientSummary,
  type Organisation,
  type OrganisationAlias,
  type OrganisationDomain,
  type OrganisationPhone,
  type OrganisationTicker,
  organisationsTable,
} from '../../db/schema/organisations.ts';
import { notFound } from '../errors.ts';
import {
  addressesByKind,
  type IndustryClassification,
  listAddresses,
  listAliases,
  listDomains,
  listIndustries,
  listLatestClientSummaries,
  listPhones,
  listTickers,
  type OrganisationAddresses,
} from './organisation-parts.ts';

/** One organisation with every part its single record shows. */
export interface OrganisationRecord {
  organisation: Organisation;
  aliases: OrganisationAlias[];
  tickers: OrganisationTicker[];
  domains: OrganisationDomain[];
  phones: OrganisationPhone[];
  industries: IndustryClassification[];
  addresses: OrganisationAddresses;
  /** The latest assets-under-management record, or null. */
  clientSummary: ClientSummary | null;
}

/**
 * An organisation and all its parts in a fixed number of queries run side by side, through the same
 * part readers the graph's loaders use. Throws not found for an unknown reference.
 */
export async function getOrganisation(db: Database, reference: string): Promise<OrganisationRecord> {
  const one = [reference];
  const [organisations, aliases, tickers, domains, phones, industries, addresses, summaries] =
    await Promise.all([
      db.select().from(organisationsTable).where(eq(organisationsTable.reference, reference)),
      listAliases(db, one),
      listTickers(db, one),
      listDomains(db, one),
      listPhones(db, one),
      listIndustries(db, one),
      listAddresses(db, one),
      listLatestClientSummaries(db, one),
    ]);
  const organisation = organisations[0];
  if (!organisation) throw notFound('organisation', reference);
  return {
    organisation,
    aliases,
    tickers,
    domains,
    phones,
    industries,
    addresses: addressesByKind(addresses),
    clientSummary: summaries[0] ?? null,
  };
}
