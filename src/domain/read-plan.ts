import { getTableColumns, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { type Database, queryRows } from '../db/database.ts';
import { requireUnmappedColumns } from '../db/prepared-query.ts';
import { organisationsTable } from '../db/schema/organisations.ts';
import { experiencesTable, profilesTable } from '../db/schema/profiles.ts';
import { uuidArrayLiteral } from '../db/uuid-array.ts';
import type { OrganisationPeople, OrganisationRole } from './organisations/organisation-people.ts';
import { partitionRoles } from './organisations/organisation-people.ts';
import {
  loadProfileArticlesPlan,
  type PlannedArticlePage,
  type ProfileArticlesPlan,
  type plannedArticles,
} from './profiles/planned-articles.ts';
import type { Experience, Organisation, Profile } from './records.ts';

/**
 * A read plan: the levels below a list that a request asks for, each loaded with one statement selecting only the
 * columns asked for, into the driver's plain rows. What a level loads is attached to its parents under the symbols
 * below, so that the fields reading it answer synchronously; a parent without them is read through the loaders.
 * The rows are the loaders' (same columns under the same property names, same order), so both paths answer alike.
 */

for (const table of [organisationsTable, profilesTable, experiencesTable]) requireUnmappedColumns(table);

/** The columns a level selects (property names of its table), or every column when a field needs the whole row. */
export type PlannedColumns = ReadonlySet<string> | 'all';

export interface OrganisationPlan {
  columns: PlannedColumns;
  /** Set when any of the organisation's three people lists is asked for. */
  roles?: RolePlan;
}

export interface RolePlan {
  /** Set when the role's person is asked for beyond their reference. */
  profile?: ProfilePlan;
  /** The lists whose people's history or articles are asked for, when not all three: only theirs are loaded. */
  asking?: Partial<Record<PersonLevel, readonly (keyof OrganisationPeople)[]>>;
}

export interface ProfilePlan {
  columns: PlannedColumns;
  experiences?: ExperiencePlan;
  articles?: ProfileArticlesPlan;
}

/** The levels below a person that one list may ask for and another not. */
export type PersonLevel = 'experiences' | 'articles';

/** The people whose levels to load, by level; everyone given when a level is not named. */
export type PersonReaders = Partial<Record<PersonLevel, readonly PlannedProfile[]>>;

export interface ExperiencePlan {
  columns: PlannedColumns;
  organisation?: OrganisationPlan;
}

/** On an organisation: its roles in the three people lists. */
export const plannedPeople = Symbol('planned people');
/** On a profile: its work history, current roles first. */
export const plannedExperiences = Symbol('planned experiences');
/** On an experience: its organisation, or null when it has none. */
export const plannedOrganisation = Symbol('planned organisation');

export type PlannedOrganisation = Organisation & { [plannedPeople]?: OrganisationPeople };
export type PlannedProfile = Profile & {
  [plannedExperiences]?: Experience[];
  [plannedArticles]?: PlannedArticlePage;
};
export type PlannedExperience = Experience & { [plannedOrganisation]?: Organisation | null };

/** Loads what `plan` asks for below `organisations`, and attaches it to them. */
export async function loadOrganisationPlan(
  db: Database,
  organisations: readonly PlannedOrganisation[],
  plan: OrganisationPlan,
): Promise<void> {
  if (!plan.roles || organisations.length === 0) return;
  const profileColumns = plan.roles.profile ? plan.roles.profile.columns : new Set<string>();
  const e = experiencesTable;
  const p = profilesTable;
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`select ${e.reference} as "reference", ${e.organisationReference} as "organisationReference",
      ${e.occupationTitle} as "title", ${e.startDate} as "startDate", ${e.endDate} as "endDate",
      ${e.profileReference} as "profileReference"${columnList(p, profileColumns, 'p_')}
      from ${e} inner join ${p} on ${p.reference} = ${e.profileReference}
      where ${e.organisationReference} = any(${uuidArray(organisations.map((o) => o.reference))})
      order by ${e.endDate} desc nulls first, ${e.startDate} desc nulls last, ${p.lastName}, ${p.firstName}, ${e.reference}`,
  );
  const profiles = new Map<string, PlannedProfile>();
  const roles = new Map<string, OrganisationRole[]>();
  for (const row of rows) {
    const profileReference = row.profileReference as string;
    let profile = profiles.get(profileReference);
    if (!profile) {
      profile = unprefixed(row, 'p_', profileReference) as PlannedProfile;
      profiles.set(profileReference, profile);
    }
    const role = {
      reference: row.reference,
      organisationReference: row.organisationReference,
      title: row.title,
      startDate: row.startDate,
      endDate: row.endDate,
      profile,
    } as OrganisationRole;
    const list = roles.get(role.organisationReference);
    if (list) list.push(role);
    else roles.set(role.organisationReference, [role]);
  }
  const asking = Object.entries(plan.roles.asking ?? {}) as [PersonLevel, (keyof OrganisationPeople)[]][];
  const readers = new Map(asking.map(([level]) => [level, new Set<PlannedProfile>()]));
  for (const organisation of organisations) {
    const people = partitionRoles(roles.get(organisation.reference) ?? []);
    organisation[plannedPeople] = people;
    for (const [level, lists] of asking) {
      const set = readers.get(level)!;
      for (const list of lists) for (const role of people[list]) set.add(role.profile);
    }
  }
  if (plan.roles.profile) {
    const byLevel: PersonReaders = Object.fromEntries([...readers].map(([level, set]) => [level, [...set]]));
    await loadProfilePlan(db, [...profiles.values()], plan.roles.profile, byLevel);
  }
}

