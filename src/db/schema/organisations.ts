import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  real,
  smallint,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import {
  addressKinds,
  type ClientSummaryEntry,
  organisationStatuses,
  scoreDimensions,
  summaryTypes,
} from '../../domain/vocabulary/organisations.ts';
import { industriesTable } from './reference.ts';

export const organisationStatusEnum = pgEnum('organisation_status', organisationStatuses);
export const scoreDimensionEnum = pgEnum('score_dimension', scoreDimensions);
export const addressKindEnum = pgEnum('address_kind', addressKinds);
export const summaryTypeEnum = pgEnum('summary_type', summaryTypes);

export const organisationsTable = pgTable(
  'organisations',
  {
    reference: uuid().primaryKey(),
    name: text().notNull(),
    description: text(),
    status: organisationStatusEnum().notNull(),
    verified: boolean().notNull(),
    confidence: smallint().notNull(),
    isFund: boolean().notNull(),
    /** Recorded headcount; the size band is derived from it. */
    employees: integer().notNull(),
    customers: integer().notNull().default(0),
    suppliers: integer().notNull().default(0),
    partners: integer().notNull().default(0),
    serviceProviders: integer().notNull().default(0),
    /**
     * Whether the organisation is in the activity index (`organisation_activity`); kept by the same refresh,
     * so that the default list tests a column of its covering index instead of probing the index per row.
     */
    hasActivity: boolean().notNull().default(false),
  },
  (t) => [
    check('organisations_confidence_range', sql`${t.confidence} between 0 and 100`),
    // The list's order, carrying the columns its common filters test, so that skipping to a deep page reads
    // the index alone (an index-only scan) rather than every skipped row.
    index('organisations_name_order').on(
      t.name,
      t.reference,
      t.isFund,
      t.confidence,
      t.status,
      t.verified,
      t.hasActivity,
    ),
    index('organisations_status').on(t.status),
  ],
);

/**
 * The columns the organisation list filters on, one narrow row per organisation (about 110 bytes against 385),
 * with the name lower-cased once. A name substring is matched here: the trigram index's candidates are
 * rechecked on a few small pages instead of the wide rows, and with `like` on `name_lower` instead of `ilike`,
 * which lower-cases every candidate. `name_lower like lower(pattern)` is what PostgreSQL does for
 * `name ilike pattern` in a UTF-8 database, so the matches are the same. Kept by triggers on `organisations`
 * (migration 0007: every insert and update copies these columns, a delete cascades), never written directly.
 */
export const organisationNamesTable = pgTable(
  'organisation_names',
  {
    reference: uuid()
      .primaryKey()
      .references(() => organisationsTable.reference, { onDelete: 'cascade', onUpdate: 'cascade' }),
    name: text().notNull(),
    nameLower: text().notNull().generatedAlwaysAs(sql`lower("name")`),
    /**
     * `name_lower` with every character that is not a letter or digit written as one, for the trigram index only:
     * blanks as `0`, the common punctuation as a digit each, the rest as `8` (`orgraph_name_key`, migration 0025).
     * It keeps the blanks and punctuation of a substring as trigrams (`i, S` becomes `i30s`), where the trigrams
     * of `name_lower` stop at every word (see nameSubstringMatch).
     */
    nameKey: text().notNull().generatedAlwaysAs(sql`orgraph_name_key("name")`),
    /**
     * The name as resolving a list matches it (`orgraph_organisation_key`, migration 0029: without legal forms, case,
     * accents or punctuation), stored so that the trigram lookup's recheck and ranking read it instead of computing it
     * for every candidate (migration 0030).
     */
    matchKey: text().notNull().generatedAlwaysAs(sql`orgraph_organisation_key("name")`),
    status: organisationStatusEnum().notNull(),
    verified: boolean().notNull(),
    confidence: smallint().notNull(),
    isFund: boolean().notNull(),
    hasActivity: boolean().notNull(),
    /**
     * The country of the company address (ISO 3166-1 alpha-2), null without one: kept by statement triggers on
     * organisation_addresses (migration 0009).
     */
    country: text(),
  },
  (t) => [
    // Two trigram indexes, funds and the others apart: funds' shared words ("Ventures") gave the default kind's
    // searches tens of thousands of candidates to throw away (migration 0024), and an index over both served that
    // kind or not as the statistics fell (migration 0026). A search over every kind asks both (nameSubstringMatch).
    index('organisation_names_others_key_trgm')
      .using('gin', sql`${t.nameKey} gin_trgm_ops`)
      .where(sql`not ${t.isFund}`),
    index('organisation_names_funds_key_trgm')
      .using('gin', sql`${t.nameKey} gin_trgm_ops`)
      .where(sql`${t.isFund}`),
    // A narrow filter of the list (two of country, industry and score) finds its candidates in the child tables'
    // indexes and looks each one up here: with the columns it tests and sorts by, the lookup reads the index alone.
    index('organisation_names_lookup').on(
      t.reference,
      t.status,
      t.confidence,
      t.hasActivity,
      t.isFund,
      t.verified,
      t.name,
    ),
    // A narrow filter with a country reads its candidates here, already narrowed by status, activity, fund and
    // confidence, with the name and reference it sorts by: one range of a few thousand entries for the whole
    // country list before. The industry filter then meets them by reference.
    index('organisation_names_country').on(
      t.country,
      t.status,
      t.hasActivity,
      t.isFund,
      t.confidence,
      t.verified,
      t.name,
      t.reference,
    ),
    // Resolving a list (src/domain/resolve): a name's key looked up exactly, and its trigrams for a name a typo
    // keeps apart.
    index('organisation_names_match_key').on(t.matchKey),
    index('organisation_names_match_key_trgm').using('gin', sql`${t.matchKey} gin_trgm_ops`),
    // Suggestions in their order: the names starting with a text are one range, the others a walk from the start
    // (migration 0023).
    index('organisation_names_label_order').on(
      sql`${t.nameLower} collate "C"`,
      sql`${t.name} collate "C"`,
      t.reference,
    ),
  ],
);

