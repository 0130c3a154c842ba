import {
  clientSummariesTable,
  organisationAddressesTable,
  organisationAliasesTable,
  organisationDomainsTable,
  organisationIndustriesTable,
  organisationPhonesTable,
  organisationScoresTable,
  organisationsTable,
  organisationTickersTable,
} from '../src/db/schema/organisations.ts';
import {
  type ClientSummaryEntry,
  type organisationStatuses,
  scoreDimensions,
} from '../src/domain/vocabulary/organisations.ts';
import { gicsTaxonomy } from '../src/reference/gics.ts';
import type { RowBatch } from './bulk-load.ts';
import { daysBefore, isoDate } from './dates.ts';
import { fakerFor, namePool } from './fakers.ts';
import { Random, uuidFor } from './random.ts';
import { type Region, regions, regionWeights, secondaryExchanges } from './regions.ts';
import { asciiSlug, capitalise, latinWord, ordinalRoman, roundAmount } from './text.ts';
import { memoOf, PackedStrings, type World } from './world.ts';

/** The cheap facts about an organisation: enough to choose it for an event or an ownership link. */
export interface OrganisationTraits {
  index: number;
  region: Region;
  isFund: boolean;
  /** False on about a fifth: no events name it and it has no AUM records. */
  hasActivity: boolean;
  hasAum: boolean;
  isListed: boolean;
  /** Holding companies and investors: the organisations that own others. */
  isOwner: boolean;
}

/** What other generators need to know about an organisation without generating all of it. */
export interface OrganisationIdentity extends OrganisationTraits {
  reference: string;
  name: string;
  domain: string;
  /** Fixes the ticker value across the organisation's listing and its offerings. */
  ticker: string;
}

/** Names with LIKE wildcards in them, so substring search must escape `%` and `_`. */
const wildcardNames = [
  '100% Organic Foods Ltd',
  'data_works GmbH',
  '99% Invisible Media Inc.',
  'snake_case Software SARL',
  '20% Cooler Beverages Co.',
  'Net_Zero Energy 100% Renewables plc',
  'file_system Technologies AB',
  '50%+1 Ventures LLC',
  'under_score Labs Ltd',
  '0% Finance S.A.',
];

/** Every 100th organisation (from the 18th) carries one of the wildcard names, so scale 0.1 has both kinds. */
function wildcardName(index: number): string | null {
  if (index % 100 !== 17) return null;
  const round = Math.floor(index / 100);
  const name = wildcardNames[round % wildcardNames.length]!;
  const cycle = Math.floor(round / wildcardNames.length);
  return cycle === 0 ? name : `${name} ${ordinalRoman(Math.min(cycle + 1, 10))}`;
}

const legalSuffixPattern =
  /\b(LLC|Inc\.?|Group|Ltd\.?|Limited|plc|GmbH|AG|SA|SAS|SARL|S\.p\.A\.?|SPA|S\.r\.l\.?|B\.V\.|N\.V\.|AB|Corp\.?|Co\.|Ltda\.?|Bedrijf|Brothers|CC|e\.V\.|KG|OHG)$/i;

const fundFamilies = [
  'Capital',
  'Ventures',
  'Partners',
  'Asset Management',
  'Investments',
  'Equity',
  'Global',
];
const fundKinds = ['Fund', 'Growth Fund', 'Opportunities Fund', 'Income Fund', 'Buyout Fund', 'Venture Fund'];
const fundForms = ['LP', 'L.P.', 'SICAV', 'SCSp', 'Fund Ltd', ''];

function companyName(random: Random, region: Region): string {
  const faker = fakerFor(region.locale, random);
  let name = faker.company.name();
  const hasSuffix =
    legalSuffixPattern.test(name) || region.legalSuffixes.some((suffix) => name.endsWith(suffix));
  if (region.legalSuffixes.length > 0 && !hasSuffix && random.chance(0.6)) {
    name = `${name} ${random.pick(region.legalSuffixes)}`;
  }
  return name;
}

