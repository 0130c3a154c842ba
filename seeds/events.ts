import { eventParticipantsTable, eventsTable } from '../src/db/schema/events.ts';
import type { Compensation, EventDetails } from '../src/domain/vocabulary/events.ts';
import type { RowBatch } from './bulk-load.ts';
import { addDays, daysBefore, daysBetween, earliest, isoDate, shortlyAfter } from './dates.ts';
import { occupationReference } from './occupations.ts';
import {
  clientSummariesOf,
  type OrganisationIdentity,
  organisationIdentity,
  organisationWhere,
  primaryExchange,
} from './organisations.ts';
import { type ProfileIdentity, poolMember, profileIdentity, type Role } from './people.ts';
import { Random, uuidFor } from './random.ts';
import { formatMoney, formatPrice, roundAmount, usdPerUnit } from './text.ts';
import type { World } from './world.ts';

/** Events are published over the three years before the anchor day. */
export const eventWindowDays = 1095;

/** A publish date in the event window; a few percent fall in the last seven days so "this week" has data. */
export function recentPublishDate(world: World, random: Random, minDaysAgo = 0): Date {
  const daysAgo =
    random.chance(0.04) && minDaysAgo < 7
      ? random.float(minDaysAgo, 7)
      : random.float(minDaysAgo, eventWindowDays);
  return daysBefore(world.now, daysAgo);
}

export type MoveType = 'Appointment' | 'Departure' | 'Promotion' | 'Lateral Move' | 'Retirement';

/** A move event derived from a person's career: the start or the end of a role. */
export interface GeneratedMove {
  reference: string;
  moveType: MoveType;
  role: Role;
  organisation: OrganisationIdentity;
  effectiveDate: Date;
  publishDate: Date;
  summary: string;
}

function inWindow(world: World, date: Date | null): date is Date {
  if (!date) return false;
  const age = daysBetween(date, world.now);
  return age >= 0 && age <= eventWindowDays;
}

function moveSummary(random: Random, move: Omit<GeneratedMove, 'summary'>, person: ProfileIdentity): string {
  const who = person.fullName;
  const org = move.organisation.name;
  const title = move.role.title;
  switch (move.moveType) {
    case 'Appointment':
      return random.pick([
        `${who} appointed ${title} at ${org}`,
        `${org} appoints ${who} as ${title}`,
        `${who} joins ${org} as ${title}`,
      ]);
    case 'Promotion':
      return `${who} promoted to ${title} at ${org}`;
    case 'Lateral Move':
      return `${who} moves to the role of ${title} at ${org}`;
    case 'Retirement':
      return `${who} retires as ${title} of ${org}`;
    case 'Departure': {
      const years = move.role.startDate
        ? Math.round(daysBetween(move.role.startDate, move.effectiveDate) / 365)
        : 0;
      return years >= 2
        ? `${who} leaves ${org} after ${years} years as ${title}`
        : random.pick([`${who} steps down as ${title} of ${org}`, `${who} departs ${org}`]);
    }
  }
}

/** The person's move events, oldest first: appointments, promotions and departures within the event window. */
export function movesOf(world: World, person: ProfileIdentity): GeneratedMove[] {
  const random = Random.for('moves', person.index);
  const moves: GeneratedMove[] = [];
  const { career } = person;
  for (let k = career.length - 1; k >= 0; k -= 1) {
    const role = career[k]!;
    if (role.organisation === null) continue;
    const organisation = organisationIdentity(world, role.organisation);
    if (!organisation.hasActivity) continue;
    const earlier = career[k + 1];
    const later = career[k - 1];
    // A few role changes went unreported.
    const emitStart = random.chance(0.95);
    const emitEnd = random.chance(0.95);
    if (emitStart && inWindow(world, role.startDate)) {
      let moveType: MoveType = 'Appointment';
      if (earlier?.organisation === role.organisation) {
        moveType =
          role.executive && !earlier.executive ? 'Promotion' : random.pick(['Promotion', 'Lateral Move']);
      } else if (earlier && earlier.executive === role.executive && random.chance(0.08)) {
        moveType = 'Lateral Move';
      }
      moves.push(withSummary(random, person, role, organisation, moveType, role.startDate, 2 * k));
    }
    if (emitEnd && inWindow(world, role.endDate) && later?.organisation !== role.organisation) {
      const moveType: MoveType = !later && role.executive && random.chance(0.3) ? 'Retirement' : 'Departure';
      moves.push(withSummary(random, person, role, organisation, moveType, role.endDate, 2 * k + 1));
    }
  }
  return moves;

  function withSummary(
    random: Random,
    person: ProfileIdentity,
    role: Role,
    organisation: OrganisationIdentity,
    moveType: MoveType,
    effectiveDate: Date,
    slot: number,
  ): GeneratedMove {
    const publishDate = shortlyAfter(world.now, random, daysBefore(effectiveDate, random.float(0, 20)), 25);
    const move = {
      reference: uuidFor('move', person.index, slot),
      moveType,
      role,
      organisation,
      effectiveDate,
      publishDate,
    };
    return { ...move, summary: moveSummary(random, move, person) };
  }
}

