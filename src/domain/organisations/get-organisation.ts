import { getTableColumns, type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { type Database, queryRows } from '../../db/database.ts';
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
  const o = organisationsTable;
  const parts = (table: PgTable, order: SQL) =>
    sql`(select coalesce(json_agg(${jsonObjectOf(table)} order by ${order}), '[]') from ${table}
      where ${table}.organisation_reference = ${o.reference})`;
  const aliases = organisationAliasesTable;
  const tickers = organisationTickersTable;
  const domains = organisationDomainsTable;
  const phones = organisationPhonesTable;
  const industries = organisationIndustriesTable;
  const summaries = clientSummariesTable;
  const [row] = await queryRows<RecordRow>(
    db,
    sql`select ${jsonObjectOf(o)} as organisation,
      ${parts(aliases, sql`${aliases.endDate} desc nulls first, ${aliases.startDate} desc nulls last, ${aliases.name}`)} as aliases,
      ${parts(tickers, sql`${tickers.isPrimaryListing} desc, ${tickers.exchangeCode}, ${tickers.value}`)} as tickers,
      ${parts(domains, sql`${domains.confidenceScore} desc, ${domains.domain}`)} as domains,
      ${parts(phones, sql`${phones.type} = 'main' desc, ${phones.type}, ${phones.number}`)} as phones,
      ${parts(industries, sql`${industries.isPrimary} desc, ${industries.industryCode}`)} as industries,
      ${parts(organisationAddressesTable, sql`${organisationAddressesTable.kind}`)} as addresses,
      (select ${jsonObjectOf(summaries)} from ${summaries} where ${summaries.organisationReference} = ${o.reference}
        order by ${summaries.publishDate} desc, ${summaries.reference} desc limit 1) as client_summary
    from ${o} where ${o.reference} = ${reference}`,
  );
  if (!row) throw notFound('organisation', reference);
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
    organisation: fromJson<Organisation>(o, row.organisation),
    aliases: rows<OrganisationAlias>(aliases, row.aliases),
    tickers: rows<OrganisationTicker>(tickers, row.tickers),
    domains: rows<OrganisationDomain>(domains, row.domains),
    phones: rows<OrganisationPhone>(phones, row.phones),
    industries: classifications,
    addresses: addressesByKind(rows<OrganisationAddress>(organisationAddressesTable, row.addresses)),
    clientSummary: summary ? fromJson<ClientSummary>(summaries, summary) : null,
  };
}

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

/** `json_build_object` of every column of `table`, keyed by the Drizzle property name. */
function jsonObjectOf(table: PgTable): SQL {
  const pairs = Object.entries(getTableColumns(table)).map(([key, column]) => sql`${key}::text, ${column}`);
  return sql`json_build_object(${sql.join(pairs, sql`, `)})`;
}

/** PGlite hands json back as text; the postgres driver parses it. */
function parseJson(value: unknown): unknown {
  return typeof value === 'string' ? JSON.parse(value) : value;
}

/** A row from `jsonObjectOf`, with timestamps turned back into dates as Drizzle returns them. */
function fromJson<Row>(table: PgTable, value: unknown): Row {
  const row = { ...(value as Record<string, unknown>) };
  for (const [key, column] of Object.entries(getTableColumns(table))) {
    if (column.dataType === 'date' && typeof row[key] === 'string') row[key] = new Date(row[key] as string);
  }
  return row as Row;
}
