import type { Experience } from '../../db/schema/profiles.ts';

type Dated = Pick<Experience, 'reference' | 'startDate' | 'endDate'>;

/**
 * The order a work history is shown in: current roles first, then by start date, newest first (an
 * unknown start last), then by reference so that the order never depends on the database's whim.
 * `findExperiences` sorts the same way in SQL.
 */
export function compareExperiences(a: Dated, b: Dated): number {
  const aCurrent = a.endDate === null;
  const bCurrent = b.endDate === null;
  if (aCurrent !== bCurrent) return aCurrent ? -1 : 1;
  if (a.startDate !== b.startDate) {
    if (a.startDate === null) return 1;
    if (b.startDate === null) return -1;
    // ISO dates compare correctly as strings.
    return a.startDate < b.startDate ? 1 : -1;
  }
  return a.reference < b.reference ? -1 : a.reference > b.reference ? 1 : 0;
}

/**
 * The current role, the same on every transport: the role with no end date; with several, the one
 * started most recently (an unknown start counts as oldest, ties go to the lower reference); null
 * when the person has no current role.
 */
export function pickCurrentRole<E extends Dated>(experiences: readonly E[]): E | null {
  let best: E | null = null;
  for (const experience of experiences) {
    if (experience.endDate !== null) continue;
    if (best === null || compareExperiences(experience, best) < 0) best = experience;
  }
  return best;
}
