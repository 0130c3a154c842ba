/**
 * Which slice of an ordered list to read. REST pages use `offset`; graph connections use keyset
 * bounds (`after`/`before` are sort keys of rows already seen), reading backwards when `inverted`.
 */
export interface ListWindow<Key> {
  limit: number;
  offset?: number;
  after?: Key;
  before?: Key;
  inverted?: boolean;
}

/** A match count, as storage counts it within its time limit. */
export type { Total } from '../db/counting.ts';
