import { and, asc, desc, eq, gte, inArray, type SQL, sql } from 'drizzle-orm';
import { countWithinLimit } from '../../db/counting.ts';
import type { Database } from '../../db/database.ts';
import {
  countSourceOf,
  isNarrow,
  type NameSearchSize,
  type OrganisationListShape,
  type OrganisationSource,
  pageSourceOf,
  sortNameOf,
  walkLimit,
  walksNameOrder,
} from '../../db/organisation-list-plan.ts';
import {
  type Organisation,
  organisationFilterKeysTable,
  organisationNamesTable,
  organisationNameTrigramsTable,
  organisationsTable,
} from '../../db/schema/organisations.ts';
import { invalidParameter } from '../errors.ts';
import type { ListWindow, Total } from '../paging.ts';
import { likeSubstring } from '../text-filter.ts';
import type { OrganisationStatus, ScoreDimension } from '../vocabulary/organisations.ts';
import { resolveCountry } from './country.ts';
import { resolveIndustryCode } from './industries.ts';
import { nameSubstringMatch } from './name-substring.ts';
import {
  type NameFragmentTally,
  type TallyFilter,
  tallyNameFragment,
  tallyOrganisations,
} from './organisation-counts.ts';

export const activityTypes = ['move', 'funding', 'public_offering', 'client_summary'] as const;
export type ActivityType = (typeof activityTypes)[number];

/** How far back each activity period reaches, in days. */
export const activityPeriodDays = { week: 7, month: 30, quarter: 91, year: 365 } as const;
export type ActivityPeriod = keyof typeof activityPeriodDays;
export const activityPeriods = Object.keys(activityPeriodDays) as ActivityPeriod[];

/** `funds` keeps only funds, `all` everything; without it funds are left out, as the interface says. */
export type OrganisationKind = 'funds' | 'all';

/** The `is_fund` a kind asks for: funds, the others (the default), or undefined for every kind. */
function isFundOf(kind: OrganisationKind | undefined): boolean | undefined {
  return kind === 'funds' ? true : kind === 'all' ? undefined : false;
}

/** The organisation list's filters, as both transports pass them (values already of the right type). */
export interface OrganisationFilter {
  /** Substring of the name, any case; `%`, `_` and `\` match themselves. */
  name?: string;
  /** Search every organisation, not only those in the activity index; lowers the default `minConfidence` to 0. */
  showEmpty?: boolean;
  /** A GICS code (2 to 8 digits): that node and every node below it. */
  industry?: string;
  /** Company address country: an alpha-2 or alpha-3 code or an English name. */
  country?: string;
  kind?: OrganisationKind;
  /** Absent: every status. */
  status?: OrganisationStatus;
  verified?: boolean;
  /** 0 to 100; defaults to 5, or 0 with `showEmpty`. */
  minConfidence?: number;
  /** With (true) or without (false) assets-under-management records. */
  hasAum?: boolean;
  /** Activity of any of these types (in `activityPeriod` when it is given). */
  activityTypes?: readonly ActivityType[];
  activityPeriod?: ActivityPeriod;
  /** A score of at least `min` (1 to 100) on `dimension`, or on any dimension when none is named. */
  score?: { dimension?: ScoreDimension | undefined; min: number };
}

/** The list's sort key: name, then reference to break ties. */
export interface OrganisationSortKey {
  name: string;
  reference: string;
}

export const defaultMinConfidence = 5;

export function organisationSortKey(organisation: Organisation): OrganisationSortKey {
  return { name: organisation.name, reference: organisation.reference };
}

/** How the filter is read: the plan under `src/db/` decides from its shape which table and sort to use. */
function shapeOf(filter: OrganisationFilter): OrganisationListShape {
  const childFilters = [filter.country, filter.industry, filter.score].filter((value) => value !== undefined);
  return {
    nameLength: filter.name?.length ?? 0,
    childFilters: childFilters.length,
    withCountry: filter.country !== undefined,
  };
}

function hasName(filter: OrganisationFilter): filter is OrganisationFilter & { name: string } {
  return filter.name !== undefined && filter.name !== '';
}

