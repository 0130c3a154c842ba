import { experiencesTable, profileEmailsTable, profilesTable } from '../src/db/schema/profiles.ts';
import type { RowBatch } from './bulk-load.ts';
import { daysBefore, isoDate } from './dates.ts';
import { namePool } from './fakers.ts';
import { occupationReference, recordTitle } from './occupations.ts';
import { organisationIdentity } from './organisations.ts';
import { Random, scatter, unitFor, uuidFor } from './random.ts';
import { type Region, regionWeights } from './regions.ts';
import { asciiSlug, latinWord, urlSlug } from './text.ts';
import type { World } from './world.ts';

/** One role in a person's career; the newest comes first in `ProfileIdentity.career`. */
export interface Role {
  reference: string;
  /** Organisation index, or null when the employer is not a known organisation. */
  organisation: number | null;
  title: string;
  occupation: number | null;
  executive: boolean;
  startDate: Date | null;
  /** Null on a current role. */
  endDate: Date | null;
}

export interface ProfileIdentity {
  index: number;
  reference: string;
  firstName: string;
  lastName: string;
  fullName: string;
  region: Region;
  career: Role[];
}

/** The kinds of people the profile-type filter finds; each is a few percent of profiles, overlapping a little. */
export const peoplePools = {
  /** Take part in funding rounds. */
  investor: 0.04,
  /** Underwriters and selling shareholders in public offerings. */
  offeringParticipant: 0.03,
  /** Hold stakes in organisations. */
  businessOwner: 0.06,
} as const;

export type PeoplePool = keyof typeof peoplePools;

/** Registered investment advisers and brokers: about 5% of profiles. */
export function isRegisteredAdviser(profile: number): boolean {
  return unitFor('registered-adviser', profile) < 0.05;
}

/** A random member of a pool. Members are scattered over all profiles, so pools overlap only by chance. */
export function poolMember(world: World, random: Random, pool: PeoplePool): number {
  const total = world.counts.profiles;
  const size = Math.max(1, Math.round(total * peoplePools[pool]));
  return scatter(random.int(0, size - 1), total, `pool-${pool}`);
}

const experienceCounts = [
  [0, 5],
  [1, 18],
  [2, 25],
  [3, 23],
  [4, 15],
  [5, 8],
  [6, 6],
] as const;

/** A third of roles are at the largest employers (the first 5% of organisations), so some have many staff. */
function employer(world: World, random: Random): number | null {
  if (random.chance(0.02)) return null;
  const total = world.counts.organisations;
  if (random.chance(0.3)) return random.int(0, Math.max(0, Math.ceil(total * 0.05) - 1));
  return random.int(0, total - 1);
}

function careerOf(world: World, random: Random, profile: number): Role[] {
  const count = random.weighted(experienceCounts);
  if (count === 0) return [];
  const shape = random.weighted([
    ['current', 80],
    ['two-current', 8],
    ['none', 12],
  ] as const);
  const roles: Role[] = [];
  const { now } = world;
  let nextStart: Date | null = null;
  for (let k = 0; k < count; k += 1) {
    let start: Date;
    let end: Date | null;
    if (k === 0) {
      if (shape === 'none') {
        end = daysBefore(now, random.float(1, 700));
        start = daysBefore(end, random.float(150, 2500));
      } else {
        end = null;
        start = daysBefore(now, random.chance(0.55) ? random.float(1, 1095) : random.float(1095, 4500));
      }
    } else if (k === 1 && shape === 'two-current') {
      end = null;
      start = daysBefore(roles[0]!.startDate ?? now, random.float(60, 3000));
    } else {
      end = daysBefore(nextStart!, random.float(0, 120));
      start = daysBefore(end, random.float(200, 2500));
    }
    // Some people stay with their employer from one role to the next (a promotion or a lateral move).
    const previous = roles[k - 1];
    const organisation =
      previous && previous.organisation !== null && random.chance(0.2)
        ? previous.organisation
        : employer(world, random);
    const executive = random.chance(k === 0 ? 0.45 : k === 1 ? 0.3 : 0.15);
    const recorded = recordTitle(random, executive);
    roles.push({
      reference: uuidFor('experience', profile, k),
      organisation,
      title: recorded.title,
      occupation: recorded.occupation,
      executive,
      startDate: random.chance(0.03) ? null : start,
      endDate: end,
    });
    nextStart = start;
  }
  return roles;
}

