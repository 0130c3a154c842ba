import { type SQL, sql } from 'drizzle-orm';
import {
  organisationFilterKeysTable,
  organisationNamesTable,
  organisationsTable,
} from './schema/organisations.ts';

/**
 * Where the organisation list reads the organisations it filters: `organisations` itself, its narrow mirror
 * `organisation_names`, or `organisation_filter_keys` (a row per organisation, company country and GICS node), each
 * with the columns the filters test under the same names.
 */
export type OrganisationSource =
  | typeof organisationsTable
  | typeof organisationNamesTable
  | typeof organisationFilterKeysTable;

/** What of a filter decides how to read it: the length of its name substring and how many child filters it has. */
export interface OrganisationListShape {
  /** 0 without a name filter. */
  nameLength: number;
  /** How many of country, industry and score it tests: each is a lookup in a table of its own. */
  childFilters: number;
  /** Whether it tests a company country. */
  withCountry: boolean;
}

/**
 * Whether the list reads `organisation_filter_keys`: a country (with an industry or not) without a name substring the
 * trigram index serves. One range of its index holds the country's organisations under the industry's node (or
 * under any industry) in name order, so a page reads about as many entries as it shows over the share of them the
 * other filters keep, whatever the number of organisations, and the count sums `organisation_filter_counts`
 * (bench/NOTES.md 47).
 */
export function readsFilterKeys(shape: OrganisationListShape): boolean {
  return shape.withCountry && shape.nameLength < 3;
}

/**
 * Whether the filter leaves few organisations: then reading every match and sorting them is cheap, while
 * walking the name index until a page of matches turns up can read most of the table. The planner picks
 * the walk when it overrates how many rows match (a substring of three or more characters, which the
 * trigram index serves, or two of country, industry and score): it walked 18,000 rows for a 192-row match. A filter
 * with a country reads the filter keys instead (see {@link readsFilterKeys}), so of those pairs only industry with
 * score is left here.
 */
export function isNarrow(shape: OrganisationListShape): boolean {
  if (readsFilterKeys(shape)) return false;
  return shape.nameLength >= 3 || shape.childFilters >= 2;
}

/**
 * Where a page of the list reads its matches: `organisation_filter_keys` for a country (see
 * {@link readsFilterKeys}); the narrow `organisation_names` when the filter is narrow (a name substring of three
 * characters or more, whose trigram candidates are rechecked on small rows; or industry with a score, each looked
 * up in its covering index), else
 * `organisations`, whose covering index in name order serves a page of a broad filter without reading every match.
 */
export function pageSourceOf(shape: OrganisationListShape): OrganisationSource {
  if (readsFilterKeys(shape)) return organisationFilterKeysTable;
  return isNarrow(shape) ? organisationNamesTable : organisationsTable;
}

/** Where a count reads: counting a name filter reads every match, which the narrow rows make cheaper. */
export function countSourceOf(shape: OrganisationListShape): OrganisationSource {
  if (readsFilterKeys(shape)) return organisationFilterKeysTable;
  return shape.nameLength > 0 ? organisationNamesTable : organisationsTable;
}

/**
 * The list's sort name on `source`. `name || ''` sorts exactly as `name` but hides the name index of
 * `organisations` from the planner (see {@link isNarrow}); `organisation_names` has no such index to hide.
 */
export function sortNameOf(source: OrganisationSource, shape: OrganisationListShape): SQL {
  return source === organisationsTable && isNarrow(shape) ? sql`(${source.name} || '')` : sql`${source.name}`;
}

/**
 * How many index entries a walk of a name order may pass over for the price of each match the other way would sort,
 * by which order it walks: the ratio of the two ways' costs, each forced on the bench's samples at scales 100 and
 * 1000 and timed by `EXPLAIN ANALYZE` (bench/NOTES.md 50, 53).
 */
const walkedEntriesPerSortedMatch = {
  /**
   * A name search walks the names of its rarest trigram in the list's order (`organisation_name_trigrams`),
   * lower-casing each name it passes, or rechecks and sorts its trigram candidates (bench/NOTES.md 53).
   */
  organisationList: 5,
  /**
   * Suggestions walk `organisation_names_label_order`, whose entries hold the lowered label, or read their matches
   * from both kinds' trigram indexes and sort them (bench/NOTES.md 50).
   */
  suggestions: 8,
} as const;

export type NameOrderWalk = keyof typeof walkedEntriesPerSortedMatch;

/** What a name search knows before its page: its matches, exactly, and the entries of the order it would walk. */
export interface NameSearchSize {
  matches: number;
  /**
   * The entries of the order walked, every match among them: the names of the text's rarest trigram for the list,
   * every organisation for suggestions.
   */
  entries: number;
  /** The matches up to the end of the page: its offset and limit. */
  wanted: number;
}

/**
 * The entries a walk of the order is expected to pass over to find the page, the matches being spread along it:
 * `wanted` over their share of the entries.
 */
export function expectedWalk(size: NameSearchSize): number {
  return Math.ceil((size.wanted * size.entries) / Math.max(1, size.matches));
}

/**
 * Whether a page of a name search walks a name order until it has its matches rather than sorting every match:
 * when the fragment is common among the entries, the walk finds a page among a few hundred of them; when it is
 * rare, its few trigram candidates sort faster than a walk finds them.
 */
export function walksNameOrder(size: NameSearchSize, walk: NameOrderWalk): boolean {
  return expectedWalk(size) < walkedEntriesPerSortedMatch[walk] * size.matches;
}

/**
 * How many entries a walk of the name order passes over before it gives way to the sort: as many as the sort is
 * priced at, or eight times what the walk expects, whichever is more, and a thousand more. Common matches bunched
 * further along the order than their share says stay within reach, and a walk that fails has cost little more than
 * the sort it then runs, or than a walk was expected to (bench/NOTES.md 52).
 */
export function walkLimit(size: NameSearchSize, walk: NameOrderWalk): number {
  return Math.max(walkedEntriesPerSortedMatch[walk] * size.matches, 8 * expectedWalk(size)) + 1_000;
}