function fundName(random: Random, region: Region): string {
  const cjk = region.familyNameFirst === true;
  const family =
    cjk && random.chance(0.5) ? capitalise(latinWord(random, 2)) : random.pick(namePool(region.locale).last);
  const parts = [family, random.pick(fundFamilies), random.pick(fundKinds)];
  if (random.chance(0.6)) parts.push(ordinalRoman(random.int(1, 8)));
  const form = random.pick(fundForms);
  if (form) parts.push(form);
  return parts.join(' ');
}

function domainFor(random: Random, name: string, region: Region): string {
  const words = name.split(/\s+/).filter((word) => !legalSuffixPattern.test(word));
  let slug = asciiSlug(words.slice(0, 3).join(''));
  if (slug.length < 3) slug = latinWord(random);
  return `${slug.slice(0, 24)}.${region.topLevelDomain}`;
}

function tickerFor(random: Random, name: string, region: Region): string {
  if (region.numericTickers) {
    switch (region.country) {
      case 'CN':
        return `${random.pick(['600', '601', '603', '000', '002', '300'])}${String(random.int(0, 999)).padStart(3, '0')}`;
      case 'KR':
        return String(random.int(1, 99999) * 10).padStart(6, '0');
      case 'HK':
        return String(random.int(1, 9999)).padStart(4, '0');
      default:
        return String(random.int(1301, 9997));
    }
  }
  const letters = asciiSlug(name).replace(/[0-9]/g, '').toUpperCase();
  let ticker = letters.slice(0, random.int(2, 4));
  while (ticker.length < 3) ticker += String.fromCharCode(65 + random.int(0, 25));
  return ticker;
}

/** Drawn from a stream of their own, without faker, so choosing among organisations stays cheap. */
export function organisationTraits(index: number): OrganisationTraits {
  const random = Random.for('organisation-traits', index);
  const region = random.weighted(regionWeights);
  const isFund = random.chance(0.1);
  const hasActivity = random.chance(0.8);
  return {
    index,
    region,
    isFund,
    hasActivity,
    hasAum: hasActivity && random.chance(isFund ? 0.55 : 0.08),
    isListed: !isFund && random.chance(0.12),
    isOwner: random.chance(isFund ? 0.35 : 0.06),
  };
}

function computeIdentity(index: number): OrganisationIdentity {
  const traits = organisationTraits(index);
  const random = Random.for('organisation-identity', index);
  const { region } = traits;
  const name =
    wildcardName(index) ?? (traits.isFund ? fundName(random, region) : companyName(random, region));
  // Written out in the order `OrganisationStore` unpacks, so both give objects of one shape.
  return {
    index,
    region,
    isFund: traits.isFund,
    hasActivity: traits.hasActivity,
    hasAum: traits.hasAum,
    isListed: traits.isListed,
    isOwner: traits.isOwner,
    reference: uuidFor('organisation', index),
    name,
    domain: domainFor(random, name, region),
    ticker: tickerFor(random, name, region),
  };
}

/**
 * Memoised: names come from faker's pattern engine (about 40 µs an organisation), and events, people and articles look
 * them up often. Every organisation's identity is computed once and kept in an `OrganisationStore`.
 */
export function organisationIdentity(world: World, index: number): OrganisationIdentity {
  return memoOf(world, 'organisation', () => new OrganisationStore(world.counts.organisations)).get(index);
}

/**
 * The identities of a world's organisations, kept compactly: the traits in two bytes and the reference, name, domain
 * and ticker as packed UTF-8, about a hundred bytes an organisation for the first four million (scale 2,000). The
 * first `wholeLimit` organisations (every one up to scale 125, and the largest employers, whom a third of roles name)
 * are kept as objects too, so their lookups allocate nothing. A lookup of any other builds a new object, which lives a
 * few microseconds and costs the young generation little; a bounded memo of objects kept each just long enough to be
 * copied into the old generation, and collecting them took much of the scale-1000 seed's time (bench/NOTES.md 51).
 */
