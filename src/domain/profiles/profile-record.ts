import type { Database } from '../../db/database.ts';
import type { Loaders } from '../loaders.ts';
import type { ListWindow, Total } from '../paging.ts';
import type { Experience, Occupation, Organisation, Profile, ProfileEmail } from '../records.ts';
import { pickCurrentRole } from './current-role.ts';
import { countProfiles, findProfiles, type ProfileFilter, type ProfileSortKey } from './find-profiles.ts';
import { getProfile } from './get-profile.ts';

/** A role with the organisation and the normalised occupation it points at. */
export interface PlacedExperience {
  experience: Experience;
  organisation: Organisation | null;
  occupation: Occupation | null;
}

/** A person's single record: the profile, the whole work history placed, the current role and the emails. */
export interface ProfileRecord {
  profile: Profile;
  experiences: PlacedExperience[];
  currentRole: PlacedExperience | null;
  emails: ProfileEmail[];
}

/** A row of the people list: the profile and its current role. */
export interface ProfileListEntry {
  profile: Profile;
  currentRole: PlacedExperience | null;
}

async function placeExperience(loaders: Loaders, experience: Experience): Promise<PlacedExperience> {
  const [organisation, occupation] = await Promise.all([
    experience.organisationReference
      ? loaders.organisationByReference.load(experience.organisationReference)
      : null,
    experience.occupationReference
      ? loaders.occupationByReference.load(experience.occupationReference)
      : null,
  ]);
  return { experience, organisation, occupation };
}

/**
 * The record's current role: the current role (see `pickCurrentRole`) among those held at a known
 * organisation, so that its organisation is always a name; null when no open role has one.
 */
function pickPlacedRole(history: readonly Experience[]): Experience | null {
  return pickCurrentRole(history.filter((experience) => experience.organisationReference !== null));
}

/** `loadMany` reports a failed key as an Error in place; it is thrown, for the caller's error handling. */
function unwrap<T>(value: T | Error): T {
  if (value instanceof Error) throw value;
  return value;
}

/** One person's record; NOT_FOUND when no profile has `reference`. */
export async function getProfileRecord(
  db: Database,
  loaders: Loaders,
  reference: string,
): Promise<ProfileRecord> {
  const profile = await getProfile(db, reference);
  const [history, emails] = await Promise.all([
    loaders.experiencesByProfile.load(reference),
    loaders.emailsByProfile.load(reference),
  ]);
  const experiences = await Promise.all(history.map((experience) => placeExperience(loaders, experience)));
  const current = pickPlacedRole(history);
  const currentRole = experiences.find((placed) => placed.experience === current) ?? null;
  return { profile, experiences, currentRole, emails };
}

/** A window of the people list, each person with the current role, and the number of matches. */
export async function findProfilesPage(
  db: Database,
  loaders: Loaders,
  filter: ProfileFilter,
  window: ListWindow<ProfileSortKey>,
  countTimeoutMs: number,
): Promise<{ rows: ProfileListEntry[]; total: Total }> {
  const [profiles, total] = await Promise.all([
    findProfiles(db, filter, window),
    countProfiles(db, filter, countTimeoutMs),
  ]);
  const histories = await loaders.experiencesByProfile.loadMany(profiles.map((profile) => profile.reference));
  const roles = await Promise.all(
    histories.map((history) => {
      const current = pickPlacedRole(unwrap(history));
      return current ? placeExperience(loaders, current) : null;
    }),
  );
  return { rows: profiles.map((profile, index) => ({ profile, currentRole: roles[index] ?? null })), total };
}