export function personName(
  random: Random,
  region: Region,
): { firstName: string; lastName: string; fullName: string } {
  const pool = namePool(region.locale);
  const firstName = random.pick(pool.first);
  let lastName = random.pick(pool.last);
  if (pool.doubleSurname > 0 && random.chance(pool.doubleSurname))
    lastName += pool.joiner + random.pick(pool.last);
  if (!region.familyNameFirst) return { firstName, lastName, fullName: `${firstName} ${lastName}` };
  const separator = region.locale === 'ja' ? ' ' : '';
  return { firstName, lastName, fullName: `${lastName}${separator}${firstName}` };
}

function computeIdentity(world: World, index: number): ProfileIdentity {
  const random = Random.for('profile-identity', index);
  const region = random.weighted(regionWeights);
  const names = personName(random, region);
  return {
    index,
    reference: uuidFor('profile', index),
    ...names,
    region,
    career: careerOf(world, random, index),
  };
}

/** Recomputed on each call: lookups are spread over all profiles, so a memo would mostly miss and churn memory. */
export function profileIdentity(world: World, index: number): ProfileIdentity {
  return computeIdentity(world, index);
}

/** The person's latest current role, or null. */
export function currentRole(identity: ProfileIdentity): Role | null {
  return identity.career.find((role) => role.endDate === null) ?? null;
}

const personalMailDomains = ['example.com', 'example.net', 'example.org', 'mail.example.com'];

function emailLocalPart(random: Random, identity: ProfileIdentity): string {
  const first = asciiSlug(identity.firstName) || latinWord(random, 2);
  const last = asciiSlug(identity.lastName) || latinWord(random, 2);
  return random.pick([`${first}.${last}`, `${first[0]}${last}`, `${first}${last}`, `${first}_${last}`]);
}

/** Generates profile `index` with its emails and experiences into `batch`. */
export function addProfile(world: World, index: number, batch: RowBatch): void {
  const identity = profileIdentity(world, index);
  const random = Random.for('profile', index);
  const handle =
    urlSlug(`${asciiSlug(identity.firstName)} ${asciiSlug(identity.lastName)}`) || latinWord(random);
  batch.add(profilesTable, {
    reference: identity.reference,
    firstName: identity.firstName,
    lastName: identity.lastName,
    fullName: identity.fullName,
    linkedinUrl: random.chance(0.6)
      ? `https://www.linkedin.com/in/${handle}-${random.uint32().toString(16).slice(0, 6)}`
      : null,
    confidenceScore: random.chance(0.85) ? Math.round(Math.sqrt(random.next()) * 100) / 100 : null,
    isRegisteredAdviser: isRegisteredAdviser(index),
  });

  const current = currentRole(identity);
  const emails = random.weighted([
    [0, 25],
    [1, 55],
    [2, 20],
  ] as const);
  for (let i = 0; i < emails; i += 1) {
    const work = i === 0 && current?.organisation != null;
    const domain = work
      ? organisationIdentity(world, current!.organisation!).domain
      : random.pick(personalMailDomains);
    batch.add(profileEmailsTable, {
      reference: random.uuid(),
      profileReference: identity.reference,
      value: `${emailLocalPart(random, identity)}@${domain}`,
      domain,
      confidenceScore: Math.round(random.float(0.3, 1) * 100) / 100,
      isValid: random.chance(0.88),
    });
  }

  for (const role of identity.career) {
    batch.add(experiencesTable, {
      reference: role.reference,
      profileReference: identity.reference,
      organisationReference:
        role.organisation === null ? null : organisationIdentity(world, role.organisation).reference,
      occupationTitle: role.title,
      occupationReference: role.occupation === null ? null : occupationReference(role.occupation),
      startDate: role.startDate ? isoDate(role.startDate) : null,
      endDate: role.endDate ? isoDate(role.endDate) : null,
    });
  }
}
