import { z } from '@hono/zod-openapi';
import type { SavedSearch } from '../../domain/records.ts';
import { joinValues, knownOperators, supportedFieldTypes } from '../../domain/searches/chips.ts';
import type { Suggestion } from '../../domain/suggestions/find-suggestions.ts';
import { demoExamples } from '../demo-examples.ts';

export const conditionChipSchema = z
  .object({
    fieldType: z.enum(supportedFieldTypes).openapi({
      description:
        'The field the chip filters. The server also accepts other field types: they filter nothing and are listed in `ignored_field_types`.',
      example: 'Organisation',
    }),
    label: z.string().openapi({
      description: 'Text shown to a user; kept as sent.',
      example: demoExamples.organisation.name,
    }),
    value: z.string().min(1).openapi({
      description:
        'Not empty. A UUID for `Organisation` and `Occupation`; the exact value for the other types.',
      example: demoExamples.organisation.reference,
    }),
    operator: z
      .enum(knownOperators)
      .openapi({ description: '`EQUAL`; the server compares it in any case.', example: 'EQUAL' }),
  })
  .openapi('ConditionChip');

export const joinChipSchema = z
  .object({
    fieldType: z.literal('Operator'),
    label: z.string().openapi({ example: 'OR' }),
    value: z.enum(joinValues).openapi({
      description: '`AND` or `OR` (the server compares in any case); AND binds tighter than OR.',
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