/**
 * The conditions of a filter on `source` (`organisations` unless given); throws an invalid parameter for a
 * value out of range.
 */
export function organisationConditions(
  filter: OrganisationFilter,
  source: OrganisationSource = organisationsTable,
): SQL[] {
  const o = source;
  const conditions: SQL[] = [];

  if (hasName(filter)) {
    // On organisations `name ilike p` spelled as PostgreSQL evaluates it on UTF-8, `lower(name) like lower(p)`,
    // where `ilike` filtered the same walk several times slower (bench/NOTES.md 25).
    conditions.push(
      source === organisationNamesTable
        ? nameSubstringMatch(filter.name, isFundOf(filter.kind))
        : sql`lower(${source.name}) like lower(${likeSubstring(filter.name)})`,
    );
  }

  const wantsActivity = (filter.activityTypes?.length ?? 0) > 0 || filter.activityPeriod !== undefined;
  // Any activity at all: the row's own flag, which the list's covering index carries.
  if (!wantsActivity && !filter.showEmpty) conditions.push(eq(o.hasActivity, true));
  if (wantsActivity) {
    const activity: SQL[] = [sql`a.organisation_reference = ${o.reference}`];
    if (filter.activityTypes && filter.activityTypes.length > 0) {
      for (const type of filter.activityTypes) {
        if (!activityTypes.includes(type)) {
          throw invalidParameter(`activity type \`${type}\` is not one of ${activityTypes.join(', ')}.`);
        }
      }
      activity.push(
        sql`a.activity_type in (${sql.join(
          filter.activityTypes.map((type) => sql`${type}`),
          sql`, `,
        )})`,
      );
    }
    if (filter.activityPeriod !== undefined) {
      const days = activityPeriodDays[filter.activityPeriod];
      activity.push(sql`a.last_activity_at >= now() - make_interval(days => ${days})`);
    }
    conditions.push(
      sql`exists (select 1 from organisation_activity a where ${sql.join(activity, sql` and `)})`,
    );
  }

  // The filter keys hold each organisation under every node of its industries and once under '' (any industry).
  if (source === organisationFilterKeysTable && filter.industry === undefined) {
    conditions.push(eq(organisationFilterKeysTable.node, ''));
  }
  if (filter.industry !== undefined) {
    const code = resolveIndustryCode(filter.industry);
    conditions.push(
      source === organisationFilterKeysTable
        ? eq(organisationFilterKeysTable.node, code)
        : sql`exists (select 1 from organisation_industries oi where oi.organisation_reference = ${o.reference} and oi.industry_code like ${`${code}%`})`,
    );
  }

  if (filter.country !== undefined) {
    const country = resolveCountry(filter.country);
    // organisation_names carries the company address's country, kept by triggers on organisation_addresses.
    conditions.push(
      source === organisationNamesTable || source === organisationFilterKeysTable
        ? eq(source.country, country)
        : sql`exists (select 1 from organisation_addresses ad where ad.organisation_reference = ${o.reference} and ad.kind = 'company' and ad.country = ${country})`,
    );
  }

  // Written out rather than bound, so that a prepared statement's generic plan still sees that the default leaves
  // funds out and reads the trigram index of the other organisations (migration 0024).
  if (filter.kind === 'funds') conditions.push(sql`${o.isFund}`);
  else if (filter.kind !== 'all') conditions.push(sql`not ${o.isFund}`);

  if (filter.status !== undefined) conditions.push(eq(o.status, filter.status));
  if (filter.verified !== undefined) conditions.push(eq(o.verified, filter.verified));

  const minConfidence = filter.minConfidence ?? (filter.showEmpty ? 0 : defaultMinConfidence);
  if (!Number.isInteger(minConfidence) || minConfidence < 0 || minConfidence > 100) {
    throw invalidParameter(`The minimum confidence must be an integer from 0 to 100; got ${minConfidence}.`);
  }
  if (minConfidence > 0) conditions.push(gte(o.confidence, minConfidence));

  if (filter.hasAum !== undefined) {
    const aum = sql`exists (select 1 from client_summaries cs where cs.organisation_reference = ${o.reference})`;
    conditions.push(filter.hasAum ? aum : sql`not ${aum}`);
  }

  if (filter.score !== undefined) {
    const { dimension, min } = filter.score;
    if (!Number.isInteger(min) || min < 1 || min > 100) {
      throw invalidParameter(`The minimum score must be an integer from 1 to 100; got ${min}.`);
    }
    const onDimension = dimension === undefined ? sql`` : sql` and sc.dimension = ${dimension}`;
    conditions.push(
      sql`exists (select 1 from organisation_scores sc where sc.organisation_reference = ${o.reference}${onDimension} and sc.score >= ${min})`,
    );
  }

  return conditions;
}

