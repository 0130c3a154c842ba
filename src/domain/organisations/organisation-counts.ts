import { and, eq, gte, type SQL, sql } from 'drizzle-orm';
import { type Database, queryRows } from '../../db/database.ts';
import {
  organisationCountsTable,
  organisationFilterCountsTable,
  organisationNameFragmentsTable,
} from '../../db/schema/counts.ts';
import type { OrganisationStatus } from '../vocabulary/organisations.ts';

/** A filter on the columns `organisation_counts` groups by; an absent field does not filter. */
export interface TallyFilter {
  /** A company country (alpha-2) and a GICS node ('' for any): summed from `organisation_filter_counts` then. */
  place?: { country: string; node: string };
  hasActivity?: boolean;
  isFund?: boolean;
  status?: OrganisationStatus;
  verified?: boolean;
  minConfidence: number;
}

/**
 * The exact number of organisations matching `filter`, summed from the maintained counts (a few thousand rows at
 * most, whatever the number of organisations) rather than counted.
 */
export async function tallyOrganisations(db: Database, filter: TallyFilter): Promise<number> {
  const c = filter.place ? organisationFilterCountsTable : organisationCountsTable;
  const conditions: SQL[] = [];
  if (filter.place) {
    conditions.push(
      eq(organisationFilterCountsTable.country, filter.place.country),
      eq(organisationFilterCountsTable.node, filter.place.node),
    );
  }
  if (filter.hasActivity !== undefined) conditions.push(eq(c.hasActivity, filter.hasActivity));
  if (filter.isFund !== undefined) conditions.push(eq(c.isFund, filter.isFund));
  if (filter.status !== undefined) conditions.push(eq(c.status, filter.status));
  if (filter.verified !== undefined) conditions.push(eq(c.verified, filter.verified));
  if (filter.minConfidence > 0) conditions.push(gte(c.confidence, filter.minConfidence));
  const where = conditions.length > 0 ? sql` where ${and(...conditions)}` : sql``;
  const [row] = await queryRows<{ count: string | number | null }>(
    db,
    sql`select coalesce(sum(${c.organisations}), 0)::bigint as count from ${c}${where}`,
  );
  return Number(row?.count ?? 0);
}

/** What `organisation_name_fragments` knows of a name substring. */
export interface NameFragmentTally {
  /** The text as PostgreSQL lower-cases it. */
  lowered: string;
  /** How many organisations' names contain it, exactly. */
  matches: number;
  /** At or before the first of those names lower-cased, in byte order (the suggestions'); null when none was ever added. */
  firstLabel: string | null;
  /**
   * About how many organisations there are (the planner's estimate, at least `matches`): the walk of the
   * suggestions' order passes over them.
   */
  organisations: number;
  /**
   * The piece of three characters of the lowered text that the fewest names of the kind contain, and how many
   * do (at least `matches`): a name search walks those names (`organisation_name_trigrams`).
   */
  rarestTrigram: { trigram: string; names: number };
}

/**
 * The count of organisations whose name contains `text` in any case (funds only, others only, or both when `isFund`
 * is undefined), read from the maintained fragments: one row whatever the number of organisations. Undefined when the
 * lower-cased text is not three to six characters long, the pieces the fragments keep.
 */
export async function tallyNameFragment(
  db: Database,
  text: string,
  isFund: boolean | undefined,
): Promise<NameFragmentTally | undefined> {
  // lower() maps character by character under libc, so this is the lower-cased text's length, which the statement
  // checks again (an ICU collation may lower one character to two).
  const length = [...text].length;
  if (length < minFragmentLength || length > maxFragmentLength) return undefined;
  const f = organisationNameFragmentsTable;
  const kind = isFund === undefined ? sql`true` : eq(f.isFund, isFund);
  const [row] = await queryRows<{
    length: number;
    lowered: string;
    matches: string | number;
    first_label: string | null;
    organisations: string | number;
    trigram: string | null;
    trigram_names: string | number | null;
  }>(
    db,
    sql`with rarest as (
        select ${f.fragment} as trigram, sum(${f.organisations})::bigint as names from ${f}
        where ${f.fragment} in (
            select substr(lower(${text}), s, 3) from generate_series(1, char_length(lower(${text})) - 2) as s)
          and ${kind}
        group by 1 order by 2, 1 limit 1)
      select char_length(lower(${text})) as length, lower(${text}) as lowered,
        coalesce(sum(${f.organisations}), 0)::bigint as matches, min(${f.firstLabel}) as first_label,
        (select greatest(reltuples, 0)::bigint from pg_class where oid = 'organisations'::regclass) as organisations,
        (select trigram from rarest) as trigram, (select names from rarest) as trigram_names
      from ${f} where ${f.fragment} = lower(${text}) and ${kind}`,
  );
  if (!row || row.length < minFragmentLength || row.length > maxFragmentLength) return undefined;
  const matches = Number(row.matches);
  const lowered = row.lowered;
  return {
    lowered,
    matches,
    firstLabel: row.first_label,
    organisations: Math.max(matches, Number(row.organisations)),
    // No piece counted: no name holds the text, whose own first three characters then stand for it.
    rarestTrigram:
      row.trigram === null
        ? { trigram: [...lowered].slice(0, 3).join(''), names: matches }
        : { trigram: row.trigram, names: Math.max(matches, Number(row.trigram_names)) },
  };
}

/** The lengths of the pieces `organisation_name_fragments` keeps (migration 0022). */
const minFragmentLength = 3;
const maxFragmentLength = 6;
