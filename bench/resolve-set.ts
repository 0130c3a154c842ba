import { Random } from '../seeds/random.ts';
import type { OrganisationInput, ProfileInput } from '../src/domain/resolve/types.ts';

/**
 * A labelled set for the resolver: inputs made from records the way real lists write them, each with the reference
 * it should resolve to, or null for inputs that have no record. Everything is drawn from a seeded PRNG, so a seed
 * names one set for good.
 */

/** What the generator reads of an organisation. */
export interface OrganisationSample {
  reference: string;
  name: string;
  country: string | null;
  city: string | null;
  domains: string[];
  tickers: { value: string; exchangeCode: string }[];
  /** Other names, with whether the organisation has left them. */
  aliases: { name: string; former: boolean }[];
}

export interface ProfileSample {
  reference: string;
  firstName: string;
  lastName: string;
  fullName: string;
  linkedinUrl: string | null;
  emails: string[];
  organisation: string | null;
  title: string | null;
}

export interface Labelled<Input> {
  input: Input;
  /** The record the input is, or null when it has none. */
  expected: string | null;
  perturbation: string;
  /** The record's name (or alias) the input's name was written from, when it has one. */
  from?: string;
}

const legalForms = [
  'Inc',
  'Inc.',
  'Ltd',
  'Ltd.',
  'LLC',
  'GmbH',
  'S.A.',
  'SA',
  'AG',
  'Limited',
  'Corp.',
  'plc',
  'B.V.',
];
const legalPattern =
  /[\s,]+(Inc\.?|Ltd\.?|LLC|GmbH|S\.A\.|SA|AG|Limited|Corp\.?|plc|B\.V\.|N\.V\.|SARL|SAS|S\.p\.A\.|S\.r\.l\.|AB|Co\.|Pty Ltd|Pte\. Ltd\.|KG|OHG|SE)$/i;
const countries = [
  'US',
  'GB',
  'DE',
  'FR',
  'JP',
  'CN',
  'IN',
  'BR',
  'CA',
  'AU',
  'ES',
  'IT',
  'NL',
  'SE',
  'CH',
  'KR',
];

/** One edit inside a word of four letters or more: a swap, a deletion, a doubled or a replaced letter. */
export function typo(random: Random, text: string): string {
  const words = [...text.matchAll(/\p{L}{4,}/gu)];
  if (words.length === 0) return text;
  const word = random.pick(words);
  const start = word.index! + 1 + random.int(0, word[0].length - 3);
  const chars = [...text];
  switch (random.int(0, 3)) {
    case 0:
      [chars[start], chars[start + 1]] = [chars[start + 1]!, chars[start]!];
      break;
    case 1:
      chars.splice(start, 1);
      break;
    case 2:
      chars.splice(start, 0, chars[start]!);
      break;
    default:
      chars[start] = random.pick([...'aeiourstnl'].filter((c) => c !== chars[start]));
  }
  return chars.join('');
}

const stripAccents = (text: string) => text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');

function withoutLegalForm(name: string): string {
  return name.replace(legalPattern, '').trim() || name;
}

/** The organisation's name as a list would write it, by one of the ways names drift. */
function nameVariant(
  random: Random,
  sample: OrganisationSample,
): { name: string; how: string; from: string } {
  return { from: sample.name, ...drift(random, sample) };
}