function compensationsFor(random: Random, currency: string): Compensation[] {
  const base = roundAmount(random.logUniform(150_000, 1_500_000) / (usdPerUnit[currency] ?? 1));
  const items: Compensation[] = [
    { type: 'Base Salary', value: base, value_type: currency, value_suffix: 'per annum' },
  ];
  const extras: Compensation[] = [
    {
      type: 'Annual Bonus',
      value: random.int(5, 20) * 10,
      value_type: 'percent',
      value_suffix: 'of base salary',
    },
    {
      type: 'Long-Term Incentive',
      value: random.int(10, 40) * 10,
      value_type: 'percent',
      value_suffix: 'of base salary',
    },
    {
      type: 'Sign-on Bonus',
      value: roundAmount(base * random.float(0.2, 1)),
      value_type: currency,
      value_suffix: null,
    },
    { type: 'Stock Options', value: random.int(1, 50) * 10_000, value_type: 'shares', value_suffix: null },
  ];
  items.push(...random.sample(extras, random.int(1, 3)));
  return items;
}

/** Writes the move events of profile `index`. */
export function addMoves(world: World, index: number, batch: RowBatch): void {
  const person = profileIdentity(world, index);
  const random = Random.for('move-details', index);
  for (const move of movesOf(world, person)) {
    const details: EventDetails = {};
    const joining = move.moveType === 'Appointment' || move.moveType === 'Promotion';
    if (joining && move.role.executive && random.chance(0.35)) {
      details.compensations = compensationsFor(random, move.organisation.region.currency);
    }
    batch.add(eventsTable, {
      reference: move.reference,
      type: 'move',
      summary: move.summary,
      publishDate: move.publishDate,
      organisationReference: move.organisation.reference,
      profileReference: person.reference,
      occupationReference: move.role.occupation === null ? null : occupationReference(move.role.occupation),
      moveType: move.moveType,
      effectiveDate: move.effectiveDate,
      acquirerReference: null,
      acquireeReference: null,
      dealType: null,
      dealStatus: null,
      clientSummaryReference: null,
      details,
    });
  }
}

const fundingRounds = [
  ['Pre-Seed', 8, 1e5, 2e6],
  ['Seed', 18, 5e5, 5e6],
  ['Series A', 20, 3e6, 3e7],
  ['Series B', 14, 1e7, 8e7],
  ['Series C', 9, 3e7, 2e8],
  ['Series D', 5, 5e7, 4e8],
  ['Series E', 2, 1e8, 6e8],
  ['Growth', 6, 5e7, 1e9],
  ['Bridge', 5, 1e6, 3e7],
  ['Debt Financing', 7, 5e6, 5e8],
  ['Private Equity', 6, 2e7, 2e9],
] as const;

function participantsFrom(
  world: World,
  random: Random,
  pool: 'investor' | 'offeringParticipant',
  count: number,
): number[] {
  const chosen: number[] = [];
  for (let i = 0; i < count * 3 && chosen.length < count; i += 1) {
    const profile = poolMember(world, random, pool);
    if (!chosen.includes(profile)) chosen.push(profile);
  }
  return chosen;
}