/** Loads what `plan` asks for below `profiles` (each level for its `readers` only), and attaches it to them. */
export async function loadProfilePlan(
  db: Database,
  profiles: readonly PlannedProfile[],
  plan: ProfilePlan,
  readers: PersonReaders = {},
): Promise<void> {
  const { experiences = profiles, articles = profiles } = readers;
  await Promise.all([
    plan.experiences && experiences.length > 0 && loadExperiences(db, experiences, plan.experiences),
    plan.articles && articles.length > 0 && loadProfileArticlesPlan(db, articles, plan.articles),
  ]);
}

async function loadExperiences(
  db: Database,
  profiles: readonly PlannedProfile[],
  experiencePlan: ExperiencePlan,
): Promise<void> {
  const e = experiencesTable;
  const rows = await queryRows<PlannedExperience>(
    db,
    sql`select ${e.reference} as "reference", ${e.profileReference} as "profileReference"${columnList(
      e,
      experiencePlan.organisation
        ? withColumn(experiencePlan.columns, 'organisationReference')
        : experiencePlan.columns,
    )} from ${e}
      where ${e.profileReference} = any(${uuidArray(profiles.map((profile) => profile.reference))})
      order by ${e.profileReference}, ${e.endDate} is not null, ${e.startDate} desc nulls last, ${e.reference}`,
  );
  const byProfile = new Map<string, PlannedExperience[]>();
  for (const row of rows) {
    const list = byProfile.get(row.profileReference);
    if (list) list.push(row);
    else byProfile.set(row.profileReference, [row]);
  }
  for (const profile of profiles) profile[plannedExperiences] = byProfile.get(profile.reference) ?? [];
  if (experiencePlan.organisation) await loadExperienceOrganisations(db, rows, experiencePlan.organisation);
}

async function loadExperienceOrganisations(
  db: Database,
  experiences: readonly PlannedExperience[],
  plan: OrganisationPlan,
): Promise<void> {
  const references = new Set<string>();
  for (const experience of experiences) {
    if (experience.organisationReference) references.add(experience.organisationReference);
  }
  const o = organisationsTable;
  const rows =
    references.size === 0
      ? []
      : await queryRows<PlannedOrganisation>(
          db,
          sql`select ${o.reference} as "reference"${columnList(o, plan.columns)} from ${o}
            where ${o.reference} = any(${uuidArray([...references])})`,
        );
  const byReference = new Map(rows.map((row) => [row.reference, row]));
  for (const experience of experiences) {
    experience[plannedOrganisation] = experience.organisationReference
      ? (byReference.get(experience.organisationReference) ?? null)
      : null;
  }
  await loadOrganisationPlan(db, rows, plan);
}

function withColumn(columns: PlannedColumns, column: string): PlannedColumns {
  return columns === 'all' ? columns : new Set([...columns, column]);
}

/** `, table.column as "prefix+property"` for each planned column but the reference (always selected apart). */
function columnList(table: PgTable, columns: PlannedColumns, prefix = ''): SQL {
  const all = getTableColumns(table) as Record<string, PgColumn>;
  const names = columns === 'all' ? Object.keys(all) : [...columns];
  const parts = names
    .filter((name) => name !== 'reference')
    .map((name) => {
      const column = all[name];
      if (!column) throw new Error(`${name} is not a column of the planned table`);
      return sql`, ${column} as ${sql.identifier(prefix + name)}`;
    });
  return sql.join(parts);
}

/** The row's properties named `prefix…`, without the prefix, and the reference. */
function unprefixed(
  row: Record<string, unknown>,
  prefix: string,
  reference: string,
): Record<string, unknown> {
  const object: Record<string, unknown> = { reference };
  for (const key in row) {
    if (key.startsWith(prefix)) object[key.slice(prefix.length)] = row[key];
  }
  return object;
}

/** References as one `uuid[]` parameter, whose text does not depend on how many there are. */
function uuidArray(references: readonly string[]): SQL {
  return sql`${uuidArrayLiteral(references)}::uuid[]`;
}
