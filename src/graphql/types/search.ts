import { DomainError } from '../../domain/errors.ts';
import { isReference } from '../../domain/reference.ts';
import { invalidChipsMessage, maxChips, supportedFieldTypes } from '../../domain/searches/chips.ts';
import { saveEventSearch } from '../../domain/searches/save-search.ts';
import type { StoredChip } from '../../domain/vocabulary/searches.ts';
import { builder } from '../builder.ts';
import { SavedSearchRef } from '../refs.ts';

const ChipType = builder.objectRef<StoredChip>('Chip').implement({
  description:
    'One element of a saved search: a condition (`fieldType`, `label`, `value`, `operator`) or a join (`fieldType` = `Operator`, `value` AND or OR, no operator).',
  fields: (t) => ({
    fieldType: t.exposeString('fieldType', {
      description: `\`Operator\` on a join. On a condition, the field filtered on: ${supportedFieldTypes.join(', ')}; any other type filters nothing (see \`ignoredFieldTypes\`).`,
    }),
    label: t.exposeString('label', { description: 'Text to show a user, as sent.' }),
    value: t.exposeString('value', {
      description:
        'On a condition, the value matched: a UUID (lower case) for Organisation and Occupation, compared case-insensitively for the other field types. On a join, AND or OR.',
    }),
    operator: t.exposeString('operator', { nullable: true, description: 'Upper case; null on join chips.' }),
  }),
});

builder.node(SavedSearchRef, {
  description:
    'A saved event search: chips to pass to the event list by `queryId`. Identical chips share one saved search; it never expires. Needs a plan covering `searches`.',
  authScopes: { covers: 'searches' },
  id: { resolve: (search) => search.queryId },
  loadOne: (queryId, context) =>
    isReference(queryId) ? context.loaders.savedSearchByQueryId.load(queryId) : null,
  fields: (t) => ({
    queryId: t.expose('queryId', {
      type: 'UUID',
      description: 'Pass to `events(queryId:)` or `GET /v1/events`.',
    }),
    query: t.field({
      type: [ChipType],
      description: 'The chips as stored: operators and join values upper case, labels as sent.',
      resolve: (search) => search.query,
    }),
    ignoredFieldTypes: t.exposeStringList('ignoredFieldTypes', {
      description:
        'Field types that were accepted but filter nothing (their chips match every event). A non-empty list is to be treated as an error.',
    }),
  }),
});

class InvalidChips {
  readonly message = invalidChipsMessage;
}

const InvalidChipsError = builder.objectType(InvalidChips, {
  name: 'InvalidChipsError',
  description: `The chips are malformed: empty, more than ${maxChips}, not alternating conditions and joins, a missing or non-string field, an empty value, a non-UUID Organisation or Occupation value, an operator other than EQUAL, or a join other than AND/OR.`,
  fields: (t) => ({
    message: t.exposeString('message', { description: `Always \`${invalidChipsMessage}\`.` }),
  }),
});

const SaveEventSearchResult = builder.unionType('SaveEventSearchResult', {
  description: 'The saved search, or why the chips were refused.',
  types: [SavedSearchRef, InvalidChipsError],
  resolveType: (result) => (result instanceof InvalidChips ? InvalidChipsError : SavedSearchRef),
});

const ChipInput = builder.inputType('ChipInput', {
  description: `A chip. Condition chips: \`fieldType\` (${supportedFieldTypes.join(', ')}; others are accepted and ignored), \`label\`, \`value\`, \`operator\` (EQUAL, any case). Join chips: \`fieldType\` = \`Operator\`, \`label\`, \`value\` AND or OR (any case), no operator.`,
  fields: (t) => ({
    fieldType: t.string({
      required: true,
      description: 'A field type on a condition; `Operator` on a join.',
    }),
    label: t.string({ required: true, description: 'Text to show a user; kept as sent.' }),
    value: t.string({
      required: true,
      description:
        'The value to match (non-empty; a UUID for Organisation and Occupation; surrounding spaces trimmed), or AND/OR on a join.',
    }),
    operator: t.string({ description: 'Condition chips only.' }),
  }),
});

builder.queryField('savedSearch', (t) =>
  t.field({
    type: SavedSearchRef,
    nullable: true,
    description: 'A saved search by its `queryId`; null when none has it.',
    authScopes: { covers: 'searches' },
    args: { queryId: t.arg({ type: 'UUID', required: true, description: 'The saved search’s `queryId`.' }) },
    resolve: (_root, args, context) => context.loaders.savedSearchByQueryId.load(args.queryId),
  }),
);

builder.mutationField('saveEventSearch', (t) =>
  t.field({
    type: SaveEventSearchResult,
    nullable: true,
    description:
      'Saves chips as a reusable event filter, with the rules of `POST /v1/search/events`: identical chips (labels included) return the same `queryId`. AND binds tighter than OR.',
    authScopes: { covers: 'searches' },
    args: {
      query: t.arg({
        type: [ChipInput],
        required: true,
        description: `The chips in order: conditions separated by joins, starting and ending on a condition; at most ${maxChips}.`,
      }),
    },
    resolve: async (_root, args, context) => {
      // A join chip has no operator; GraphQL hands an omitted or null one over as null.
      const chips = args.query.map(({ operator, ...chip }) =>
        operator == null ? chip : { ...chip, operator },
      );
      try {
        return await saveEventSearch(context.primaryDb, chips);
      } catch (error) {
        if (error instanceof DomainError && error.code === 'INVALID_CHIPS') return new InvalidChips();
        throw error;
      }
    },
  }),
);