function participant(world: World, eventReference: string, profile: number, role: string) {
  return { eventReference, profileReference: profileIdentity(world, profile).reference, role };
}

const noLinks = {
  profileReference: null,
  occupationReference: null,
  moveType: null,
  effectiveDate: null,
  acquirerReference: null,
  acquireeReference: null,
  dealType: null,
  dealStatus: null,
  clientSummaryReference: null,
} as const;

/** Writes funding round `index` and its participants. */
export function addFunding(world: World, index: number, batch: RowBatch): void {
  const random = Random.for('funding', index);
  const organisation = organisationWhere(world, random, (o) => o.hasActivity && !o.isFund);
  const [round, , min, max] = random.weighted(fundingRounds.map((r) => [r, r[1]] as const));
  const currency = random.chance(0.6) ? organisation.region.currency : 'USD';
  const value = roundAmount(random.logUniform(min, max) / (usdPerUnit[currency] ?? 1));
  const reference = uuidFor('funding', index);
  const investors = random.chance(0.85) ? participantsFrom(world, random, 'investor', random.int(1, 4)) : [];
  const lead = investors[0] === undefined ? null : profileIdentity(world, investors[0]);
  const money = formatMoney(value, currency);
  batch.add(eventsTable, {
    ...noLinks,
    reference,
    type: 'funding',
    summary: lead
      ? `${organisation.name} raised ${money} in a ${round} round led by ${lead.fullName}`
      : `${organisation.name} closed a ${money} ${round} round`,
    publishDate: recentPublishDate(world, random),
    organisationReference: organisation.reference,
    details: { round, value, currency_code: currency },
  });
  investors.forEach((profile, i) => {
    batch.add(
      eventParticipantsTable,
      participant(world, reference, profile, i === 0 ? 'lead investor' : 'investor'),
    );
  });
}

const dealTypes = [
  ['Acquisition', 45],
  ['Merger', 12],
  ['Asset Purchase', 13],
  ['Minority Stake', 15],
  ['Majority Stake', 8],
  ['Management Buyout', 4],
  ['Joint Venture', 3],
] as const;

const dealStatuses = [
  ['Completed', 45],
  ['Announced', 25],
  ['Pending', 20],
  ['Withdrawn', 10],
] as const;

const dealTerms = [
  'All-cash transaction',
  'Cash and shares',
  'All-share exchange',
  'Cash plus an earn-out of up to 20% of the consideration',
  'Subject to regulatory approval',
];

function dealSummary(
  type: string,
  status: string,
  acquirer: string,
  acquiree: string,
  money: string | null,
): string {
  const verbs: Record<string, string> = {
    Completed: 'completed',
    Announced: 'announced',
    Pending: 'awaits approval for',
    Withdrawn: 'withdrew from',
  };
  const objects: Record<string, string> = {
    Acquisition: `the acquisition of ${acquiree}`,
    Merger: `its merger with ${acquiree}`,
    'Asset Purchase': `the purchase of assets from ${acquiree}`,
    'Minority Stake': `a minority investment in ${acquiree}`,
    'Majority Stake': `the purchase of a majority stake in ${acquiree}`,
    'Management Buyout': `the management buyout of ${acquiree}`,
    'Joint Venture': `a joint venture with ${acquiree}`,
  };
  const value = money
    ? type === 'Merger' || type === 'Joint Venture'
      ? ` valued at ${money}`
      : ` for ${money}`
    : '';
  return `${acquirer} ${verbs[status]} ${objects[type]}${value}`;
}