export class OrganisationStore {
  static readonly wholeLimit = 250_000;
  static readonly capacityLimit = 4_000_000;

  private readonly strings: PackedStrings;
  /** Per organisation: 0 when not stored yet; else 1, the five flags from bit 1 and the region's position from bit 6. */
  private readonly traits: Uint16Array;
  private readonly whole: (OrganisationIdentity | undefined)[];

  constructor(organisations: number) {
    const capacity = Math.min(organisations, OrganisationStore.capacityLimit);
    this.strings = new PackedStrings(capacity);
    this.traits = new Uint16Array(capacity);
    // Filled, so that the array's elements stay in V8's fast mode whatever order lookups come in.
    this.whole = new Array(Math.min(organisations, OrganisationStore.wholeLimit)).fill(undefined);
  }

  get(index: number): OrganisationIdentity {
    const kept = this.whole[index];
    if (kept) return kept;
    const identity = this.unpack(index) ?? this.keep(computeIdentity(index));
    if (index < OrganisationStore.wholeLimit) this.whole[index] = identity;
    return identity;
  }

  /** Drops the kept objects, so that every lookup reads the packed form (for tests). */
  forgetWhole(): void {
    this.whole.fill(undefined);
  }

  /** How many organisations are kept packed. */
  packedCount(): number {
    return this.traits.reduce((count, bits) => count + (bits === 0 ? 0 : 1), 0);
  }

  private unpack(index: number): OrganisationIdentity | undefined {
    const bits = index < this.traits.length ? this.traits[index]! : 0;
    if (bits === 0) return undefined;
    const [reference = '', name = '', domain = '', ticker = ''] = this.strings.get(index) ?? [];
    return {
      index,
      region: regions[bits >>> 6]!,
      isFund: (bits & 2) !== 0,
      hasActivity: (bits & 4) !== 0,
      hasAum: (bits & 8) !== 0,
      isListed: (bits & 16) !== 0,
      isOwner: (bits & 32) !== 0,
      reference,
      name,
      domain,
      ticker,
    };
  }

  private keep(identity: OrganisationIdentity): OrganisationIdentity {
    const { index } = identity;
    if (index >= this.traits.length) return identity;
    this.strings.set(index, [identity.reference, identity.name, identity.domain, identity.ticker]);
    this.traits[index] =
      1 |
      (identity.isFund ? 2 : 0) |
      (identity.hasActivity ? 4 : 0) |
      (identity.hasAum ? 8 : 0) |
      (identity.isListed ? 16 : 0) |
      (identity.isOwner ? 32 : 0) |
      (regionPositions.get(identity.region)! << 6);
    return identity;
  }
}

const regionPositions = new Map(regions.map((region, position) => [region, position]));

/** A random organisation index, uniform over all organisations. */
export function anyOrganisation(world: World, random: Random): number {
  return random.int(0, world.counts.organisations - 1);
}

/** A random organisation matching `accept`; falls back to the last candidate after many misses (tiny scales). */
export function organisationWhere(
  world: World,
  random: Random,
  accept: (traits: OrganisationTraits) => boolean,
): OrganisationIdentity {
  let candidate = organisationTraits(anyOrganisation(world, random));
  for (let attempt = 0; attempt < 200 && !accept(candidate); attempt += 1) {
    candidate = organisationTraits(anyOrganisation(world, random));
  }
  return organisationIdentity(world, candidate.index);
}

const gicsByLevel = [1, 2, 3, 4].map((level) => gicsTaxonomy.filter((node) => node.level === level));
const fundIndustryCodes = gicsTaxonomy
  .filter((node) => node.level === 4 && node.code.startsWith('4020'))
  .map((node) => node.code);
const industryNames = new Map(gicsTaxonomy.map((node) => [node.code, node.name]));

function industryCode(random: Random): string {
  const level = random.weighted([
    [4, 82],
    [3, 8],
    [2, 5],
    [1, 5],
  ] as const);
  return random.pick(gicsByLevel[level - 1]!).code;
}