/**
 * One window of the organisation list, sorted by name then reference. REST reads it by offset, the
 * graph by keyset (`after`/`before` are sort keys); `inverted` reads backwards from `before`, newest
 * rows last, as the relay helper expects.
 */
export async function findOrganisations(
  db: Database,
  filter: OrganisationFilter,
  window: ListWindow<OrganisationSortKey>,
): Promise<Organisation[]> {
  return (await walkedForward(db, filter, window)) ?? plannedWindow(db, filter, window);
}

/** A window of the list read as `src/db/organisation-list-plan.ts` plans it from the filter's shape. */
async function plannedWindow(
  db: Database,
  filter: OrganisationFilter,
  window: ListWindow<OrganisationSortKey>,
): Promise<Organisation[]> {
  const o = organisationsTable;
  const source = pageSourceOf(shapeOf(filter));
  const conditions = organisationConditions(filter, source);
  if (window.after) {
    conditions.push(
      sql`(${source.name}, ${source.reference}) > (${window.after.name}, ${window.after.reference}::uuid)`,
    );
  }
  if (window.before) {
    conditions.push(
      sql`(${source.name}, ${source.reference}) < (${window.before.name}, ${window.before.reference}::uuid)`,
    );
  }
  const order = window.inverted ? [desc(o.name), desc(o.reference)] : [asc(o.name), asc(o.reference)];
  const sortName = sortNameOf(source, shapeOf(filter));
  const keyOrder = window.inverted
    ? [sql`${sortName} desc`, desc(source.reference)]
    : [sortName, asc(source.reference)];
  // The page's references first, then their rows: a deep page skips index entries, not whole rows.
  const page = db
    .select({ reference: source.reference })
    .from(source)
    .where(and(...conditions))
    .orderBy(...keyOrder)
    .limit(window.limit);
  return db
    .select()
    .from(o)
    .where(inArray(o.reference, window.offset ? page.offset(window.offset) : page))
    .orderBy(...order);
}

/**
 * An offset page of the list with the number of matches. A narrow filter (see `isNarrow` in `src/db/organisation-list-plan.ts`) reads every
 * match to sort them anyway, so one statement counts them beside the page (`count(*) over ()`) instead of a
 * second statement matching them all again; a page past the last match carries no count, which is then
 * counted on its own. Other filters run the page and the count side by side.
 */
export async function findOrganisationsPage(
  db: Database,
  filter: OrganisationFilter,
  window: { limit: number; offset: number },
  countOptions: { timeoutMs: number },
): Promise<{ rows: Organisation[]; total: Total }> {
  const search = nameSearchOf(filter);
  const tally = search && (await tallyNameFragment(db, search.text, search.isFund));
  if (search && tally) return nameSearchPage(db, filter, search, tally, window);
  if (!isNarrow(shapeOf(filter))) {
    const [rows, total] = await Promise.all([
      findOrganisations(db, filter, window),
      countOrganisations(db, filter, countOptions),
    ]);
    return { rows, total };
  }
  const o = organisationsTable;
  const source = pageSourceOf(shapeOf(filter));
  const page = db
    .select({
      reference: source.reference,
      // Named apart from the table's own columns, which the outer query selects beside it.
      sortName: sql<string>`${source.name}`.as('sort_name'),
      matches: sql<string>`count(*) over ()`.as('matches'),
    })
    .from(source)
    .where(and(...organisationConditions(filter, source)))
    .orderBy(sortNameOf(source, shapeOf(filter)), asc(source.reference))
    .limit(window.limit)
    .offset(window.offset)
    .as('page');
  const joined = await db
    .select({ organisation: o, matches: page.matches })
    .from(page)
    .innerJoin(o, eq(o.reference, page.reference))
    .orderBy(page.sortName, asc(page.reference));
  const first = joined[0];
  if (!first) return { rows: [], total: await countOrganisations(db, filter, countOptions) };
  return {
    rows: joined.map((row) => row.organisation),
    total: { value: Number(first.matches), isEstimate: false },
  };
}

