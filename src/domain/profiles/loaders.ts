import type { Database } from '../../db/database.ts';
import { loaderByArguments, manyByKey, oneByKey } from '../batch.ts';
import type { ListWindow } from '../paging.ts';
import {
  findEmails,
  findExperiences,
  findExperiencesByReference,
  findOccupationsByReference,
  findProfilesByReference,
} from './get-profile.ts';
import {
  findProfileArticles,
  type ProfileArticleKey,
  type ProfileArticleOptions,
  type ProfileArticlePage,
} from './profile-articles.ts';

export function createProfileLoaders(db: Database) {
  return {
    profileByReference: oneByKey(
      (references: readonly string[]) => findProfilesByReference(db, references),
      (row) => row.reference,
    ),
    /** Work history, current roles first; the current role is `pickCurrentRole` of it. */
    experiencesByProfile: manyByKey(
      (references: readonly string[]) => findExperiences(db, references),
      (row) => row.profileReference,
    ),
    experienceByReference: oneByKey(
      (references: readonly string[]) => findExperiencesByReference(db, references),
      (row) => row.reference,
    ),
    emailsByProfile: manyByKey(
      (references: readonly string[]) => findEmails(db, references),
      (row) => row.profileReference,
    ),
    occupationByReference: oneByKey(
      (references: readonly string[]) => findOccupationsByReference(db, references),
      (row) => row.reference,
    ),
    /** A page of a person's articles; people asking with the same options and window share one query. */
    profileArticles: loaderByArguments<
      { options: ProfileArticleOptions; window: ListWindow<ProfileArticleKey> },
      ProfileArticlePage
    >(
      (references, { options, window }) => findProfileArticles(db, references, options, window),
      () => ({ items: [], total: { value: 0, isEstimate: false } }),
    ),
  };
}
