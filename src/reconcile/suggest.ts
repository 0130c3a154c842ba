import { invalidParameter } from '../domain/errors.ts';
import { findSuggestions } from '../domain/suggestions/find-suggestions.ts';
import type { RequestContext } from '../http/context.ts';
import { allProperties } from './vocabulary.ts';

type Database = RequestContext['db'];

/** Suggestions a suggest call returns; `cursor` skips that many for the next ones. */
export const suggestPageSize = 10;
/** The suggestions read at once while gathering organisations, and how many such reads one call may make. */
const window = 50;
const maxWindows = 10;

const organisationType = { id: 'Organisation', name: 'Organisation' };

/** The suggest parameters: the text (required) and the number to skip, a whole number from 0. */
export function readSuggestParameters(prefix: string | undefined, cursor: string | undefined) {
  if (prefix === undefined) throw invalidParameter('prefix: give the text to complete.');
  const skip = cursor === undefined || cursor === '' ? 0 : Number(cursor);
  if (!Number.isSafeInteger(skip) || skip < 0)
    throw invalidParameter(`cursor: a whole number from 0; got "${cursor}".`);
  return { prefix, cursor: skip };
}

/**
 * Organisations whose name contains the text, in the suggestions' order (exact, then prefix, then anywhere): the
 * suggestions of every field type, read a window at a time, with the other types left out. People are not
 * suggested, as in the suggestions themselves. At most {@link maxWindows} windows are read, so a text that mostly
 * matches occupations or event types may end its organisations early.
 */
export async function suggestOrganisations(db: Database, prefix: string, cursor: number) {
  const wanted = cursor + suggestPageSize;
  const found: { id: string; name: string; notable: (typeof organisationType)[] }[] = [];
  for (let read = 0; read < maxWindows && found.length < wanted; read += 1) {
    const page = await findSuggestions(db, prefix, { limit: window, offset: read * window });
    for (const suggestion of page) {
      if (suggestion.fieldType === 'Organisation')
        found.push({ id: suggestion.value, name: suggestion.label, notable: [organisationType] });
    }
    if (page.length < window) break;
  }
  return { result: found.slice(cursor, wanted) };
}

/** The properties whose id or name contains the text, for the column-to-property step of a client. */
export function suggestProperties(prefix: string, cursor: number) {
  const text = prefix.trim().toLowerCase();
  const matches = allProperties().filter(
    (property) => property.id.includes(text) || property.name.toLowerCase().includes(text),
  );
  return { result: matches.slice(cursor, cursor + suggestPageSize) };
}