/**
 * For every piece of three characters of a lower-cased name (`organisation_names`), the names containing it in the
 * list's order (name, then reference), funds and others apart: a name search walks the list of its rarest piece
 * until its page of matches turns up. Kept by statement triggers on `organisation_names` (migration 0028).
 */
export const organisationNameTrigramsTable = pgTable(
  'organisation_name_trigrams',
  {
    trigram: text().notNull(),
    isFund: boolean().notNull(),
    name: text().notNull(),
    reference: uuid().notNull(),
  },
  (t) => [
    primaryKey({
      name: 'organisation_name_trigrams_key',
      columns: [t.trigram, t.isFund, t.name, t.reference],
    }),
  ],
);

/**
 * One row per organisation with a company country and GICS node its industries fall under (every code's sector,
 * group, industry and sub-industry), and one under the node '' (any industry), with the columns the list filters on:
 * a filter on a country, with an industry or not, reads one range of `organisation_filter_keys_walk` in name order
 * instead of meeting the country's and the industry's organisations by reference. Kept by statement triggers on `organisation_names` and `organisation_industries`
 * (migration 0021), never written directly.
 */
export const organisationFilterKeysTable = pgTable(
  'organisation_filter_keys',
  {
    reference: uuid().notNull(),
    /** A GICS code of 2, 4, 6 or 8 digits that one of the organisation's codes starts with; '' for any industry. */
    node: text().notNull(),
    country: text().notNull(),
    name: text().notNull(),
    hasActivity: boolean().notNull(),
    isFund: boolean().notNull(),
    status: organisationStatusEnum().notNull(),
    verified: boolean().notNull(),
    confidence: smallint().notNull(),
  },
  (t) => [
    primaryKey({ name: 'organisation_filter_keys_key', columns: [t.reference, t.node] }),
    // Migration 0021 also includes the other columns, so that the walk filters on the index alone (drizzle's builder
    // has no INCLUDE).
    index('organisation_filter_keys_walk').on(t.country, t.node, t.name, t.reference),
  ],
);

export const organisationAliasesTable = pgTable(
  'organisation_aliases',
  {
    reference: uuid().primaryKey(),
    organisationReference: uuid()
      .notNull()
      .references(() => organisationsTable.reference, { onDelete: 'cascade' }),
    name: text().notNull(),
    startDate: date({ mode: 'string' }),
    endDate: date({ mode: 'string' }),
  },
  (t) => [
    index().on(t.organisationReference),
    index('organisation_aliases_match_key').on(sql`orgraph_organisation_key(${t.name})`),
  ],
);

