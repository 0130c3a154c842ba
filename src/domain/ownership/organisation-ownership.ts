import { aliasedTable, asc, desc, eq, inArray } from 'drizzle-orm';
import type { Database } from '../../db/database.ts';
import { organisationsTable } from '../../db/schema/organisations.ts';
import { organisationOwnershipsTable } from '../../db/schema/ownership.ts';
import { notFound } from '../errors.ts';
import type { OwnerRelationship } from '../vocabulary/ownership.ts';
import { listProfileOwners, type NamedStake } from './profile-stakes.ts';

/** `relationship_type` as the interface names it: the stored owner relationships plus `subsidiary`. */
export const relationshipTypes = [
  'parent',
  'minority_owner',
  'joint_venture_partner',
  'associate',
  'subsidiary',
  'affiliate',
] as const;
export type RelationshipType = (typeof relationshipTypes)[number];

/**
 * A stored relationship seen from the owner's side. Rows say how the owner relates to what it owns,
 * which is how the owned organisation sees its owner (`org_owners` shows it unchanged); from the owner,
 * the organisation its `parent` row points at is its `subsidiary`, and the other kinds are symmetric
 * (a joint-venture partner, associate, affiliate or minority holding reads the same both ways).
 */
export function relationshipFromOwner(stored: OwnerRelationship): RelationshipType {
  return stored === 'parent' ? 'subsidiary' : stored;
}

/** One side of an ownership link between two organisations, seen from `organisationReference`. */
export interface OwnershipLink {
  /** The ownership row's reference. */
  reference: string;
  /** The organisation whose owners or subsidiaries these are. */
  organisationReference: string;
  /** The organisation at the other end: the owner (in owners) or the owned (in subsidiaries). */
  counterpartReference: string;
  counterpartName: string;
  ownershipLabel: string;
  isControllingInterest: boolean;
  relationshipType: RelationshipType;
}

const counterpart = aliasedTable(organisationsTable, 'counterpart');

/** The organisations that own each of `references` (its parents and other holders), by name. */
export async function listOwners(db: Database, references: readonly string[]): Promise<OwnershipLink[]> {
  const t = organisationOwnershipsTable;
  const rows = await db
    .select({
      reference: t.reference,
      organisationReference: t.ownedReference,
      counterpartReference: t.ownerReference,
      counterpartName: counterpart.name,
      ownershipLabel: t.ownershipLabel,
      isControllingInterest: t.isControllingInterest,
      relationship: t.relationship,
    })
    .from(t)
    .innerJoin(counterpart, eq(counterpart.reference, t.ownerReference))
    .where(inArray(t.ownedReference, [...references]))
    .orderBy(desc(t.isControllingInterest), asc(counterpart.name), asc(t.reference));
  return rows.map(({ relationship, ...row }) => ({ ...row, relationshipType: relationship }));
}

/** The organisations each of `references` owns, by name; `parent` rows read as `subsidiary`. */
export async function listSubsidiaries(
  db: Database,
  references: readonly string[],
): Promise<OwnershipLink[]> {
  const t = organisationOwnershipsTable;
  const rows = await db
    .select({
      reference: t.reference,
      organisationReference: t.ownerReference,
      counterpartReference: t.ownedReference,
      counterpartName: counterpart.name,
      ownershipLabel: t.ownershipLabel,
      isControllingInterest: t.isControllingInterest,
      relationship: t.relationship,
    })
    .from(t)
    .innerJoin(counterpart, eq(counterpart.reference, t.ownedReference))
    .where(inArray(t.ownerReference, [...references]))
    .orderBy(desc(t.isControllingInterest), asc(counterpart.name), asc(t.reference));
  return rows.map(({ relationship, ...row }) => ({
    ...row,
    relationshipType: relationshipFromOwner(relationship),
  }));
}

/** An organisation's ownership in both directions. */
export interface OrganisationOwnership {
  organisation: { reference: string; name: string };
  profileOwners: NamedStake[];
  owners: OwnershipLink[];
  subsidiaries: OwnershipLink[];
}

/** Who owns an organisation and what it owns; throws not found for an unknown reference. */
export async function getOrganisationOwnership(
  db: Database,
  reference: string,
): Promise<OrganisationOwnership> {
  const one = [reference];
  const [organisations, profileOwners, owners, subsidiaries] = await Promise.all([
    db
      .select({ reference: organisationsTable.reference, name: organisationsTable.name })
      .from(organisationsTable)
      .where(eq(organisationsTable.reference, reference)),
    listProfileOwners(db, one),
    listOwners(db, one),
    listSubsidiaries(db, one),
  ]);
  const organisation = organisations[0];
  if (!organisation) throw notFound('organisation', reference);
  return { organisation, profileOwners, owners, subsidiaries };
}
