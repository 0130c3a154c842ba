import { containsPattern } from '../db/like-pattern.ts';
import { invalidParameter } from './errors.ts';

/** Longer substring filters name nothing real, and each character makes matching every row dearer. */
export const maxSubstringLength = 200;

/**
 * The LIKE pattern matching `text` literally anywhere. Refuses, as an invalid parameter, text longer than
 * {@link maxSubstringLength} (a 12,000-character filter takes seconds to match) and text with NUL, which
 * PostgreSQL text cannot hold.
 */
export function likeSubstring(text: string): string {
  if (text.length > maxSubstringLength) {
    throw invalidParameter(`A text filter can be at most ${maxSubstringLength} characters long.`);
  }
  if (text.includes('\0')) throw invalidParameter('A text filter cannot contain the NUL character (U+0000).');
  return containsPattern(text);
}