function drift(random: Random, sample: OrganisationSample): { name: string; how: string; from?: string } {
  const { name } = sample;
  switch (random.int(0, 6)) {
    case 0:
      return { name, how: 'exact' };
    case 1:
      return { name: typo(random, name), how: 'typo' };
    case 2: {
      const bare = withoutLegalForm(name);
      return random.chance(0.5)
        ? { name: bare, how: 'legal form dropped' }
        : { name: `${bare} ${random.pick(legalForms)}`, how: 'legal form changed' };
    }
    case 3: {
      const words = withoutLegalForm(name)
        .split(/\s*[\s,-]\s*/)
        .filter(Boolean);
      if (words.length < 2) return { name: name.toUpperCase(), how: 'case' };
      return { name: [...words.slice(1), words[0]].join(' '), how: 'word order' };
    }
    case 4:
      return name.includes('&')
        ? { name: name.replace(/&/g, 'and'), how: '& as and' }
        : name.includes(' and ')
          ? { name: name.replace(/ and /g, ' & '), how: 'and as &' }
          : { name: name.toLowerCase(), how: 'case' };
    case 5:
      return {
        name: random.chance(0.5) ? stripAccents(name).toUpperCase() : stripAccents(name).toLowerCase(),
        how: 'accents and case',
      };
    default: {
      if (sample.aliases.length === 0) return { name: typo(random, name), how: 'typo' };
      const alias = random.pick(sample.aliases);
      return { name: alias.name, how: alias.former ? 'former name' : 'alias', from: alias.name };
    }
  }
}

function website(random: Random, domain: string): string {
  return random.pick([
    `https://www.${domain}/`,
    `http://${domain}`,
    `www.${domain}`,
    `https://${domain}/about-us`,
    domain.toUpperCase(),
    `info@${domain}`,
  ]);
}

/** An input for a record: one drift of its name or one other way in, with or without a country. */
export function organisationInput(random: Random, sample: OrganisationSample): Labelled<OrganisationInput> {
  const kind = random.weighted([
    ['name', 6],
    ['website', 1.5],
    ['name and website', 1],
    ['ticker', sample.tickers.length > 0 ? 0.7 : 0],
    ['wrong country', sample.country ? 0.8 : 0],
  ] as const);
  const country = sample.country && random.chance(0.5) ? sample.country : undefined;
  const city = sample.city && random.chance(0.15) ? sample.city : undefined;
  const domain = sample.domains.length > 0 ? random.pick(sample.domains) : null;
  if ((kind === 'website' || kind === 'name and website') && domain) {
    const variant = nameVariant(random, sample);
    return {
      input:
        kind === 'website'
          ? { website: website(random, domain) }
          : { name: variant.name, website: website(random, domain), country },
      expected: sample.reference,
      perturbation: kind === 'website' ? 'website only' : `website and name (${variant.how})`,
      from: kind === 'website' ? undefined : variant.from,
    };
  }
  if (kind === 'ticker') {
    const ticker = random.pick(sample.tickers);
    const written = random.pick([
      ticker.value,
      `${ticker.exchangeCode}:${ticker.value}`,
      ticker.value.toLowerCase(),
    ]);
    return {
      input: {
        ticker: written,
        name: random.chance(0.5) ? withoutLegalForm(sample.name) : undefined,
        country,
      },
      expected: sample.reference,
      perturbation: 'ticker',
      from: sample.name,
    };
  }
  const variant = nameVariant(random, sample);
  if (kind === 'wrong country') {
    const wrong = random.pick(countries.filter((code) => code !== sample.country));
    return {
      input: { name: variant.name, country: wrong },
      expected: sample.reference,
      perturbation: `wrong country (${variant.how})`,
      from: variant.from,
    };
  }
  return {
    input: { name: variant.name, country, city },
    expected: sample.reference,
    perturbation: variant.how,
    from: variant.from,
  };
}

/**
 * An input with no record: the first word of one organisation's name and the rest of another's, with a domain no
 * record has now and then. `taken` holds the keys of every name and alias, so that a made-up name that happens to
 * exist is drawn again.
 */
export function missingOrganisationInput(
  random: Random,
  samples: OrganisationSample[],
  taken: (name: string) => boolean,
): Labelled<OrganisationInput> {
  for (let attempt = 0; attempt < 20; attempt += 1) {
    const first = withoutLegalForm(random.pick(samples).name).split(/[\s,-]+/)[0]!;
    const rest = random
      .pick(samples)
      .name.split(/[\s,-]+/)
      .slice(1)
      .join(' ');
    const name = `${first} ${rest || random.pick(legalForms)}`.trim();
    if (taken(name)) continue;
    const input: OrganisationInput = { name };
    if (random.chance(0.3)) input.country = random.pick(countries);
    if (random.chance(0.2))
      input.website = `https://www.${first.toLowerCase().replace(/[^a-z]/g, '')}-${random.int(100, 999)}.example`;
    return { input, expected: null, perturbation: 'no record' };
  }
  return {
    input: { name: `Qz${random.int(1000, 9999)} Holdings` },
    expected: null,
    perturbation: 'no record',
  };
}