const statusWeights = [
  ['active', 70],
  ['merged', 6],
  ['dormant', 8],
  ['dissolved', 8],
  ['unknown', 8],
] as const satisfies readonly (readonly [(typeof organisationStatuses)[number], number])[];

const descriptionLeads = [
  (n: string, i: string, c: string) => `${n} is a ${i} business headquartered in ${c}.`,
  (n: string, i: string, c: string) => `Founded in ${c}, ${n} operates in ${i.toLowerCase()}.`,
  (n: string, i: string, c: string) =>
    `${n} provides ${i.toLowerCase()} services to clients from its base in ${c}.`,
];

const phoneTypes = ['main', 'main', 'main', 'fax', 'mobile', 'support'];
const tickerStatuses = [
  ['active', 95],
  ['suspended', 5],
] as const;

/** Generates organisation `index` with all its child rows (and AUM records) into `batch`. */
export function addOrganisation(world: World, index: number, batch: RowBatch): void {
  const identity = organisationIdentity(world, index);
  const { reference, region, name } = identity;
  const random = Random.for('organisation', index);
  const faker = fakerFor(region.locale, random);
  const status = random.weighted(statusWeights);
  const city = region.fixedCity ?? faker.location.city();

  const industries: string[] = [];
  if (random.chance(0.92)) {
    industries.push(identity.isFund ? random.pick(fundIndustryCodes) : industryCode(random));
    const extra = random.weighted([
      [0, 60],
      [1, 28],
      [2, 12],
    ] as const);
    for (let i = 0; i < extra; i += 1) {
      const code = industryCode(random);
      if (!industries.includes(code)) industries.push(code);
    }
  }
  const primaryIndustryName = industries[0] ? industryNames.get(industries[0])! : 'diversified';

  let employees = 0;
  if (identity.isFund) employees = random.chance(0.7) ? 0 : random.int(2, 80);
  else if (random.chance(0.9)) employees = Math.round(random.logUniform(1, 160_000));
  const relationshipCount = () => (random.chance(0.45) ? 0 : Math.round(random.logUniform(1, 800)));

  batch.add(organisationsTable, {
    reference,
    name,
    description: random.chance(0.78)
      ? `${random.pick(descriptionLeads)(name, primaryIndustryName, `${city}, ${region.countryName}`)} ${fakerFor('en', random).company.catchPhrase()}.`
      : null,
    status,
    verified: random.chance(0.4),
    confidence: random.chance(0.06) ? random.int(0, 4) : 5 + Math.floor(96 * Math.sqrt(random.next())),
    isFund: identity.isFund,
    employees,
    customers: relationshipCount(),
    suppliers: relationshipCount(),
    partners: relationshipCount(),
    serviceProviders: relationshipCount(),
    // Set from the activity index when the seed refreshes it, once every event is loaded.
    hasActivity: false,
  });

  if (random.chance(0.25)) addAliases(random, identity, world.now, batch);
  if (identity.isListed) addTickers(random, identity, status, batch);

  batch.add(organisationDomainsTable, {
    reference: random.uuid(),
    organisationReference: reference,
    domain: identity.domain,
    confidenceScore: Math.round(random.float(0.55, 1) * 100) / 100,
    isValid: random.chance(0.92),
  });
  if (random.chance(0.2)) {
    const [stem] = identity.domain.split('.');
    batch.add(organisationDomainsTable, {
      reference: random.uuid(),
      organisationReference: reference,
      domain: `${stem}${random.pick(['-group', 'hq', '-global', ''])}.${random.pick(['com', 'net', 'io', 'eu'])}`,
      confidenceScore: Math.round(random.float(0.2, 0.9) * 100) / 100,
      isValid: random.chance(0.7),
    });
  }

  const phones = random.weighted([
    [0, 25],
    [1, 55],
    [2, 20],
  ] as const);
  for (let i = 0; i < phones; i += 1) {
    batch.add(organisationPhonesTable, {
      reference: random.uuid(),
      organisationReference: reference,
      number: faker.phone.number({ style: random.chance(0.5) ? 'international' : 'human' }),
      type: i === 0 ? 'main' : random.pick(phoneTypes),
      isValid: random.chance(0.9),
    });
  }

  industries.forEach((code, i) => {
    batch.add(organisationIndustriesTable, {
      organisationReference: reference,
      industryCode: code,
      isPrimary: i === 0,
    });
  });

  if (random.chance(0.95)) {
    batch.add(organisationAddressesTable, {
      organisationReference: reference,
      kind: 'company',
      city,
      state: region.noStates ? null : faker.location.state(),
      country: region.country,
      zipPostalCode: region.country === 'HK' ? null : faker.location.zipCode(),
    });
  }
  if (random.chance(0.4)) {
    const mailingRegion = random.chance(0.8) ? region : random.weighted(regionWeights);
    const mailingFaker = fakerFor(mailingRegion.locale, random);
    batch.add(organisationAddressesTable, {
      organisationReference: reference,
      kind: 'mailing',
      city: mailingRegion.fixedCity ?? mailingFaker.location.city(),
      state: mailingRegion.noStates ? null : mailingFaker.location.state(),
      country: mailingRegion.country,
      zipPostalCode: mailingRegion.country === 'HK' ? null : mailingFaker.location.zipCode(),
    });
  }

  const scoring = random.weighted([
    ['all', 85],
    ['some', 5],
    ['none', 10],
  ] as const);
  if (scoring !== 'none') {
    const dimensions = scoring === 'all' ? scoreDimensions : random.sample(scoreDimensions, random.int(2, 6));
    const base = random.int(15, 85);
    for (const dimension of dimensions) {
      const score = Math.min(100, Math.max(1, base + random.int(-30, 30)));
      batch.add(organisationScoresTable, { organisationReference: reference, dimension, score });
    }
  }

  for (const summary of clientSummariesOf(world, identity)) batch.add(clientSummariesTable, summary);
}

