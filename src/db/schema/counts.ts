import { bigint, boolean, pgTable, primaryKey, smallint, text } from 'drizzle-orm/pg-core';
import { organisationStatusEnum } from './organisations.ts';

/**
 * How many organisations there are per combination of the columns a broad list filters on (activity, kind,
 * status, verified, confidence): at most a few thousand rows, kept exact by statement triggers on
 * `organisations` (migration 0013). A list filtered only on these columns sums the matching rows instead of
 * counting up to two million organisations.
 */
export const organisationCountsTable = pgTable(
  'organisation_counts',
  {
    hasActivity: boolean().notNull(),
    isFund: boolean().notNull(),
    status: organisationStatusEnum().notNull(),
    verified: boolean().notNull(),
    confidence: smallint().notNull(),
    organisations: bigint({ mode: 'number' }).notNull(),
  },
  (t) => [
    primaryKey({
      name: 'organisation_counts_key',
      columns: [t.hasActivity, t.isFund, t.status, t.verified, t.confidence],
    }),
  ],
);

/**
 * How many organisations each (company country, GICS node or '' for any) has per combination of the other filter
 * columns, kept exact by statement triggers on `organisation_filter_keys` (migration 0021): a list filtered on a
 * country, with an industry or not, sums the matching rows of its country and node.
 */
export const organisationFilterCountsTable = pgTable(
  'organisation_filter_counts',
  {
    country: text().notNull(),
    node: text().notNull(),
    hasActivity: boolean().notNull(),
    isFund: boolean().notNull(),
    status: organisationStatusEnum().notNull(),
    verified: boolean().notNull(),
    confidence: smallint().notNull(),
    organisations: bigint({ mode: 'number' }).notNull(),
  },
  (t) => [
    primaryKey({
      name: 'organisation_filter_counts_key',
      columns: [t.country, t.node, t.hasActivity, t.isFund, t.status, t.verified, t.confidence],
    }),
  ],
);

/**
 * How many organisations (funds and others apart) have a lower-cased name containing each piece of three to six
 * characters, kept exact by statement triggers on `organisation_names` (migration 0022): the count of a name search of
 * that length is one row. `firstLabel` is at or before the first such lower-cased name in byte order, the suggestions'
 * order (migration 0027; the column is `COLLATE "C"`).
 */
export const organisationNameFragmentsTable = pgTable(
  'organisation_name_fragments',
  {
    fragment: text().notNull(),
    isFund: boolean().notNull(),
    organisations: bigint({ mode: 'number' }).notNull(),
    firstLabel: text(),
  },
  (t) => [primaryKey({ name: 'organisation_name_fragments_key', columns: [t.fragment, t.isFund] })],
);