function linkedinVariant(random: Random, url: string): string {
  const handle = url.split('/in/')[1] ?? url;
  return random.pick([
    url,
    `http://linkedin.com/in/${handle}/`,
    `https://uk.linkedin.com/in/${handle}?trk=list`,
    `linkedin.com/in/${handle.toUpperCase()}`,
    `https://www.linkedin.com/in/${handle}/`,
  ]);
}

export function profileInput(random: Random, sample: ProfileSample): Labelled<ProfileInput> {
  const organisation = sample.organisation && random.chance(0.6) ? sample.organisation : undefined;
  const kind = random.weighted([
    ['name', 5],
    ['linkedin', sample.linkedinUrl ? 2 : 0],
    ['email', sample.emails.length > 0 ? 2 : 0],
    ['first and last', 1],
  ] as const);
  if (kind === 'linkedin')
    return {
      input: { linkedinUrl: linkedinVariant(random, sample.linkedinUrl!) },
      expected: sample.reference,
      perturbation: 'LinkedIn URL',
    };
  if (kind === 'email') {
    const email = random.pick(sample.emails);
    return {
      input: {
        email: random.chance(0.5) ? email.toUpperCase() : email,
        name: random.chance(0.5) ? sample.fullName : undefined,
      },
      expected: sample.reference,
      perturbation: 'e-mail',
      from: sample.fullName,
    };
  }
  if (kind === 'first and last')
    return {
      input: { firstName: sample.firstName, lastName: sample.lastName, organisation },
      expected: sample.reference,
      perturbation: 'first and last name',
      from: sample.fullName,
    };
  const drift = random.int(0, 3);
  const name =
    drift === 0
      ? sample.fullName
      : drift === 1
        ? typo(random, sample.fullName)
        : drift === 2
          ? `${sample.lastName}, ${sample.firstName}`
          : stripAccents(sample.fullName).toUpperCase();
  return {
    input: { name, organisation, title: sample.title && random.chance(0.3) ? sample.title : undefined },
    expected: sample.reference,
    perturbation: ['exact name', 'typo', 'last, first', 'accents and case'][drift]!,
    from: sample.fullName,
  };
}

export function missingProfileInput(
  random: Random,
  samples: ProfileSample[],
  taken: (name: string) => boolean,
): Labelled<ProfileInput> {
  for (let attempt = 0; attempt < 20; attempt += 1) {
    const name = `${random.pick(samples).firstName} ${random.pick(samples).lastName}`;
    if (taken(name)) continue;
    const input: ProfileInput = { name };
    if (random.chance(0.3))
      input.email = `${name.toLowerCase().replace(/[^a-z]+/g, '.')}@nowhere-${random.int(100, 999)}.example`;
    return { input, expected: null, perturbation: 'no record' };
  }
  return { input: { name: `Qz${random.int(1000, 9999)} Nobody` }, expected: null, perturbation: 'no record' };
}

/** The set for one seed: `size` inputs, `missingShare` of them without a record, in a shuffled order. */
export function labelledSet<Sample, Input>(
  seed: number,
  samples: Sample[],
  size: number,
  missingShare: number,
  make: (random: Random, sample: Sample) => Labelled<Input>,
  missing: (random: Random) => Labelled<Input>,
): Labelled<Input>[] {
  const random = Random.for('resolve-set', seed);
  const set: Labelled<Input>[] = [];
  for (let index = 0; index < size; index += 1) {
    set.push(random.chance(missingShare) ? missing(random) : make(random, samples[index % samples.length]!));
  }
  return set;
}
