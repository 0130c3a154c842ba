import { getTableColumns, type SQL, sql } from 'drizzle-orm';
import { PgDialect, type PgTable } from 'drizzle-orm/pg-core';
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
  statement ??= renderRecordStatement();
  const [row] = await queryRows<RecordRow>(
    db,
    sql`${sql.raw(statement.before)}${reference}${sql.raw(statement.after)}`,
  );
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

/** The statement's text around its one parameter, rendered once: Drizzle took 0.5 ms to render it per request. */
let statement: { before: string; after: string } | undefined;

function renderRecordStatement(): { before: string; after: string } {
  const o = organisationsTable;
  const { aliases, tickers, domains, phones, industries, summaries } = parts;
  const addresses = organisationAddressesTable;
  const aggregate = (table: PgTable, order: SQL) =>
    sql`(select coalesce(json_agg(${jsonObjectOf(table)} order by ${order}), '[]') from ${table}
      where ${table}.organisation_reference = ${o.reference})`;
  const query = sql`select ${jsonObjectOf(o)} as organisation,
      ${aggregate(aliases, sql`${aliases.endDate} desc nulls first, ${aliases.startDate} desc nulls last, ${aliases.name}`)} as aliases,
      ${aggregate(tickers, sql`${tickers.isPrimaryListing} desc, ${tickers.exchangeCode}, ${tickers.value}`)} as tickers,
      ${aggregate(domains, sql`${domains.confidenceScore} desc, ${domains.domain}`)} as domains,
      ${aggregate(phones, sql`${phones.type} = 'main' desc, ${phones.type}, ${phones.number}`)} as phones,
      ${aggregate(industries, sql`${industries.isPrimary} desc, ${industries.industryCode}`)} as industries,
      ${aggregate(addresses, sql`${addresses.kind}`)} as addresses,
      (select ${jsonObjectOf(summaries)} from ${summaries} where ${summaries.organisationReference} = ${o.reference}
        order by ${summaries.publishDate} desc, ${summaries.reference} desc limit 1) as client_summary
    from ${o} where ${o.reference} = ${'reference'}`;
  const { sql: text, params } = new PgDialect({ casing: 'snake_case' }).sqlToQuery(query);
  const pieces = text.split('$1');
  if (params.length !== 1 || pieces.length !== 2)
    throw new Error('the record statement must have one parameter');
  return { before: pieces[0]!, after: pieces[1]! };
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

/**
 * `json_build_object` of every column of `table`, keyed by the Drizzle property name (an identifier from
 * the schema, so it is written into the text rather than sent as one more parameter).
 */
function jsonObjectOf(table: PgTable): SQL {
  const pairs = Object.entries(getTableColumns(table)).map(
    ([key, column]) => sql`${sql.raw(`'${key}'`)}, ${column}`,
  );
  return sql`json_build_object(${sql.join(pairs, sql`, `)})`;
}

/** PGlite hands json back as text; the postgres driver parses it. */
function parseJson(value: unknown): unknown {
  return typeof value === 'string' ? JSON.parse(value) : value;
}

/** A row from `jsonObjectOf`, with timestamps turned back into dates as Drizzle returns them. */
function fromJson<Row>(table: PgTable, value: unknown): Row {
  const row = { ...(value as Record<string, unknown>) };
  for (const key of dateKeysOf(table)) {
    if (typeof row[key] === 'string') row[key] = new Date(row[key] as string);
  }
  return row as Row;
}

const dateKeys = new Map<PgTable, string[]>();

/** The properties Drizzle returns as dates (timestamps in `date` mode). */
function dateKeysOf(table: PgTable): string[] {
  let keys = dateKeys.get(table);
  if (!keys) {
    keys = Object.entries(getTableColumns(table)).flatMap(([key, column]) =>
      column.dataType === 'date' ? [key] : [],
    );
    dateKeys.set(table, keys);
  }
  return keys;
}
