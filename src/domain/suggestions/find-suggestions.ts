import { type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { countBesidePage, countWithinLimit } from '../../db/counting.ts';
import { type Database, queryRows } from '../../db/database.ts';
import { walkLimit, walksNameOrder } from '../../db/organisation-list-plan.ts';
import { eventsTable } from '../../db/schema/events.ts';
import { organisationNamesTable } from '../../db/schema/organisations.ts';
import { occupationsTable } from '../../db/schema/reference.ts';
import { invalidParameter } from '../errors.ts';
import { nameSubstringMatch } from '../organisations/name-substring.ts';
import { tallyNameFragment } from '../organisations/organisation-counts.ts';
import type { Total } from '../paging.ts';
import type { SupportedFieldType } from '../searches/chips.ts';
import { likeSubstring } from '../text-filter.ts';
import { eventTypes } from '../vocabulary/events.ts';

/** Suggested field types, in the order the interface names them; ties in a ranking follow this order. */
export const suggestionFieldTypes = [
  'Organisation',
  'Occupation',
  'MoveType',
  'EventType',
  'DealStatus',
  'DealType',
] as const satisfies readonly SupportedFieldType[];

/** The operator suggestions carry, spelled as the interface spells it for suggestions. */
export const suggestionOperator = 'Equal';

export const maxSuggestionQueryLength = 200;

/** A filter value to put on a chip; people are never suggested. */
export interface Suggestion {
  fieldType: SupportedFieldType;
  label: string;
  /** A reference for organisations and occupations; the exact value for the other types. */
  value: string;
  operator: typeof suggestionOperator;
}

/** The text to look for: trimmed, 1 to 200 characters; INVALID_PARAMETER otherwise. */
export function normaliseSuggestionQuery(text: string): string {
  const trimmed = text.trim();
  if (trimmed.length === 0) throw invalidParameter('The suggestion query must not be empty.');
  if (trimmed.length > maxSuggestionQueryLength) {
    throw invalidParameter(
      `The suggestion query must be at most ${maxSuggestionQueryLength} characters long.`,
    );
  }
  return trimmed;
}

/**
 * The distinct non-null values of an indexed events column, read as a loose index scan (one index
 * probe per distinct value) so it costs the same however many events there are.
 */
function distinctValues(name: string, column: PgColumn): SQL {
  return sql`${sql.identifier(name)}(v) as (
    (select ${column} from ${eventsTable} where ${column} is not null order by ${column} limit 1)
    union all
    select (select ${column} from ${eventsTable} where ${column} > d.v order by ${column} limit 1)
    from ${sql.identifier(name)} d where d.v is not null
  )`;
}

/**
 * Every matching suggestion as (field type ordinal, label, lower-case label, value): organisations by name on
 * their narrow mirror `organisation_names` (see nameSubstringMatch), occupations by name, move
 * types, deal statuses and deal types as the distinct values present in the data, event types from their fixed
 * list.
 */
function matchesQuery(text: string, leading?: LeadingOrganisations): SQL {
  const pattern = likeSubstring(text);
  const n = organisationNamesTable;
  const oc = occupationsTable;
  const organisations = leading
    ? sql`select ${ordinal('Organisation')}, label, label_lower, value from leading_organisations`
    : sql`select ${ordinal('Organisation')}, ${n.name}, ${n.nameLower}, ${n.reference}::text from ${n} where ${nameSubstringMatch(text, undefined)}`;
  return sql`with recursive
    ${distinctValues('move_types', eventsTable.moveType)},
    ${distinctValues('deal_statuses', eventsTable.dealStatus)},
    ${distinctValues('deal_types', eventsTable.dealType)},
    ${leading ? sql`${leadingOrganisationsQuery(text, leading)},` : sql``}
    matches(field_type, label, label_lower, value) as (
      ${organisations}
      union all
      select ${ordinal('Occupation')}, ${oc.name}, lower(${oc.name}), ${oc.reference}::text from ${oc} where ${oc.name} ilike ${pattern}
      union all
      select ${ordinal('MoveType')}, v, lower(v), v from move_types where v ilike ${pattern}
      union all
      select ${ordinal('EventType')}, t, lower(t), t from unnest(array[${sql.join(
        eventTypes.map((type) => sql`${type}`),
        sql`, `,
      )}]::text[]) as t where t ilike ${pattern}
      union all
      select ${ordinal('DealStatus')}, v, lower(v), v from deal_statuses where v ilike ${pattern}
      union all
      select ${ordinal('DealType')}, v, lower(v), v from deal_types where v ilike ${pattern}
    )`;
}

const ordinal = (fieldType: (typeof suggestionFieldTypes)[number]) =>
  sql.raw(String(suggestionFieldTypes.indexOf(fieldType)));

/**
 * How to read only the organisations that can reach a page of suggestions: the first `wanted` in the suggestions'
 * order, for a text most names contain (see `walksNameOrder`).
 */
interface LeadingOrganisations {
  /** The text as PostgreSQL lower-cases it, and the least string after every string it starts. */
  lowered: string;
  upperBound: string;
  /** At or before the first label containing the text (byte order), where the walk starts; null from the start. */
  firstLabel: string | null;
  /** Offset and limit of the page. */
  wanted: number;
  /** How many entries the walk for the names containing the text elsewhere may pass over. */
  maxWalk: number;
}

/**
 * The CTE `leading_organisations`: the organisations whose name starts with the text (one range of
 * `organisation_names_label_order`, the equal names first), then those containing it elsewhere, found by walking that
 * index from the fragments' first label over at most `maxWalk` entries (none when the first fill the page); `wanted`
 * of each at most.
 * `prefixed` and `walked` say how many each found, so that a walk stopped short can be told from the end of the
 * matches.
 */
function leadingOrganisationsQuery(text: string, leading: LeadingOrganisations): SQL {
  const n = organisationNamesTable;
  const order = sql`${n.nameLower} collate "C", ${n.name} collate "C", ${n.reference}`;
  const start =
    leading.firstLabel === null ? sql`` : sql`where ${n.nameLower} collate "C" >= ${leading.firstLabel}`;
  return sql`prefixed as (
      select ${n.name} as label, ${n.nameLower} as label_lower, ${n.reference}::text as value from ${n}
      where ${n.nameLower} collate "C" >= ${leading.lowered} and ${n.nameLower} collate "C" < ${leading.upperBound}
      order by ${order} limit ${leading.wanted}),
    walked as (
      select w.label, w.label_lower, w.reference::text as value
      from (select ${n.name} collate "C" as label, ${n.nameLower} collate "C" as label_lower, ${n.reference} as reference
        from ${n} ${start} order by ${order} limit ${leading.maxWalk}) w
      where w.label_lower like lower(${likeSubstring(text)}) and not starts_with(w.label_lower, ${leading.lowered})
        -- Not walked at all when the names starting with the text fill the page.
        and (select count(*) from prefixed) < ${leading.wanted}
      order by w.label_lower, w.label, w.reference
      limit ${leading.wanted}),
    leading_organisations as (select * from prefixed union all select * from walked)`;
}

/**
 * The least string after every string starting with `text` in byte order (the "C" collation): its last character
 * one code point further. Undefined when there is none to take (the last code point of all).
 */
function upperBoundOf(text: string): string | undefined {
  const characters = [...text];
  const last = characters.pop()?.codePointAt(0);
  if (last === undefined || last >= 0x10ffff) return undefined;
  // The next code point, past the surrogates, which no string holds on its own.
  const next = last + 1 === 0xd800 ? 0xe000 : last + 1;
  return characters.join('') + String.fromCodePoint(next);
}

/** The count of every match, as {@link countSuggestions} asks it and {@link findSuggestions} answers it. */
function countQuery(query: string): SQL {
  return sql`${matchesQuery(query)} select count(*) as count from matches`;
}

/**
 * Suggestions whose label contains `text` (case-insensitive), best first: an exact match, then a
 * prefix, then any substring; ties by label (case-insensitive, then as written, byte order so both
 * drivers agree), then field type in the interface's order, then value. The page counts every match
 * beside it (`count(*) over ()`), and a {@link countSuggestions} of the same text takes that count instead of
 * matching everything again.
 */
export async function findSuggestions(
  db: Database,
  text: string,
  window: { limit: number; offset: number },
): Promise<Suggestion[]> {
  const query = normaliseSuggestionQuery(text);
  // Built first: it refuses a text no filter may hold (see likeSubstring) before anything runs.
  const count = countQuery(query);
  const page = suggestionsPage(db, query, window);
  countBesidePage(
    db,
    count,
    'organisations',
    page.then((answer) => answer.matches),
  );
  return (await page).rows.map((row) => ({
    fieldType: suggestionFieldTypes[Number(row.field_type)]!,
    label: row.label,
    value: row.value,
    operator: suggestionOperator,
  }));
}

type SuggestionRow = { field_type: number; label: string; value: string };

/**
 * A page of suggestions and the number of matches (null when the page is past the last match). When the fragments
 * count the text's organisations and most names contain it, only the organisations that can reach the page are read
 * (see {@link leadingOrganisationsQuery}) and the count adds theirs to the other matches; otherwise every match is
 * read and counted beside the page.
 */
async function suggestionsPage(
  db: Database,
  query: string,
  window: { limit: number; offset: number },
): Promise<{ rows: SuggestionRow[]; matches: number | null }> {
  const leading = await leadingOrganisationsOf(db, query, window);
  if (leading) {
    const [first, ...rest] = await queryRows<
      SuggestionRow & { others: string | number; prefixed: string | number; walked: string | number }
    >(
      db,
      sql`${matchesQuery(query, leading.read)}
      select field_type, label, value,
        (select count(*) from matches where field_type <> ${ordinal('Organisation')}) as others,
        (select count(*) from prefixed) as prefixed, (select count(*) from walked) as walked
      from (select 0) as one
      left join (select * from matches ${pageOrder(query)} limit ${window.limit} offset ${window.offset}) as page on true`,
    );
    const prefixed = Number(first?.prefixed ?? 0);
    const walked = Number(first?.walked ?? 0);
    // A walk that found fewer names than there are to find, up to the page's end, stopped at its limit.
    const complete =
      prefixed >= leading.read.wanted || walked >= Math.min(leading.read.wanted, leading.matches - prefixed);
    if (first && complete) {
      const rows = [first, ...rest].filter((row) => row.field_type !== null);
      return { rows, matches: leading.matches + Number(first.others) };
    }
  }
  const rows = await queryRows<SuggestionRow & { matches: string | number }>(
    db,
    sql`${matchesQuery(query)}
    select field_type, label, value, count(*) over () as matches from matches
    ${pageOrder(query)}
    limit ${window.limit} offset ${window.offset}`,
  );
  return {
    rows,
    matches: rows.length > 0 ? Number(rows[0]!.matches) : window.offset === 0 ? 0 : null,
  };
}

/** The suggestions' order: an exact match, then a prefix, then any substring; then by label, field type and value. */
function pageOrder(query: string): SQL {
  return sql`order by
      case when label_lower = lower(${query}) then 0 when starts_with(label_lower, lower(${query})) then 1 else 2 end,
      label_lower collate "C", label collate "C", field_type, value collate "C"`;
}

/**
 * How to read the leading organisations of a page, with the exact number of organisations matching, when the
 * fragments count them and most names contain the text; else undefined.
 */
async function leadingOrganisationsOf(
  db: Database,
  query: string,
  window: { limit: number; offset: number },
): Promise<{ read: LeadingOrganisations; matches: number } | undefined> {
  const tally = await tallyNameFragment(db, query, undefined);
  if (!tally) return undefined;
  const size = {
    matches: tally.matches,
    entries: tally.organisations,
    wanted: window.offset + window.limit,
  };
  const upperBound = upperBoundOf(tally.lowered);
  if (!walksNameOrder(size, 'suggestions') || upperBound === undefined) return undefined;
  return {
    read: {
      lowered: tally.lowered,
      upperBound,
      firstLabel: tally.firstLabel,
      wanted: size.wanted,
      maxWalk: walkLimit(size, 'suggestions'),
    },
    matches: tally.matches,
  };
}

/**
 * How many suggestions match over every field type, under the count time limit; the count a page of the same
 * text made beside its rows when there is one (see {@link findSuggestions}).
 */
export async function countSuggestions(db: Database, text: string, timeoutMs: number): Promise<Total> {
  const query = normaliseSuggestionQuery(text);
  return countWithinLimit(db, countQuery(query), { table: 'organisations', timeoutMs });
}

/** A window of suggestions and the number of matches, counted beside the page. */
export async function findSuggestionsPage(
  db: Database,
  text: string,
  window: { limit: number; offset: number },
  countTimeoutMs: number,
): Promise<{ rows: Suggestion[]; total: Total }> {
  const [rows, total] = await Promise.all([
    findSuggestions(db, text, window),
    countSuggestions(db, text, countTimeoutMs),
  ]);
  return { rows, total };
}
