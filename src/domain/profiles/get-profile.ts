import { asc, desc, sql } from 'drizzle-orm';
import type { Database } from '../../db/database.ts';
import { preparedByReferences, type ReferenceQuery } from '../../db/prepared-query.ts';
import {
  type Experience,
  experiencesTable,
  type Profile,
  type ProfileEmail,
  profileEmailsTable,
  profilesTable,
} from '../../db/schema/profiles.ts';
import { type Occupation, occupationsTable } from '../../db/schema/reference.ts';
import { notFound } from '../errors.ts';

export const findProfilesByReference: ReferenceQuery<Profile> = preparedByReferences(
  'orgraph_profiles_by_reference',
  (db, match) => db.select().from(profilesTable).where(match(profilesTable.reference)),
);

/** One profile; NOT_FOUND when no profile has `reference`. */
export async function getProfile(db: Database, reference: string): Promise<Profile> {
  const [profile] = await findProfilesByReference(db, [reference]);
  if (!profile) throw notFound('profile', reference);
  return profile;
}

const e = experiencesTable;

/** The work history of each person, in the order of `compareExperiences` (current roles first). */
const experiencesOrder = sql`${e.profileReference}, ${e.endDate} is not null, ${e.startDate} desc nulls last, ${e.reference}`;

export const findExperiences: ReferenceQuery<Experience> = preparedByReferences(
  'orgraph_experiences_of_profiles',
  (db, match) => db.select().from(e).where(match(e.profileReference)).orderBy(experiencesOrder),
);

export const findExperiencesByReference: ReferenceQuery<Experience> = preparedByReferences(
  'orgraph_experiences_by_reference',
  (db, match) => db.select().from(e).where(match(e.reference)),
);

const m = profileEmailsTable;

/** Each person's email addresses, the most confident first. */
export const findEmails: ReferenceQuery<ProfileEmail> = preparedByReferences(
  'orgraph_emails_of_profiles',
  (db, match) =>
    db
      .select()
      .from(m)
      .where(match(m.profileReference))
      .orderBy(m.profileReference, desc(m.confidenceScore), asc(m.value), asc(m.reference)),
);

export const findOccupationsByReference: ReferenceQuery<Occupation> = preparedByReferences(
  'orgraph_occupations_by_reference',
  (db, match) => db.select().from(occupationsTable).where(match(occupationsTable.reference)),
);
