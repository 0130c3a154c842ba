import {
  cursorToOffset,
  type DefaultConnectionArguments,
  resolveOffsetConnection,
} from '@pothos/plugin-relay';
import { invalidParameter } from '../../domain/errors.ts';
import {
  countSuggestions,
  findSuggestions,
  type Suggestion,
  suggestionFieldTypes,
} from '../../domain/suggestions/find-suggestions.ts';
import { builder } from '../builder.ts';
import { maxConnectionPage } from '../keyset.ts';

const SuggestionType = builder.objectRef<Suggestion>('Suggestion').implement({
  description:
    'A filter value to put on a chip (`ChipInput` takes these four fields as they are). People are never suggested. Needs a plan covering `suggestions`.',
  authScopes: { covers: 'suggestions' },
  fields: (t) => ({
    fieldType: t.exposeString('fieldType', { description: `One of ${suggestionFieldTypes.join(', ')}.` }),
    label: t.exposeString('label', { description: 'Text to show a user.' }),
    value: t.exposeString('value', {
      description: 'A reference (UUID) for Organisation and Occupation; the exact value for the other types.',
    }),
    operator: t.exposeString('operator', { description: 'Always `Equal`.' }),
  }),
});

/**
 * Suggestions are ranked, not keyed, so their cursors are offsets; the arguments are checked here so a
 * bad cursor or page size is a clear INVALID_PARAMETER error rather than an internal one.
 */
function checkOffsetArguments(args: DefaultConnectionArguments): void {
  for (const name of ['first', 'last'] as const) {
    const size = args[name];
    if (size != null && (size < 0 || size > maxConnectionPage)) {
      throw invalidParameter(
        `\`${name}\` is between 0 and ${maxConnectionPage}; page with the cursors instead.`,
      );
    }
  }
  for (const name of ['after', 'before'] as const) {
    const cursor = args[name];
    if (cursor == null) continue;
    let offset = Number.NaN;
    try {
      offset = cursorToOffset(cursor);
    } catch {}
    if (!Number.isSafeInteger(offset) || offset < 0) {
      throw invalidParameter(`The cursor ${JSON.stringify(cursor)} was not issued by this list.`);
    }
  }
  if (args.last != null && args.before == null && args.first == null) {
    throw invalidParameter('`last` needs `before`: suggestions page backwards from a cursor.');
  }
}

builder.queryField('suggestions', (t) =>
  t.connection({
    type: SuggestionType,
    nullable: true,
    description:
      'Filter values whose label contains `query` (1 to 200 characters after trimming, any case): organisations and occupations by name, move types, event types, deal statuses and deal types. ' +
      'Best matches first: an exact match, then a prefix, then any substring; then by label, field type and value. At most 100 a page.',
    authScopes: { covers: 'suggestions' },
    args: {
      query: t.arg.string({
        required: true,
        description: 'A name or phrase, matched as a case-insensitive substring of the label.',
      }),
    },
    resolve: async (_root, args, context) => {
      checkOffsetArguments(args);
      const { db, config } = context;
      const connection = await resolveOffsetConnection(
        { args, defaultSize: 20, maxSize: maxConnectionPage },
        ({ offset, limit }) => findSuggestions(db, args.query, { offset, limit }),
      );
      return { ...connection, totalCount: () => countSuggestions(db, args.query, config.countTimeoutMs) };
    },
  }),
);
