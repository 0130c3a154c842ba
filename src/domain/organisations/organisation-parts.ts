import { asc, desc, inArray, sql } from 'drizzle-orm';
import type { Database } from '../../db/database.ts';
import {
  type ClientSummary,
  clientSummariesTable,
  type OrganisationAddress,
  type OrganisationAlias,
  type OrganisationDomain,
  type OrganisationIndustry,
  type OrganisationPhone,
  type OrganisationScore,
  type OrganisationTicker,
  organisationAddressesTable,
  organisationAliasesTable,
  organisationDomainsTable,
  organisationIndustriesTable,
  organisationPhonesTable,
  organisationScoresTable,
  organisationTickersTable,
} from '../../db/schema/organisations.ts';
import type { Industry } from '../../db/schema/reference.ts';
import { scoreDimensions } from '../vocabulary/organisations.ts';
import { findIndustry } from './industries.ts';

// Each function reads one part of many organisations in one query; the loaders batch through them and
// the single-record read calls them with one reference, so both transports show the same values.

type References = readonly string[];

export function listAliases(db: Database, references: References): Promise<OrganisationAlias[]> {
  const t = organisationAliasesTable;
  return db
    .select()
    .from(t)
    .where(inArray(t.organisationReference, [...references]))
    .orderBy(sql`${t.endDate} desc nulls first`, sql`${t.startDate} desc nulls last`, asc(t.name));
}

export function listTickers(db: Database, references: References): Promise<OrganisationTicker[]> {
  const t = organisationTickersTable;
  return db
    .select()
    .from(t)
    .where(inArray(t.organisationReference, [...references]))
    .orderBy(desc(t.isPrimaryListing), asc(t.exchangeCode), asc(t.value));
}

export function listDomains(db: Database, references: References): Promise<OrganisationDomain[]> {
  const t = organisationDomainsTable;
  return db
    .select()
    .from(t)
    .where(inArray(t.organisationReference, [...references]))
    .orderBy(desc(t.confidenceScore), asc(t.domain));
}

export function listPhones(db: Database, references: References): Promise<OrganisationPhone[]> {
  const t = organisationPhonesTable;
  return db
    .select()
    .from(t)
    .where(inArray(t.organisationReference, [...references]))
    .orderBy(sql`${t.type} = 'main' desc`, asc(t.type), asc(t.number));
}

/** An organisation's GICS classification: the taxonomy node and whether it is the primary one. */
export interface IndustryClassification {
  organisationReference: string;
  industry: Industry;
  isPrimary: boolean;
}

export async function listIndustries(
  db: Database,
  references: References,
): Promise<IndustryClassification[]> {
  const t = organisationIndustriesTable;
  const rows: OrganisationIndustry[] = await db
    .select()
    .from(t)
    .where(inArray(t.organisationReference, [...references]))
    .orderBy(desc(t.isPrimary), asc(t.industryCode));
  return rows.flatMap((row) => {
    const industry = findIndustry(row.industryCode);
    return industry
      ? [{ organisationReference: row.organisationReference, industry, isPrimary: row.isPrimary }]
      : [];
  });
}

export function listAddresses(db: Database, references: References): Promise<OrganisationAddress[]> {
  const t = organisationAddressesTable;
  return db
    .select()
    .from(t)
    .where(inArray(t.organisationReference, [...references]));
}

/** The company and mailing addresses of one organisation, null where none is recorded. */
export interface OrganisationAddresses {
  company: OrganisationAddress | null;
  mailing: OrganisationAddress | null;
}

export function addressesByKind(addresses: readonly OrganisationAddress[]): OrganisationAddresses {
  return {
    company: addresses.find((address) => address.kind === 'company') ?? null,
    mailing: addresses.find((address) => address.kind === 'mailing') ?? null,
  };
}

/** Scores in the order of the dimensions' declaration. */
export async function listScores(db: Database, references: References): Promise<OrganisationScore[]> {
  const t = organisationScoresTable;
  const rows = await db
    .select()
    .from(t)
    .where(inArray(t.organisationReference, [...references]));
  const rank = (score: OrganisationScore) => scoreDimensions.indexOf(score.dimension);
  return rows.sort((a, b) => rank(a) - rank(b));
}

/** Assets-under-management records, newest first. */
export function listClientSummaries(db: Database, references: References): Promise<ClientSummary[]> {
  const t = clientSummariesTable;
  return db
    .select()
    .from(t)
    .where(inArray(t.organisationReference, [...references]))
    .orderBy(asc(t.organisationReference), desc(t.publishDate), desc(t.reference));
}

/** Each organisation's latest assets-under-management record (the single record's `client_summary`). */
export function listLatestClientSummaries(db: Database, references: References): Promise<ClientSummary[]> {
  const t = clientSummariesTable;
  return db
    .selectDistinctOn([t.organisationReference])
    .from(t)
    .where(inArray(t.organisationReference, [...references]))
    .orderBy(asc(t.organisationReference), desc(t.publishDate), desc(t.reference));
}

export function listClientSummariesByReference(
  db: Database,
  references: References,
): Promise<ClientSummary[]> {
  const t = clientSummariesTable;
  return db
    .select()
    .from(t)
    .where(inArray(t.reference, [...references]));
}
