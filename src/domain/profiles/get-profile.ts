import { asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../../db/database.ts';
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

/** One profile; NOT_FOUND when no profile has `reference`. */
export async function getProfile(db: Database, reference: string): Promise<Profile> {
  const [profile] = await db.select().from(profilesTable).where(eq(profilesTable.reference, reference));
  if (!profile) throw notFound('profile', reference);
  return profile;
}

export function findProfilesByReference(db: Database, references: readonly string[]): Promise<Profile[]> {
  return db
    .select()
    .from(profilesTable)
    .where(inArray(profilesTable.reference, [...references]));
}

/** The work history of each person, in the order of `compareExperiences` (current roles first). */
export function findExperiences(db: Database, profileReferences: readonly string[]): Promise<Experience[]> {
  const e = experiencesTable;
  return db
    .select()
    .from(e)
    .where(inArray(e.profileReference, [...profileReferences]))
    .orderBy(
      e.profileReference,
      sql`${e.endDate} is not null`,
      sql`${e.startDate} desc nulls last`,
      e.reference,
    );
}

export function findExperiencesByReference(
  db: Database,
  references: readonly string[],
): Promise<Experience[]> {
  return db
    .select()
    .from(experiencesTable)
    .where(inArray(experiencesTable.reference, [...references]));
}

/** Each person's email addresses, the most confident first. */
export function findEmails(db: Database, profileReferences: readonly string[]): Promise<ProfileEmail[]> {
  const m = profileEmailsTable;
  return db
    .select()
    .from(m)
    .where(inArray(m.profileReference, [...profileReferences]))
    .orderBy(m.profileReference, desc(m.confidenceScore), asc(m.value), asc(m.reference));
}

export function findOccupationsByReference(
  db: Database,
  references: readonly string[],
): Promise<Occupation[]> {
  return db
    .select()
    .from(occupationsTable)
    .where(inArray(occupationsTable.reference, [...references]));
}
