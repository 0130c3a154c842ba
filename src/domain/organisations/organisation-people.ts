import { eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import type { Database } from '../../db/database.ts';
import { organisationsTable } from '../../db/schema/organisations.ts';
import { experiencesTable, type Profile, profilesTable } from '../../db/schema/profiles.ts';
import { notFound } from '../errors.ts';
import { isExecutiveTitle } from './executive-title.ts';

/** One role a person holds or held at an organisation, with the person. */
export interface OrganisationRole {
  /** The experience's reference. */
  reference: string;
  organisationReference: string;
  organisationName: string;
  title: string;
  startDate: string | null;
  /** Null on a current role. */
  endDate: string | null;
  profile: Profile;
}

/**
 * Every role at each of `references`: current roles first (latest joiner first), then past roles with
 * the most recent leaver first. A person with two roles at one organisation has two entries.
 */
export async function listOrganisationRoles(
  db: Database,
  references: readonly string[],
): Promise<OrganisationRole[]> {
  const e = experiencesTable;
  const rows = await db
    .select({
      reference: e.reference,
      organisationReference: organisationsTable.reference,
      organisationName: organisationsTable.name,
      title: e.occupationTitle,
      startDate: e.startDate,
      endDate: e.endDate,
      profile: getTableColumns(profilesTable),
    })
    .from(e)
    .innerJoin(organisationsTable, eq(organisationsTable.reference, e.organisationReference))
    .innerJoin(profilesTable, eq(profilesTable.reference, e.profileReference))
    .where(inArray(e.organisationReference, [...references]))
    .orderBy(
      sql`${e.endDate} desc nulls first`,
      sql`${e.startDate} desc nulls last`,
      profilesTable.lastName,
      profilesTable.firstName,
      e.reference,
    );
  return rows;
}

/** An organisation's people in the three lists of its people endpoint. */
export interface OrganisationPeople {
  /** Current roles whose title reads as executive (see `isExecutiveTitle`). */
  currentExecutives: OrganisationRole[];
  /** Every other current role. */
  currentProfessionals: OrganisationRole[];
  /** Ended roles, most recent leaver first. */
  alumni: OrganisationRole[];
}

/** Splits roles (in `listOrganisationRoles` order) into the three people lists. */
export function partitionRoles(roles: readonly OrganisationRole[]): OrganisationPeople {
  const people: OrganisationPeople = { currentExecutives: [], currentProfessionals: [], alumni: [] };
  for (const role of roles) {
    if (role.endDate !== null) people.alumni.push(role);
    else if (isExecutiveTitle(role.title)) people.currentExecutives.push(role);
    else people.currentProfessionals.push(role);
  }
  return people;
}

/** The people of one organisation; throws not found for an unknown reference. */
export async function getOrganisationPeople(db: Database, reference: string): Promise<OrganisationPeople> {
  const [exists, roles] = await Promise.all([
    db
      .select({ reference: organisationsTable.reference })
      .from(organisationsTable)
      .where(eq(organisationsTable.reference, reference)),
    listOrganisationRoles(db, [reference]),
  ]);
  if (exists.length === 0) throw notFound('organisation', reference);
  return partitionRoles(roles);
}
