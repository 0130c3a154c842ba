import type { ArticleLicence } from '../vocabulary/articles.ts';

/**
 * The licence rule, the same on both transports: an article's content and the verbatim text of its
 * annotations are shown only under a `full_text` licence; titles, offsets and summaries always are.
 */
export function licenceAllowsText(licence: ArticleLicence): boolean {
  return licence === 'full_text';
}
