import { organisationOwnershipsTable, profileStakesTable } from '../src/db/schema/ownership.ts';
import type { OwnerRelationship } from '../src/domain/vocabulary/ownership.ts';
import type { RowBatch } from './bulk-load.ts';
import { daysBefore, isoDate } from './dates.ts';
import { organisationIdentity, organisationWhere } from './organisations.ts';
import { poolMember, profileIdentity } from './people.ts';
import { Random, scatter, uuidFor } from './random.ts';
import type { World } from './world.ts';

/** Band labels as the source records them; the spec calls them labels, never numbers. */
export const ownershipLabels = {
  whollyOwned: 'Wholly owned',
  majority: 'Majority (50–75%)',
  quarterToHalf: '25% – 50%',
  tenToQuarter: '10% – 25%',
  belowTen: 'Less than 10%',
} as const;

/** Which labels each relationship carries and whether it gives control. */
const relationshipShapes: Record<OwnerRelationship, readonly (readonly [string, boolean, number])[]> = {
  parent: [
    [ownershipLabels.whollyOwned, true, 60],
    [ownershipLabels.majority, true, 40],
  ],
  minority_owner: [
    [ownershipLabels.quarterToHalf, false, 40],
    [ownershipLabels.tenToQuarter, false, 35],
    [ownershipLabels.belowTen, false, 25],
  ],
  joint_venture_partner: [
    [ownershipLabels.quarterToHalf, false, 70],
    [ownershipLabels.majority, true, 30],
  ],
  associate: [
    [ownershipLabels.quarterToHalf, false, 70],
    [ownershipLabels.tenToQuarter, false, 30],
  ],
  affiliate: [
    [ownershipLabels.tenToQuarter, false, 40],
    [ownershipLabels.belowTen, false, 60],
  ],
};

const relationships = [
  ['parent', 40],
  ['minority_owner', 25],
  ['joint_venture_partner', 10],
  ['associate', 12],
  ['affiliate', 13],
] as const satisfies readonly (readonly [OwnerRelationship, number])[];

export interface GeneratedOwnership {
  reference: string;
  ownerReference: string;
  ownedReference: string;
  relationship: OwnerRelationship;
  ownershipLabel: string;
  isControllingInterest: boolean;
}

/**
 * Ownership link `index`: each link owns a different organisation (a bijection), so no pair repeats; owners
 * come from the holding companies and funds, some of which are owned themselves. Joint ventures and some
 * parents bring a second, non-controlling owner.
 */
export function ownershipsOf(world: World, index: number): GeneratedOwnership[] {
  const random = Random.for('ownership', index);
  const owned = organisationIdentity(world, scatter(index, world.counts.organisations, 'owned'));
  const relationship = random.weighted(relationships);
  const links: GeneratedOwnership[] = [];
  const owners =
    relationship === 'joint_venture_partner'
      ? 2
      : relationship === 'minority_owner' && random.chance(0.2)
        ? 2
        : 1;
  const taken = new Set([owned.index]);
  for (let i = 0; i < owners; i += 1) {
    const owner = organisationWhere(world, random, (o) => o.isOwner && !taken.has(o.index));
    if (taken.has(owner.index)) continue;
    taken.add(owner.index);
    const [label, controlling] = random.weighted(
      relationshipShapes[relationship].map(([l, c, w]) => [[l, c] as const, w] as const),
    );
    links.push({
      reference: uuidFor('organisation-ownership', index, i),
      ownerReference: owner.reference,
      ownedReference: owned.reference,
      relationship,
      ownershipLabel: label,
      // Of two joint-venture partners only the first can hold control.
      isControllingInterest: controlling && i === 0,
    });
  }
  return links;
}

export function addOrganisationOwnerships(world: World, index: number, batch: RowBatch): void {
  for (const link of ownershipsOf(world, index)) batch.add(organisationOwnershipsTable, link);
}

const ownershipTypes = [
  ['Direct Shareholding', 50],
  ['Beneficial Owner', 25],
  ['Indirect via Trust', 10],
  ['Indirect via Holding Company', 10],
  ['Nominee Shareholding', 5],
] as const;

export const stakeBands = [
  ['75% or more', 10],
  ['50% – 75%', 10],
  ['25% – 50%', 20],
  ['10% – 25%', 25],
  ['Less than 10%', 35],
] as const;

const stakeTitles = [
  'Founder',
  'Director',
  'Chairman',
  'Shareholder',
  'Chief Executive Officer',
  'Non-Executive Director',
  'Partner',
  'Managing Member',
];

/** Writes stake `index`: a business owner's holding, active or ended, in some organisation. */
export function addProfileStake(world: World, index: number, batch: RowBatch): void {
  const random = Random.for('profile-stake', index);
  const owner = profileIdentity(world, poolMember(world, random, 'businessOwner'));
  const organisation = organisationWhere(world, random, () => true);
  const band = random.weighted(stakeBands);
  const majority = band === '75% or more' || band === '50% – 75%';
  const isActive = random.chance(0.78);
  const start = daysBefore(world.now, random.float(200, 7000));
  batch.add(profileStakesTable, {
    reference: uuidFor('profile-stake', index),
    profileReference: owner.reference,
    organisationReference: organisation.reference,
    ownershipType: random.weighted(ownershipTypes),
    ownershipBand: band,
    titleOrStatus: random.chance(0.75) ? random.pick(stakeTitles) : null,
    isControlPerson: majority || (band === '25% – 50%' ? random.chance(0.4) : random.chance(0.05)),
    isActive,
    startDate: random.chance(0.9) ? isoDate(start) : null,
    endDate: isActive
      ? null
      : isoDate(
          daysBefore(
            world.now,
            random.float(1, Math.min(2000, (world.now.getTime() - start.getTime()) / 86_400_000 - 1)),
          ),
        ),
  });
}
