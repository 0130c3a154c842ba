import { type SQL, sql } from 'drizzle-orm';
import { organisationNamesTable } from '../../db/schema/organisations.ts';
import { likeSubstring } from '../text-filter.ts';

/**
 * The rows of `organisation_names` whose name contains `text` in any case: `name ilike '%text%'`, spelled as
 * PostgreSQL itself evaluates it on a UTF-8 database, `lower(name) like lower(p)`, on `name_lower`. The trigram
 * index finds the candidates on `name_key`, where every character that is not a letter or digit is a digit: `0`
 * for a blank, one for each common punctuation mark (`orgraph_name_key`). Mapped the same way, the substring is in
 * every name that contains it (the mapping goes character by character), and its trigrams span the blanks and
 * punctuation that end the trigrams of words, so a fragment of short words and punctuation has few candidates
 * (bench/NOTES.md 26), and fewer again since punctuation is told from blanks (bench/NOTES.md 49).
 *
 * Funds and the other organisations have a trigram index each, so the rows are those of one kind (`isFund`) or,
 * when `isFund` is undefined, of both kinds asked as two lookups joined by `or`, which reads the two indexes (bench/NOTES.md 49).
 * Throws an invalid parameter for text `likeSubstring` refuses.
 */
export function nameSubstringMatch(text: string, isFund: boolean | undefined): SQL {
  const pattern = likeSubstring(text);
  const n = organisationNamesTable;
  const key = sql`'%' || orgraph_name_key(${text}) || '%'`;
  const lookup =
    isFund === undefined
      ? sql`((${n.isFund} and ${n.nameKey} like ${key}) or (not ${n.isFund} and ${n.nameKey} like ${key}))`
      : sql`(${isFund ? sql`${n.isFund}` : sql`not ${n.isFund}`} and ${n.nameKey} like ${key})`;
  return sql`(${lookup} and ${n.nameLower} like lower(${pattern}))`;
}
