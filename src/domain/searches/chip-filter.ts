import { and, eq, or, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { eventsTable } from '../../db/schema/events.ts';
import { eventTypes } from '../vocabulary/events.ts';
import type { StoredChip } from '../vocabulary/searches.ts';
import { type ConditionChip, groupConditions } from './chips.ts';

/**
 * The condition over `events` that a saved chip list stands for: groups of conditions joined by AND,
 * the groups OR-ed (AND binds tighter). A chip of a field type the search does not support matches
 * every event, as its type was reported in `ignored_field_types` when the search was saved.
 */
export function chipCondition(chips: readonly StoredChip[]): SQL {
  const groups = groupConditions(chips).map((group) => and(...group.map(conditionOf)) ?? sql`true`);
  if (groups.length === 0) return sql`true`;
  return or(...groups) ?? sql`true`;
}

function caseInsensitiveEquals(column: PgColumn, value: string): SQL {
  return sql`lower(${column}) = ${value.toLowerCase()}`;
}

function conditionOf(chip: ConditionChip): SQL {
  const value = chip.value;
  switch (chip.fieldType) {
    case 'Organisation':
      return (
        or(
          eq(eventsTable.organisationReference, value),
          eq(eventsTable.acquirerReference, value),
          eq(eventsTable.acquireeReference, value),
        ) ?? sql`false`
      );
    case 'Occupation':
      return eq(eventsTable.occupationReference, value);
    case 'MoveType':
      return caseInsensitiveEquals(eventsTable.moveType, value);
    case 'EventType': {
      // Compared with the enum's values here, so an unknown type matches nothing instead of failing the cast.
      const type = eventTypes.find((candidate) => candidate === value.toLowerCase());
      return type ? eq(eventsTable.type, type) : sql`false`;
    }
    case 'DealStatus':
      return caseInsensitiveEquals(eventsTable.dealStatus, value);
    case 'DealType':
      return caseInsensitiveEquals(eventsTable.dealType, value);
    default:
      return sql`true`;
  }
}
