/** One chip of a saved search as stored: the spec's chip, its operator upper-cased. */
export interface StoredChip {
  fieldType: string;
  label: string;
  value: string;
  /** Condition chips only; stored upper case. */
  operator?: string;
}