/**
 * How many organisations match: summed from the maintained counts when the filter tests only the columns they
 * group by, else counted exactly within the time limit, else the table-wide estimate.
 */
export async function countOrganisations(
  db: Database,
  filter: OrganisationFilter,
  options: { timeoutMs: number },
): Promise<Total> {
  const search = nameSearchOf(filter);
  const fragment = search && (await tallyNameFragment(db, search.text, search.isFund));
  if (fragment) return { value: fragment.matches, isEstimate: false };
  const source = countSourceOf(shapeOf(filter));
  // Also checks the filter's values (a name search's were checked above), whichever way it is counted.
  const conditions = organisationConditions(filter, source);
  const tally = tallyFilterOf(filter);
  if (tally) return { value: await tallyOrganisations(db, tally), isEstimate: false };
  const where = conditions.length > 0 ? sql` where ${and(...conditions)}` : sql``;
  return countWithinLimit(db, sql`select count(*) as count from ${source}${where}`, {
    table: 'organisations',
    timeoutMs: options.timeoutMs,
  });
}

/**
 * The filter as `organisation_counts` groups it, or `organisation_filter_counts` with a country, when it tests
 * nothing else (no name, activity type or period, score or AUM, and no industry without a country); else
 * undefined. The same defaults as {@link organisationConditions}.
 */
function tallyFilterOf(filter: OrganisationFilter): TallyFilter | undefined {
  if (hasName(filter) || (filter.industry !== undefined && filter.country === undefined)) return undefined;
  if (filter.score !== undefined || filter.hasAum !== undefined || filter.activityPeriod !== undefined) {
    return undefined;
  }
  if ((filter.activityTypes?.length ?? 0) > 0) return undefined;
  const place =
    filter.country !== undefined
      ? {
          country: resolveCountry(filter.country),
          node: filter.industry === undefined ? '' : resolveIndustryCode(filter.industry),
        }
      : undefined;
  return {
    place,
    hasActivity: filter.showEmpty ? undefined : true,
    isFund: isFundOf(filter.kind),
    status: filter.status,
    verified: filter.verified,
    minConfidence: filter.minConfidence ?? (filter.showEmpty ? 0 : defaultMinConfidence),
  };
}

/** A name search on nothing but the name and the kind, as `organisation_name_fragments` counts it. */
interface NameSearch {
  text: string;
  /** Undefined for every kind. */
  isFund: boolean | undefined;
}

/**
 * The filter as a plain name search when it is one: a name, `showEmpty` (so no activity test) without a minimum
 * confidence, and no other filter; else undefined. Throws an invalid parameter for a value out of range.
 */
function nameSearchOf(filter: OrganisationFilter): NameSearch | undefined {
  if (!hasName(filter) || !filter.showEmpty || (filter.minConfidence ?? 0) > 0) return undefined;
  const others = [
    filter.country,
    filter.industry,
    filter.status,
    filter.verified,
    filter.hasAum,
    filter.activityPeriod,
    filter.score,
    filter.activityTypes?.length ? filter.activityTypes : undefined,
  ];
  if (others.some((value) => value !== undefined)) return undefined;
  // Checks the filter's values before anything reads with them.
  organisationConditions(filter);
  return {
    text: filter.name,
    isFund: isFundOf(filter.kind),
  };
}

/** What a name search walks: the names of its rarest trigram, and how far along the page lies among them. */
function trigramWalkSize(tally: NameFragmentTally, wanted: number): NameSearchSize {
  return { matches: tally.matches, entries: tally.rarestTrigram.names, wanted };
}

