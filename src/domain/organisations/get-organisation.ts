import { type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { type Database, queryRows } from '../../db/database.ts';
import { fromJson, jsonObjectOf, parseJson } from '../../db/json-rows.ts';
import { renderedOnce } from '../../db/render-once.ts';
import {
  type ClientSummary,
  clientSummariesTable,
  type Organisation,
  type OrganisationAddress,
  type OrganisationAlias,
  type OrganisationDomain,
  type OrganisationIndustry,
  type OrganisationPhone,
  type OrganisationTicker,
  organisationAddressesTable,
  organisationAliasesTable,
  organisationDomainsTable,
  organisationIndustriesTable,
  organisationPhonesTable,
  organisationsTable,
  organisationTickersTable,
} from '../../db/schema/organisations.ts';
import { notFound } from '../errors.ts';
import { findIndustry } from './industries.ts';
import {
  addressesByKind,
  type IndustryClassification,
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
 * An organisation and all its parts in one SQL statement: each part is aggregated to JSON beside the row,
 * in the order the part readers (shared with the graph's loaders) use. One round trip instead of eight
 * cuts the single record's CPU in the service and in PostgreSQL (see bench/NOTES.md). Throws not found
 * for an unknown reference.
 */
export async function getOrganisation(db: Database, reference: string): Promise<OrganisationRecord> {
  const [row] = await queryRows<RecordRow>(db, recordStatement(reference));
  if (!row) throw notFound('organisation', reference);
  const { aliases, tickers, domains, phones, industries, summaries } = parts;
  const rows = <T>(table: PgTable, values: unknown) =>
    (parseJson(values) as unknown[]).map((v) => fromJson<T>(table, v));
  const classifications = rows<OrganisationIndustry>(industries, row.industries).flatMap((classification) => {
    const industry = findIndustry(classification.industryCode);
    return industry
      ? [
          {
            organisationReference: classification.organisationReference,
            industry,
            isPrimary: classification.isPrimary,
          },
        ]
      : [];
  });
  const summary = parseJson(row.client_summary);
  return {
    organisation: fromJson<Organisation>(organisationsTable, row.organisation),
    aliases: rows<OrganisationAlias>(aliases, row.aliases),
    tickers: rows<OrganisationTicker>(tickers, row.tickers),
    domains: rows<OrganisationDomain>(domains, row.domains),
    phones: rows<OrganisationPhone>(phones, row.phones),
    industries: classifications,
    addresses: addressesByKind(rows<OrganisationAddress>(organisationAddressesTable, row.addresses)),
    clientSummary: summary ? fromJson<ClientSummary>(summaries, summary) : null,
  };
}

const parts = {
  aliases: organisationAliasesTable,
  tickers: organisationTickersTable,
  domains: organisationDomainsTable,
  phones: organisationPhonesTable,
  industries: organisationIndustriesTable,
  summaries: clientSummariesTable,
};

const recordStatement = renderedOnce((reference) => {
  const o = organisationsTable;
  const { aliases, tickers, domains, phones, industries, summaries } = parts;
  const addresses = organisationAddressesTable;
  const aggregate = (table: PgTable, order: SQL) =>
    sql`(select coalesce(json_agg(${jsonObjectOf(table)} order by ${order}), '[]') from ${table}
      where ${table}.organisation_reference = ${o.reference})`;
  return sql`select ${jsonObjectOf(o)} as organisation,
      ${aggregate(aliases, sql`${aliases.endDate} desc nulls first, ${aliases.startDate} desc nulls last, ${aliases.name}`)} as aliases,
      ${aggregate(tickers, sql`${tickers.isPrimaryListing} desc, ${tickers.exchangeCode}, ${tickers.value}`)} as tickers,
      ${aggregate(domains, sql`${domains.confidenceScore} desc, ${domains.domain}`)} as domains,
      ${aggregate(phones, sql`${phones.type} = 'main' desc, ${phones.type}, ${phones.number}`)} as phones,
      ${aggregate(industries, sql`${industries.isPrimary} desc, ${industries.industryCode}`)} as industries,
      ${aggregate(addresses, sql`${addresses.kind}`)} as addresses,
      (select ${jsonObjectOf(summaries)} from ${summaries} where ${summaries.organisationReference} = ${o.reference}
        order by ${summaries.publishDate} desc, ${summaries.reference} desc limit 1) as client_summary
    from ${o} where ${o.reference} = ${reference}`;
});

interface RecordRow {
  organisation: unknown;
  aliases: unknown;
  tickers: unknown;
  domains: unknown;
  phones: unknown;
  industries: unknown;
  addresses: unknown;
  client_summary: unknown;
}
