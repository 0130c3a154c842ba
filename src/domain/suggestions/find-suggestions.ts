import { type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { countBesidePage, countWithinLimit } from '../../db/counting.ts';
import { type Database, queryRows } from '../../db/database.ts';
import { eventsTable } from '../../db/schema/events.ts';
import { organisationNamesTable } from '../../db/schema/organisations.ts';
import { occupationsTable } from '../../db/schema/reference.ts';
import { invalidParameter } from '../errors.ts';
import { nameSubstringMatch } from '../organisations/name-substring.ts';
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
function matchesQuery(text: string): SQL {
  const pattern = likeSubstring(text);
  const ordinal = (fieldType: (typeof suggestionFieldTypes)[number]) =>
    sql.raw(String(suggestionFieldTypes.indexOf(fieldType)));
  const n = organisationNamesTable;
  const oc = occupationsTable;
  return sql`with recursive
    ${distinctValues('move_types', eventsTable.moveType)},
    ${distinctValues('deal_statuses', eventsTable.dealStatus)},
    ${distinctValues('deal_types', eventsTable.dealType)},
    matches(field_type, label, label_lower, value) as (
      select ${ordinal('Organisation')}, ${n.name}, ${n.nameLower}, ${n.reference}::text from ${n} where ${nameSubstringMatch(text)}
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
  const rows = queryRows<{ field_type: number; label: string; value: string; matches: string | number }>(
    db,
    sql`${matchesQuery(query)}
    select field_type, label, value, count(*) over () as matches from matches
    order by
      case when label_lower = lower(${query}) then 0 when starts_with(label_lower, lower(${query})) then 1 else 2 end,
      label_lower collate "C", label collate "C", field_type, value collate "C"
    limit ${window.limit} offset ${window.offset}`,
  );
  const matches = rows.then((page) =>
    page.length > 0 ? Number(page[0]!.matches) : window.offset === 0 ? 0 : null,
  );
  countBesidePage(db, countQuery(query), 'organisations', matches);
  return (await rows).map((row) => ({
    fieldType: suggestionFieldTypes[Number(row.field_type)]!,
    label: row.label,
    value: row.value,
    operator: suggestionOperator,
  }));
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