/**
 * A page of a plain name search whose count the fragments hold: a fragment common among the names of its rarest
 * trigram walks them in the list's order until the page is full (see `walksNameOrder`), a rare one sorts its
 * matches, uncounted. A walk that passes over its limit (the sort's price, or eight times the entries it expected:
 * see `walkLimit`) without a full page gives way to the sort.
 */
async function nameSearchPage(
  db: Database,
  filter: OrganisationFilter,
  search: NameSearch,
  tally: NameFragmentTally,
  window: { limit: number; offset: number },
): Promise<{ rows: Organisation[]; total: Total }> {
  const total: Total = { value: tally.matches, isEstimate: false };
  const expected = Math.min(window.limit, tally.matches - window.offset);
  if (expected <= 0) return { rows: [], total };
  const size = trigramWalkSize(tally, window.offset + window.limit);
  if (walksNameOrder(size, 'organisationList')) {
    const rows = await walkTrigramNames(
      db,
      search,
      window,
      tally.rarestTrigram.trigram,
      walkLimit(size, 'organisationList'),
    );
    if (rows.length === expected) return { rows, total };
  }
  return { rows: await plannedWindow(db, filter, window), total };
}

/**
 * A forward window of a plain name search (the graph's `after`) read by walking its rarest trigram's names, when the
 * fragments say it pays (see `nameSearchPage`); undefined when it does not, or when the walk stopped before a full
 * page, which may also be the end of the matches: the sort answers then.
 */
async function walkedForward(
  db: Database,
  filter: OrganisationFilter,
  window: ListWindow<OrganisationSortKey>,
): Promise<Organisation[] | undefined> {
  const search = nameSearchOf(filter);
  if (!search || window.before || window.inverted) return undefined;
  const tally = await tallyNameFragment(db, search.text, search.isFund);
  if (!tally) return undefined;
  const offset = window.offset ?? 0;
  const size = trigramWalkSize(tally, offset + window.limit);
  if (!walksNameOrder(size, 'organisationList')) return undefined;
  const rows = await walkTrigramNames(
    db,
    search,
    { limit: window.limit, offset, after: window.after },
    tally.rarestTrigram.trigram,
    walkLimit(size, 'organisationList'),
  );
  return rows.length === window.limit ? rows : undefined;
}

/**
 * The page of a name search found by walking the names containing `trigram` (a piece of the lowered text) in the
 * list's order from the start (or past `after`), testing each name, over at most `maxEntries` entries: fewer rows
 * than the page when the walk stopped before it found them. Every kind walks both kinds' lists merged.
 */
async function walkTrigramNames(
  db: Database,
  search: NameSearch,
  window: { limit: number; offset: number; after?: OrganisationSortKey },
  trigram: string,
  maxEntries: number,
): Promise<Organisation[]> {
  const o = organisationsTable;
  const t = organisationNameTrigramsTable;
  const kindList = (isFund: boolean): SQL => {
    const conditions = [eq(t.trigram, trigram), eq(t.isFund, isFund)];
    if (window.after) {
      conditions.push(
        sql`(${t.name}, ${t.reference}) > (${window.after.name}, ${window.after.reference}::uuid)`,
      );
    }
    return sql`select ${t.name}, ${t.reference} from ${t} where ${and(...conditions)}
      order by ${t.name}, ${t.reference} limit ${maxEntries}`;
  };
  // Each kind's list is one range of the key, already in order; every kind merges the two, each walked as far.
  const lists =
    search.isFund === undefined
      ? sql`(${kindList(true)}) union all (${kindList(false)}) order by 1, 2 limit ${maxEntries}`
      : kindList(search.isFund);
  const page = sql`select w.reference from (${lists}) as w
    where lower(w.name) like lower(${likeSubstring(search.text)})
    order by w.name, w.reference limit ${window.limit} offset ${window.offset}`;
  return db.select().from(o).where(sql`${o.reference} in (${page})`).orderBy(asc(o.name), asc(o.reference));
}