function addAliases(random: Random, identity: OrganisationIdentity, now: Date, batch: RowBatch): void {
  const { region, name, reference } = identity;
  const count = random.chance(0.7) ? 1 : 2;
  for (let i = 0; i < count; i += 1) {
    const kind = random.weighted([
      ['former', 50],
      ['short', 25],
      ['latin', region.familyNameFirst ? 60 : 0],
    ] as const);
    let alias: string;
    let startDate: string | null = null;
    let endDate: string | null = null;
    if (kind === 'former') {
      alias = companyName(random, region);
      const end = daysBefore(now, random.int(200, 5000));
      endDate = isoDate(end);
      if (random.chance(0.7)) startDate = isoDate(daysBefore(end, random.int(700, 7000)));
    } else if (kind === 'short') {
      const initials = name
        .split(/[\s,&-]+/)
        .filter((word) => word.length > 0 && !legalSuffixPattern.test(word))
        .map((word) => word[0]!.toUpperCase())
        .join('');
      alias = initials.length >= 2 ? initials : `${name.split(' ')[0]} Group`;
      if (random.chance(0.6)) startDate = isoDate(daysBefore(now, random.int(365, 6000)));
    } else {
      alias = `${capitalise(latinWord(random))} ${random.pick(['Holdings', 'Group', 'Co., Ltd.', 'Corporation'])}`;
    }
    batch.add(organisationAliasesTable, {
      reference: random.uuid(),
      organisationReference: reference,
      name: alias,
      startDate,
      endDate,
    });
  }
}

