import { z } from '@hono/zod-openapi';
import type { SavedSearch } from '../../domain/records.ts';
import { joinValues, knownOperators, maxChips, supportedFieldTypes } from '../../domain/searches/chips.ts';
import type { Suggestion } from '../../domain/suggestions/find-suggestions.ts';
import { demoExamples } from '../demo-examples.ts';

/*
 * The chips' schemas state every rule the server checks (docs/rest.md, "What the document states"), so that a
 * body the document allows is saved and one it refuses is a 400: text without NUL, values not blank as
 * `String.prototype.trim` sees them, operators and join values in any case with surrounding spaces.
 */
const noNul = '^[^\\x00]*$';
const trimmed = '\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff';
const notBlank = `^[^\\x00]*[^\\x00${trimmed}][^\\x00]*$`;
const anyCase = (word: string) =>
  [...word].map((letter) => `[${letter.toUpperCase()}${letter.toLowerCase()}]`).join('');
const spaced = (alternatives: readonly string[]) =>
  `^[ \\t\\n\\r]*(?:${alternatives.map(anyCase).join('|')})[ \\t\\n\\r]*$`;
const uuid = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';

export const conditionChipSchema = z
  .object({
    fieldType: z.string().openapi({
      description: `The field the chip filters: ${supportedFieldTypes.join(', ')}. Other field types are accepted too: they filter nothing and are listed in \`ignored_field_types\`.`,
      pattern: notBlank,
      example: 'Organisation',
    }),
    label: z.string().openapi({
      description: 'Text shown to a user; kept as sent.',
      pattern: noNul,
      example: demoExamples.organisation.name,
    }),
    value: z.string().openapi({
      description:
        'Not blank. A UUID for `Organisation` and `Occupation`; the exact value for the other types (trimmed).',
      pattern: notBlank,
      example: demoExamples.organisation.reference,
    }),
    operator: z.string().openapi({
      description: '`EQUAL`, in any case.',
      pattern: spaced(knownOperators),
      example: 'EQUAL',
    }),
  })
  .openapi('ConditionChip');

/** The kind of chip at each position of a valid list: conditions at even indexes, joins between them. */
const chipPositions = Array.from({ length: maxChips % 2 === 0 ? maxChips - 1 : maxChips }, (_, index) => ({
  $ref: `#/components/schemas/${index % 2 === 0 ? 'ConditionChip' : 'JoinChip'}`,
}));

/** What the chips' zod schemas cannot carry, added by the document's finishing pass (openapi-document.ts). */
export const chipSchemaRules = {
  /**
   * JSON Schema has no "alternating": each position's kind and the odd lengths (a list starts and ends on a
   * condition). `maxItems` is the count of positions, so `items` (either kind) never applies.
   */
  query: {
    prefixItems: chipPositions,
    items: {
      oneOf: [{ $ref: '#/components/schemas/ConditionChip' }, { $ref: '#/components/schemas/JoinChip' }],
    },
    anyOf: chipPositions
      .filter((_, index) => index % 2 === 0)
      .map((_, index) => ({ minItems: 2 * index + 1, maxItems: 2 * index + 1 })),
  },
  /** `Organisation` and `Occupation` values are UUIDs. */
  ConditionChip: {
    if: { properties: { fieldType: { enum: ['Organisation', 'Occupation'] } }, required: ['fieldType'] },
    // biome-ignore lint/suspicious/noThenProperty: JSON Schema's keyword, in plain data nothing awaits.
    then: { properties: { value: { pattern: `^[ \\t\\n\\r]*${uuid}[ \\t\\n\\r]*$` } } },
  },
  /** A chip with an `operator` is a condition, never a join. */
  JoinChip: { properties: { operator: false } },
};

export const joinChipSchema = z
  .object({
    fieldType: z.literal('Operator'),
    label: z.string().openapi({ pattern: noNul, example: 'OR' }),
    value: z.string().openapi({
      description: '`AND` or `OR`, in any case; AND binds tighter than OR.',
      pattern: spaced(joinValues),
      example: 'OR',
    }),
  })
  .openapi('JoinChip', { description: 'Sits between two condition chips; it has no `operator`.' });

export const savedSearchSchema = z
  .object({
    queryId: z.uuid().openapi({ description: 'Pass to `GET /v1/events` as `queryId`.' }),
    ignored_field_types: z.array(z.string()).openapi({
      description:
        'Field types that were accepted but filter nothing (their chips match every event). A non-empty list is to be treated as an error.',
    }),
  })
  .openapi('SavedSearch');

export function serializeSavedSearch(search: SavedSearch): z.infer<typeof savedSearchSchema> {
  return { queryId: search.queryId, ignored_field_types: search.ignoredFieldTypes };
}

export const suggestionSchema = z
  .object({
    fieldType: z.enum(supportedFieldTypes),
    label: z.string().openapi({ description: 'Text to show a user.' }),
    value: z.string().openapi({
      description: 'A reference (UUID) for `Organisation` and `Occupation`; the exact value otherwise.',
    }),
    operator: z.literal('Equal'),
  })
  .openapi('Suggestion');

export function serializeSuggestion(suggestion: Suggestion): z.infer<typeof suggestionSchema> {
  return {
    fieldType: suggestion.fieldType,
    label: suggestion.label,
    value: suggestion.value,
    operator: suggestion.operator,
  };
}
