/** One row of a caller's list of organisations; every field optional, at least one needed for an answer. */
export interface OrganisationInput {
  name?: string | null;
  domain?: string | null;
  website?: string | null;
  /** With or without its exchange: `AAPL`, `NASDAQ:AAPL`, `AAPL.L`. */
  ticker?: string | null;
  /** An ISO 3166 code or an English name. */
  country?: string | null;
  city?: string | null;
}

/** One row of a caller's list of people. */
export interface ProfileInput {
  name?: string | null;
  firstName?: string | null;
  lastName?: string | null;
  linkedinUrl?: string | null;
  email?: string | null;
  /** An organisation's name or reference, current or past. */
  organisation?: string | null;
  title?: string | null;
}

export const organisationInputFields = ['name', 'domain', 'website', 'ticker', 'country', 'city'] as const;
export const profileInputFields = [
  'name',
  'firstName',
  'lastName',
  'linkedinUrl',
  'email',
  'organisation',
  'title',
] as const;

export type OrganisationInputField = (typeof organisationInputFields)[number];
export type ProfileInputField = (typeof profileInputFields)[number];
export type ResolveField = OrganisationInputField | ProfileInputField;

export const resolveStatuses = ['matched', 'ambiguous', 'none'] as const;
export type ResolveStatus = (typeof resolveStatuses)[number];

/**
 * How an input field compared with the record: the same text (`exact`), the same once case, accents, punctuation,
 * word order and legal forms are set aside (`normalised`), one of the record's current other names (`alias`) or a
 * name it has left (`former_name`), close but not the same (`fuzzy`), different (`disagrees`), or the record has no
 * value to compare (`missing`).
 */
export const matchHows = [
  'exact',
  'normalised',
  'alias',
  'former_name',
  'fuzzy',
  'disagrees',
  'missing',
] as const;
export type MatchHow = (typeof matchHows)[number];

export interface MatchedOn {
  field: ResolveField;
  /** The input's value as given. */
  input: string;
  /** The record's value it was compared with; null when the record has none. */
  value: string | null;
  how: MatchHow;
}

export interface ResolveCandidate {
  reference: string;
  name: string;
  /** The share of rows answered with this candidate at this score that are right: see docs/resolving.md. */
  score: number;
  matchedOn: MatchedOn[];
}

export interface ResolveRow {
  status: ResolveStatus;
  /** Why there is no match: set when `status` is `none`. */
  reason: string | null;
  candidates: ResolveCandidate[];
}

export interface ResolveOptions {
  /** Candidates scoring below this are not returned, 0 to 1 (default 0.2). */
  minScore?: number;
  /** At most this many candidates per row, 1 to 10 (default 3). */
  maxCandidates?: number;
}

export const maxResolveInputs = 1000;
export const defaultMinScore = 0.2;
export const defaultMaxCandidates = 3;
export const maxMaxCandidates = 10;