function addTickers(random: Random, identity: OrganisationIdentity, status: string, batch: RowBatch): void {
  const { region, reference } = identity;
  const delisted = status === 'dissolved' || status === 'merged';
  const exchange = primaryExchange(identity);
  batch.add(organisationTickersTable, {
    reference: random.uuid(),
    organisationReference: reference,
    value: identity.ticker,
    exchangeName: exchange.name,
    exchangeCode: exchange.code,
    currency: region.currency,
    status: delisted ? 'delisted' : random.weighted(tickerStatuses),
    isPrimaryListing: true,
  });
  if (random.chance(0.2)) {
    const venue = random.pick(
      secondaryExchanges.filter((e) => !region.exchanges.some((x) => x.code === e.code)),
    );
    batch.add(organisationTickersTable, {
      reference: random.uuid(),
      organisationReference: reference,
      value: tickerFor(random, identity.name, { ...region, numericTickers: false }),
      exchangeName: venue.name,
      exchangeCode: venue.code,
      currency: venue.currency,
      status: delisted ? 'delisted' : 'active',
      isPrimaryListing: false,
    });
  }
}

/** The exchange of a listed organisation's primary listing, fixed by its index so offerings agree with it. */
export function primaryExchange(identity: OrganisationTraits): { name: string; code: string } {
  const exchanges = identity.region.exchanges;
  return exchanges[identity.index % exchanges.length]!;
}

const clientTypes = [
  ['individuals', 'Individuals (other than high net worth individuals)'],
  ['high_net_worth_individuals', 'High net worth individuals'],
  ['banking_or_thrift_institutions', 'Banking or thrift institutions'],
  ['investment_companies', 'Investment companies'],
  ['pension_and_profit_sharing_plans', 'Pension and profit sharing plans'],
  ['charitable_organizations', 'Charitable organizations'],
  ['state_or_municipal_entities', 'State or municipal government entities'],
  ['insurance_companies', 'Insurance companies'],
  ['other_investment_advisers', 'Other investment advisers'],
  ['corporations_or_other_businesses', 'Corporations or other businesses'],
  ['pooled_investment_vehicles', 'Pooled investment vehicles (other than investment companies)'],
] as const;

export interface GeneratedClientSummary {
  reference: string;
  organisationReference: string;
  currencyCode: string;
  summaryType: 'client' | 'fund';
  publishDate: Date;
  entries: ClientSummaryEntry[];
}

/** An organisation's yearly AUM records (two to five, newest first); empty when it has none. */
export function clientSummariesOf(world: World, identity: OrganisationIdentity): GeneratedClientSummary[] {
  if (!identity.hasAum) return [];
  const random = Random.for('client-summaries', identity.index);
  const years = random.int(2, 5);
  const summaryType = identity.isFund ? 'fund' : 'client';
  const currencyCode = random.chance(0.7) ? identity.region.currency : 'USD';
  const types = random.sample(clientTypes, summaryType === 'fund' ? random.int(1, 3) : random.int(2, 6));
  const clients = types.map(() => Math.round(random.logUniform(1, 4000)));
  const assets = types.map(() => random.logUniform(2e6, 5e10));
  const latest = daysBefore(world.now, random.float(1, 360));
  const summaries: GeneratedClientSummary[] = [];
  for (let year = 0; year < years; year += 1) {
    const shrink = (1 + random.float(-0.05, 0.25)) ** year;
    summaries.push({
      reference: uuidFor('client-summary', identity.index, year),
      organisationReference: identity.reference,
      currencyCode,
      summaryType,
      // Filed about a year apart; the newest is `latest` itself, so none is dated after the anchor day.
      publishDate: year === 0 ? latest : daysBefore(latest, 365 * year + random.float(-12, 12)),
      entries: types.map(([clientType, label], i) => {
        const count = Math.max(0, Math.round(clients[i]! / shrink) + random.int(-2, 2));
        const fewerThan5 = count < 5;
        return {
          client_type: clientType,
          client_type_label: label,
          number_of_clients: fewerThan5 ? null : count,
          fewer_than_5: fewerThan5,
          regulatory_assets_under_management: random.chance(0.05) ? null : roundAmount(assets[i]! / shrink),
        };
      }),
    });
  }
  return summaries;
}