export const organisationTickersTable = pgTable(
  'organisation_tickers',
  {
    reference: uuid().primaryKey(),
    organisationReference: uuid()
      .notNull()
      .references(() => organisationsTable.reference, { onDelete: 'cascade' }),
    value: text().notNull(),
    exchangeName: text().notNull(),
    exchangeCode: text().notNull(),
    currency: text().notNull(),
    status: text().notNull(),
    isPrimaryListing: boolean().notNull(),
  },
  (t) => [
    index().on(t.organisationReference),
    index('organisation_tickers_symbol').on(sql`upper(${t.value})`),
  ],
);

export const organisationDomainsTable = pgTable(
  'organisation_domains',
  {
    reference: uuid().primaryKey(),
    organisationReference: uuid()
      .notNull()
      .references(() => organisationsTable.reference, { onDelete: 'cascade' }),
    domain: text().notNull(),
    confidenceScore: real().notNull(),
    isValid: boolean().notNull(),
  },
  (t) => [
    index().on(t.organisationReference),
    index('organisation_domains_domain').on(sql`lower(${t.domain})`),
  ],
);

export const organisationPhonesTable = pgTable(
  'organisation_phones',
  {
    reference: uuid().primaryKey(),
    organisationReference: uuid()
      .notNull()
      .references(() => organisationsTable.reference, { onDelete: 'cascade' }),
    number: text().notNull(),
    type: text().notNull(),
    isValid: boolean().notNull(),
  },
  (t) => [index().on(t.organisationReference)],
);

export const organisationIndustriesTable = pgTable(
  'organisation_industries',
  {
    organisationReference: uuid()
      .notNull()
      .references(() => organisationsTable.reference, { onDelete: 'cascade' }),
    industryCode: text()
      .notNull()
      .references(() => industriesTable.code),
    isPrimary: boolean().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.organisationReference, t.industryCode] }),
    // With the organisation, so the industry filter reads the index alone.
    index('organisation_industries_code_prefix').using(
      'btree',
      sql`${t.industryCode} text_pattern_ops`,
      t.organisationReference,
    ),
  ],
);

export const organisationAddressesTable = pgTable(
  'organisation_addresses',
  {
    organisationReference: uuid()
      .notNull()
      .references(() => organisationsTable.reference, { onDelete: 'cascade' }),
    kind: addressKindEnum().notNull(),
    city: text(),
    state: text(),
    /** ISO 3166-1 alpha-2. */
    country: text(),
    zipPostalCode: text(),
  },
  // The country index carries the organisation, so the country filter reads the index alone.
  (t) => [
    primaryKey({ columns: [t.organisationReference, t.kind] }),
    index('organisation_addresses_country_kind_index').on(t.country, t.kind, t.organisationReference),
  ],
);

export const organisationScoresTable = pgTable(
  'organisation_scores',
  {
    organisationReference: uuid()
      .notNull()
      .references(() => organisationsTable.reference, { onDelete: 'cascade' }),
    dimension: scoreDimensionEnum().notNull(),
    score: smallint().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.organisationReference, t.dimension] }),
    index().on(t.dimension, t.score),
    check('organisation_scores_range', sql`${t.score} between 1 and 100`),
  ],
);

/** Assets-under-management records; an organisation has several over the years, the latest is its `client_summary`. */
export const clientSummariesTable = pgTable(
  'client_summaries',
  {
    reference: uuid().primaryKey(),
    organisationReference: uuid()
      .notNull()
      .references(() => organisationsTable.reference, { onDelete: 'cascade' }),
    currencyCode: text().notNull(),
    summaryType: summaryTypeEnum().notNull(),
    publishDate: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
    entries: jsonb().$type<ClientSummaryEntry[]>().notNull(),
  },
  (t) => [index().on(t.organisationReference, t.publishDate.desc())],
);

export type Organisation = typeof organisationsTable.$inferSelect;
export type NewOrganisation = typeof organisationsTable.$inferInsert;
export type OrganisationAlias = typeof organisationAliasesTable.$inferSelect;
export type OrganisationTicker = typeof organisationTickersTable.$inferSelect;
export type OrganisationDomain = typeof organisationDomainsTable.$inferSelect;
export type OrganisationPhone = typeof organisationPhonesTable.$inferSelect;
export type OrganisationIndustry = typeof organisationIndustriesTable.$inferSelect;
export type OrganisationAddress = typeof organisationAddressesTable.$inferSelect;
export type OrganisationScore = typeof organisationScoresTable.$inferSelect;
export type ClientSummary = typeof clientSummariesTable.$inferSelect;
