import { bigint, boolean, pgTable, primaryKey, smallint } from 'drizzle-orm/pg-core';
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
