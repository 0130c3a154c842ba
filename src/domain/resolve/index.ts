import type { Database } from '../../db/database.ts';
import { invalidParameter } from '../errors.ts';
import { isStorableText } from '../storable-text.ts';
import {
  findOrganisationCandidates,
  findProfileCandidates,
  readOrganisationDetails,
  readProfileDetails,
} from './candidates.ts';
import {
  isEmptyOrganisationQuery,
  isEmptyProfileQuery,
  organisationEvidence,
  profileEvidence,
  readOrganisationInput,
  readProfileInput,
  shownEvidence,
  totalWeight,
  weights,
} from './evidence.ts';
import {
  defaultMaxCandidates,
  defaultMinScore,
  type MatchedOn,
  maxMaxCandidates,
  maxResolveInputs,
  type OrganisationInput,
  type ProfileInput,
  type ResolveCandidate,
  type ResolveOptions,
  type ResolveRow,
} from './types.ts';

export type {
  MatchedOn,
  MatchHow,
  OrganisationInput,
  ProfileInput,
  ResolveCandidate,
  ResolveOptions,
  ResolveRow,
  ResolveStatus,
} from './types.ts';

/**
 * The score a row's best candidate needs to be `matched`: fitted so that of the rows matched on the labelled sets,
 * at least 99 % are right, with a margin (bench/resolve.ts, bench/NOTES.md 67 and 69; docs/decisions.md).
 */
export const matchThreshold = 0.75;

interface ScoredCandidate {
  reference: string;
  name: string;
  weight: number;
  matchedOn: MatchedOn[];
}

/** The options with their defaults, or INVALID_PARAMETER naming the one out of range. */
export function readResolveOptions(options: ResolveOptions = {}): Required<ResolveOptions> {
  const minScore = options.minScore ?? defaultMinScore;
  const maxCandidates = options.maxCandidates ?? defaultMaxCandidates;
  if (!Number.isFinite(minScore) || minScore < 0 || minScore > 1)
    throw invalidParameter('min_score must be a number from 0 to 1.');
  if (!Number.isInteger(maxCandidates) || maxCandidates < 1 || maxCandidates > maxMaxCandidates)
    throw invalidParameter(`max_candidates must be a whole number from 1 to ${maxMaxCandidates}.`);
  return { minScore, maxCandidates };
}

function checkInputs(inputs: ReadonlyArray<OrganisationInput | ProfileInput>): void {
  if (inputs.length > maxResolveInputs)
    throw invalidParameter(`inputs: at most ${maxResolveInputs} inputs a call; got ${inputs.length}.`);
  inputs.forEach((input, position) => {
    for (const [field, text] of Object.entries(input)) {
      if (typeof text === 'string' && !isStorableText(text)) {
        const name = field.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
        throw invalidParameter(
          `inputs.${position}.${name}: text with NUL or a lone surrogate cannot be matched.`,
        );
      }
    }
  });
}

/**
 * Each candidate's score: its evidence against its rivals' and against `none`, the odds that the input's record is
 * none of them, as shares of one (a softmax over the candidates and `none`). Two records the input cannot tell apart
 * share what one alone would get.
 */
function rowOf(
  scored: ScoredCandidate[],
  options: Required<ResolveOptions>,
  nothingFound: string,
): ResolveRow {
  if (scored.length === 0) return { status: 'none', reason: nothingFound, candidates: [] };
  const top = Math.max(weights.none, ...scored.map((candidate) => candidate.weight));
  const none = Math.exp(weights.none - top);
  const shares = scored.map((candidate) => Math.exp(candidate.weight - top));
  const sum = none + shares.reduce((total, share) => total + share, 0);
  const candidates: ResolveCandidate[] = scored
    .map((candidate, index) => ({
      reference: candidate.reference,
      name: candidate.name,
      score: Math.round((shares[index]! / sum) * 1000) / 1000,
      matchedOn: candidate.matchedOn,
    }))
    .sort(
      (a, b) => b.score - a.score || a.name.localeCompare(b.name) || a.reference.localeCompare(b.reference),
    )
    .filter((candidate) => candidate.score >= options.minScore)
    .slice(0, options.maxCandidates);
  const best = candidates[0];
  if (!best)
    return {
      status: 'none',
      reason: `no candidate scored at least min_score ${options.minScore}`,
      candidates: [],
    };
  return {
    status: best.score >= Math.max(matchThreshold, options.minScore) ? 'matched' : 'ambiguous',
    reason: null,
    candidates,
  };
}

const emptyReason = 'the input has no name, domain, website or ticker to look up';
const emptyProfileReason = 'the input has no name, LinkedIn URL or e-mail to look up';

/**
 * One row per input, in input order: the records each could be, scored and explained field by field. Three
 * statements for the whole call, however many inputs (candidates, then their records).
 */
export async function resolveOrganisations(
  db: Database,
  inputs: OrganisationInput[],
  options: ResolveOptions = {},
): Promise<ResolveRow[]> {
  checkInputs(inputs);
  const settings = readResolveOptions(options);
  const queries = inputs.map(readOrganisationInput);
  const found = await findOrganisationCandidates(db, queries);
  const details = await readOrganisationDetails(db, [...new Set([...found.values()].flat())]);
  return queries.map((query, position) => {
    if (isEmptyOrganisationQuery(query)) return { status: 'none', reason: emptyReason, candidates: [] };
    const scored = (found.get(position) ?? []).flatMap((reference) => {
      const record = details.get(reference);
      if (!record) return [];
      const evidence = organisationEvidence(query, record);
      return [
        { reference, name: record.name, weight: totalWeight(evidence), matchedOn: shownEvidence(evidence) },
      ];
    });
    return rowOf(scored, settings, 'no organisation has a name, alias, domain or ticker like the input');
  });
}

export async function resolveProfiles(
  db: Database,
  inputs: ProfileInput[],
  options: ResolveOptions = {},
): Promise<ResolveRow[]> {
  checkInputs(inputs);
  const settings = readResolveOptions(options);
  const queries = inputs.map(readProfileInput);
  const found = await findProfileCandidates(db, queries);
  const details = await readProfileDetails(db, [...new Set([...found.values()].flat())]);
  return queries.map((query, position) => {
    if (isEmptyProfileQuery(query)) return { status: 'none', reason: emptyProfileReason, candidates: [] };
    const scored = (found.get(position) ?? []).flatMap((reference) => {
      const record = details.get(reference);
      if (!record) return [];
      const evidence = profileEvidence(query, record);
      return [
        {
          reference,
          name: record.fullName,
          weight: totalWeight(evidence),
          matchedOn: shownEvidence(evidence),
        },
      ];
    });
    return rowOf(scored, settings, 'no person has a name, LinkedIn URL or e-mail like the input');
  });
}
