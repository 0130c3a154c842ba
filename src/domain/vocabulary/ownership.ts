/** How an owner relates to what it owns. Seen from the owned side, `parent` reads as `subsidiary`. */
export const ownerRelationships = [
  'parent',
  'minority_owner',
  'joint_venture_partner',
  'associate',
  'affiliate',
] as const;

export type OwnerRelationship = (typeof ownerRelationships)[number];