/** Writes deal `index`: the acquirer is the event's organisation. */
export function addDeal(world: World, index: number, batch: RowBatch): void {
  const random = Random.for('deal', index);
  const acquirer = organisationWhere(
    world,
    random,
    (o) => o.hasActivity && (o.isOwner || random.chance(0.5)),
  );
  const acquiree = organisationWhere(world, random, (o) => o.hasActivity && o.index !== acquirer.index);
  const type = random.weighted(dealTypes);
  const status = random.weighted(dealStatuses);
  const publishDate = recentPublishDate(world, random, status === 'Completed' ? 25 : 0);
  const currency = random.chance(0.7) ? acquirer.region.currency : 'USD';
  const value = random.chance(0.8)
    ? roundAmount(random.logUniform(1e6, 2e10) / (usdPerUnit[currency] ?? 1))
    : null;
  const completion =
    status === 'Completed'
      ? earliest(addDays(publishDate, random.float(20, 250)), daysBefore(world.now, random.float(0, 3)))
      : null;
  batch.add(eventsTable, {
    ...noLinks,
    reference: uuidFor('deal', index),
    type: 'deal',
    summary: dealSummary(
      type,
      status,
      acquirer.name,
      acquiree.name,
      value ? formatMoney(value, currency) : null,
    ),
    publishDate,
    organisationReference: acquirer.reference,
    acquirerReference: acquirer.reference,
    acquireeReference: acquiree.reference,
    dealType: type,
    dealStatus: status,
    details: {
      deal: {
        type,
        status,
        value,
        value_usd: value === null ? null : Math.round(value * (usdPerUnit[currency] ?? 1)),
        announcement_date: isoDate(publishDate),
        completion_date: completion ? isoDate(completion) : null,
        terms: random.chance(0.75) ? random.pick(dealTerms) : null,
      },
    },
  });
}

const offeringRoles = ['bookrunner', 'underwriter', 'selling shareholder'];

/** Writes public offering `index` (on a listed organisation's primary exchange) and its participants. */
export function addPublicOffering(world: World, index: number, batch: RowBatch): void {
  const random = Random.for('public-offering', index);
  const organisation = organisationWhere(world, random, (o) => o.hasActivity && o.isListed);
  const exchange = primaryExchange(organisation);
  const currency = organisation.region.currency;
  const pricePerShare = Math.round((random.logUniform(4, 90) / (usdPerUnit[currency] ?? 1)) * 100) / 100;
  const shares = random.int(10, 800) * 100_000;
  const reference = uuidFor('public-offering', index);
  const initial = random.chance(0.6);
  const participants = random.chance(0.8)
    ? participantsFrom(world, random, 'offeringParticipant', random.int(1, 3))
    : [];
  batch.add(eventsTable, {
    ...noLinks,
    reference,
    type: 'public_offering',
    summary: `${organisation.name} priced its ${initial ? 'initial public offering' : 'follow-on offering'} of ${(
      shares / 1e6
    ).toFixed(1)}M shares on ${exchange.name} at ${formatPrice(pricePerShare, currency)} per share`,
    publishDate: recentPublishDate(world, random),
    organisationReference: organisation.reference,
    details: {
      offering: {
        exchange: exchange.name,
        ticker: organisation.ticker,
        price: random.chance(0.9) ? pricePerShare : null,
        shares_offered: random.chance(0.9) ? shares : null,
        currency_code: currency,
      },
    },
  });
  participants.forEach((profile, i) => {
    batch.add(
      eventParticipantsTable,
      participant(world, reference, profile, i === 0 ? 'bookrunner' : random.pick(offeringRoles)),
    );
  });
}

/** Writes one `client_summary` event per AUM record of organisation `index`, sharing the record's date. */
export function addClientSummaryEvents(world: World, index: number, batch: RowBatch): void {
  const organisation = organisationIdentity(world, index);
  clientSummariesOf(world, organisation).forEach((summary, year) => {
    const assets = summary.entries.reduce((sum, e) => sum + (e.regulatory_assets_under_management ?? 0), 0);
    const clients = summary.entries.reduce((sum, e) => sum + (e.number_of_clients ?? 0), 0);
    const money = formatMoney(assets, summary.currencyCode);
    batch.add(eventsTable, {
      ...noLinks,
      reference: uuidFor('client-summary-event', index, year),
      type: 'client_summary',
      summary:
        summary.summaryType === 'fund'
          ? `${organisation.name} reported ${money} in fund assets under management`
          : `${organisation.name} reported ${money} in regulatory assets under management across ${clients} clients`,
      publishDate: summary.publishDate,
      organisationReference: organisation.reference,
      clientSummaryReference: summary.reference,
      details: {},
    });
  });
}
