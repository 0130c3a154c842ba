import { resolveCountry } from '../organisations/country.ts';
import {
  hostOf,
  linkedinHandle,
  matchWords,
  organisationKey,
  parseTicker,
  personKey,
  sameExchange,
  sameWords,
  type TickerInput,
  wordSimilarity,
} from './normalise.ts';
import type { MatchedOn, MatchHow, OrganisationInput, ProfileInput, ResolveField } from './types.ts';

/** What the matcher reads of an organisation to compare it with an input. */
export interface OrganisationDetails {
  reference: string;
  name: string;
  aliases: { name: string; endDate: string | null }[];
  domains: string[];
  tickers: { value: string; exchangeCode: string; exchangeName: string }[];
  country: string | null;
  city: string | null;
}

/** What the matcher reads of a person: names, handle, e-mails and roles (current first). */
export interface ProfileDetails {
  reference: string;
  fullName: string;
  firstName: string;
  lastName: string;
  linkedinUrl: string | null;
  emails: string[];
  roles: {
    organisationReference: string | null;
    organisationName: string | null;
    title: string;
    current: boolean;
  }[];
}

/** An input's fields read once: the text as given and the form it is compared in. */
export interface OrganisationQuery {
  name: { input: string; key: string } | null;
  host: { input: string; field: 'domain' | 'website'; host: string | null } | null;
  ticker: { input: string; ticker: TickerInput | null } | null;
  country: { input: string; code: string | null } | null;
  city: { input: string; key: string } | null;
}

export interface ProfileQuery {
  name: { input: string; field: 'name' | 'firstName' | 'lastName'; key: string } | null;
  linkedin: { input: string; handle: string | null } | null;
  email: { input: string; value: string; host: string | null } | null;
  organisation: { input: string; reference: string | null; key: string } | null;
  title: { input: string; key: string } | null;
}

const present = (value: string | null | undefined): value is string =>
  typeof value === 'string' && value.trim() !== '';

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function countryCode(text: string): string | null {
  try {
    return resolveCountry(text);
  } catch {
    return null;
  }
}

export function readOrganisationInput(input: OrganisationInput): OrganisationQuery {
  const hostField = present(input.domain) ? 'domain' : present(input.website) ? 'website' : null;
  const hostText = hostField ? input[hostField]!.trim() : null;
  return {
    name: present(input.name) ? { input: input.name.trim(), key: organisationKey(input.name) } : null,
    host: hostField && hostText ? { input: hostText, field: hostField, host: hostOf(hostText) } : null,
    ticker: present(input.ticker) ? { input: input.ticker.trim(), ticker: parseTicker(input.ticker) } : null,
    country: present(input.country)
      ? { input: input.country.trim(), code: countryCode(input.country) }
      : null,
    city: present(input.city) ? { input: input.city.trim(), key: matchWords(input.city).join(' ') } : null,
  };
}

export function readProfileInput(input: ProfileInput): ProfileQuery {
  const joined = [input.firstName, input.lastName].filter(present).join(' ');
  const name = present(input.name)
    ? { input: input.name.trim(), field: 'name' as const, key: personKey(input.name) }
    : joined !== ''
      ? {
          input: joined,
          field: present(input.firstName) ? ('firstName' as const) : ('lastName' as const),
          key: personKey(joined),
        }
      : null;
  const organisation = present(input.organisation) ? input.organisation.trim() : null;
  return {
    name,
    linkedin: present(input.linkedinUrl)
      ? { input: input.linkedinUrl.trim(), handle: linkedinHandle(input.linkedinUrl) }
      : null,
    email: present(input.email)
      ? { input: input.email.trim(), value: input.email.trim().toLowerCase(), host: hostOf(input.email) }
      : null,
    organisation: organisation
      ? {
          input: organisation,
          reference: uuidPattern.test(organisation) ? organisation.toLowerCase() : null,
          key: organisationKey(organisation),
        }
      : null,
    title: present(input.title)
      ? { input: input.title.trim(), key: matchWords(input.title).join(' ') }
      : null,
  };
}

/** True when the query has nothing to look up with. */
export function isEmptyOrganisationQuery(query: OrganisationQuery): boolean {
  return !query.name && !query.host && !query.ticker;
}

export function isEmptyProfileQuery(query: ProfileQuery): boolean {
  return !query.name && !query.linkedin && !query.email;
}

/**
 * The weights of evidence, in log-odds: each compared field adds its weight to a candidate, and the candidates'
 * totals against `none` (the odds that the input's record is none of them) give each its score. Fitted on one
 * labelled set and checked on others (bench/resolve.ts, bench/NOTES.md 67).
 */
export const weights = {
  none: 2,
  name: {
    exact: 6,
    normalised: 5.2,
    alias: 4.5,
    formerName: 4,
    fuzzyFloor: 0.8,
    fuzzySlope: 40,
    disagrees: -4,
  },
  host: { agrees: 6, disagrees: -3 },
  ticker: { withExchange: 4, symbol: 3, otherExchange: 0.5, disagrees: -1.5 },
  country: { agrees: 1.2, disagrees: -0.6 },
  city: { agrees: 1, disagrees: -0.3 },
  linkedin: { agrees: 8, disagrees: -4 },
  email: { agrees: 8, sameHost: 1, disagrees: -0.5 },
  organisation: { current: 2.5, past: 1.5, fuzzy: 1, disagrees: -1.5 },
  title: { agrees: 1, disagrees: -0.3 },
};

/** One compared field: what the answer shows and the log-odds it adds. */
interface Evidence extends MatchedOn {
  weight: number;
}

const evidence = (
  field: ResolveField,
  input: string,
  value: string | null,
  how: MatchHow,
  weight: number,
): Evidence => ({
  field,
  input,
  value,
  how,
  weight,
});

/** The weight of a fuzzy name: rises from 0 at `fuzzyFloor` similarity, falls below it; capped under an alias's. */
function fuzzyWeight(similarity: number): number {
  const { fuzzyFloor, fuzzySlope, alias, disagrees } = weights.name;
  return Math.max(disagrees, Math.min(alias - 0.5, (similarity - fuzzyFloor) * fuzzySlope));
}

/** The best of a record's names for an input name: the current name, then current aliases, then former names. */
function compareNames(
  field: ResolveField,
  input: string,
  key: string,
  current: string,
  currentKey: string,
  others: { name: string; key: string; former: boolean }[],
): Evidence {
  if (input === current) return evidence(field, input, current, 'exact', weights.name.exact);
  if (sameWords(key, currentKey))
    return evidence(field, input, current, 'normalised', weights.name.normalised);
  for (const other of others) {
    if (input === other.name || sameWords(key, other.key)) {
      return other.former
        ? evidence(field, input, other.name, 'former_name', weights.name.formerName)
        : evidence(field, input, other.name, 'alias', weights.name.alias);
    }
  }
  let best = { similarity: wordSimilarity(key, currentKey), value: current };
  for (const other of others) {
    const similarity = wordSimilarity(key, other.key) - 0.02;
    if (similarity > best.similarity) best = { similarity, value: other.name };
  }
  const weight = fuzzyWeight(best.similarity);
  return evidence(field, input, best.value, weight > 0 ? 'fuzzy' : 'disagrees', weight);
}

const today = () => new Date().toISOString().slice(0, 10);

export function organisationEvidence(query: OrganisationQuery, record: OrganisationDetails): Evidence[] {
  const found: Evidence[] = [];
  if (query.name) {
    const now = today();
    const others = record.aliases.map((alias) => ({
      name: alias.name,
      key: organisationKey(alias.name),
      former: alias.endDate !== null && alias.endDate < now,
    }));
    found.push(
      compareNames(
        'name',
        query.name.input,
        query.name.key,
        record.name,
        organisationKey(record.name),
        others,
      ),
    );
  }
  if (query.host) {
    const { input, field, host } = query.host;
    const same = host ? record.domains.find((domain) => domain.toLowerCase() === host) : undefined;
    if (same)
      found.push(evidence(field, input, same, input === same ? 'exact' : 'normalised', weights.host.agrees));
    else if (record.domains.length === 0) found.push(evidence(field, input, null, 'missing', 0));
    else found.push(evidence(field, input, record.domains[0]!, 'disagrees', weights.host.disagrees));
  }
  if (query.ticker) {
    const { input, ticker } = query.ticker;
    const same = ticker ? record.tickers.filter((t) => t.value.toUpperCase() === ticker.symbol) : [];
    const exchange = ticker?.exchange;
    const onExchange = exchange
      ? same.find((t) => sameExchange(exchange, t.exchangeCode, t.exchangeName))
      : undefined;
    const shown = (t: OrganisationDetails['tickers'][number]) => `${t.exchangeCode}:${t.value}`;
    if (onExchange)
      found.push(evidence('ticker', input, shown(onExchange), 'normalised', weights.ticker.withExchange));
    else if (same.length > 0 && !exchange)
      found.push(
        evidence(
          'ticker',
          input,
          shown(same[0]!),
          input === same[0]!.value ? 'exact' : 'normalised',
          weights.ticker.symbol,
        ),
      );
    else if (same.length > 0)
      found.push(evidence('ticker', input, shown(same[0]!), 'disagrees', weights.ticker.otherExchange));
    else if (record.tickers.length === 0) found.push(evidence('ticker', input, null, 'missing', 0));
    else
      found.push(evidence('ticker', input, shown(record.tickers[0]!), 'disagrees', weights.ticker.disagrees));
  }
  if (query.country) {
    const { input, code } = query.country;
    if (!record.country) found.push(evidence('country', input, null, 'missing', 0));
    else if (code === record.country)
      found.push(
        evidence(
          'country',
          input,
          record.country,
          input === code ? 'exact' : 'normalised',
          weights.country.agrees,
        ),
      );
    else
      found.push(
        evidence('country', input, record.country, 'disagrees', code ? weights.country.disagrees : 0),
      );
  }
  if (query.city) {
    const { input, key } = query.city;
    if (!record.city) found.push(evidence('city', input, null, 'missing', 0));
    else if (input === record.city)
      found.push(evidence('city', input, record.city, 'exact', weights.city.agrees));
    else if (key === matchWords(record.city).join(' '))
      found.push(evidence('city', input, record.city, 'normalised', weights.city.agrees));
    else found.push(evidence('city', input, record.city, 'disagrees', weights.city.disagrees));
  }
  return found;
}

export function profileEvidence(query: ProfileQuery, record: ProfileDetails): Evidence[] {
  const found: Evidence[] = [];
  if (query.name) {
    const { input, field, key } = query.name;
    // A first or last name alone is compared with that name; a whole name with the whole.
    const [current, currentKey] =
      field === 'name' || (field === 'firstName' && query.name.input.includes(' '))
        ? [record.fullName, personKey(record.fullName)]
        : field === 'firstName'
          ? [record.firstName, personKey(record.firstName)]
          : [record.lastName, personKey(record.lastName)];
    found.push(compareNames(field, input, key, current, currentKey, []));
  }
  if (query.linkedin) {
    const { input, handle } = query.linkedin;
    const recordHandle = record.linkedinUrl ? linkedinHandle(record.linkedinUrl) : null;
    if (!record.linkedinUrl) found.push(evidence('linkedinUrl', input, null, 'missing', 0));
    else if (handle && handle === recordHandle)
      found.push(
        evidence(
          'linkedinUrl',
          input,
          record.linkedinUrl,
          input === record.linkedinUrl ? 'exact' : 'normalised',
          weights.linkedin.agrees,
        ),
      );
    else
      found.push(evidence('linkedinUrl', input, record.linkedinUrl, 'disagrees', weights.linkedin.disagrees));
  }
  if (query.email) {
    const { input, value, host } = query.email;
    const same = record.emails.find((email) => email.toLowerCase() === value);
    const sameHost = host ? record.emails.find((email) => hostOf(email) === host) : undefined;
    if (same)
      found.push(
        evidence('email', input, same, input === same ? 'exact' : 'normalised', weights.email.agrees),
      );
    else if (sameHost) found.push(evidence('email', input, sameHost, 'fuzzy', weights.email.sameHost));
    else if (record.emails.length === 0) found.push(evidence('email', input, null, 'missing', 0));
    else found.push(evidence('email', input, record.emails[0]!, 'disagrees', weights.email.disagrees));
  }
  if (query.organisation) {
    const { input, reference, key } = query.organisation;
    const roles = record.roles.filter((role) => role.organisationName);
    let best: Evidence | null = null;
    for (const role of roles) {
      const name = role.organisationName!;
      const same = reference
        ? role.organisationReference === reference
        : sameWords(organisationKey(name), key);
      const similarity = reference ? 0 : wordSimilarity(key, organisationKey(name));
      const candidate = same
        ? role.current
          ? evidence(
              'organisation',
              input,
              name,
              input === name || reference ? 'exact' : 'normalised',
              weights.organisation.current,
            )
          : evidence('organisation', input, name, 'former_name', weights.organisation.past)
        : similarity >= 0.85
          ? evidence('organisation', input, name, 'fuzzy', weights.organisation.fuzzy)
          : null;
      if (candidate && (!best || candidate.weight > best.weight)) best = candidate;
    }
    if (best) found.push(best);
    else if (roles.length === 0) found.push(evidence('organisation', input, null, 'missing', 0));
    else
      found.push(
        evidence(
          'organisation',
          input,
          roles[0]!.organisationName,
          'disagrees',
          weights.organisation.disagrees,
        ),
      );
  }
  if (query.title) {
    const { input, key } = query.title;
    const titles = record.roles.filter((role) => role.current).map((role) => role.title);
    const same = titles.find((title) => matchWords(title).join(' ') === key);
    const close = titles.find((title) => wordSimilarity(matchWords(title).join(' '), key) >= 0.8);
    if (same)
      found.push(
        evidence('title', input, same, input === same ? 'exact' : 'normalised', weights.title.agrees),
      );
    else if (close) found.push(evidence('title', input, close, 'fuzzy', weights.title.agrees / 2));
    else if (titles.length === 0) found.push(evidence('title', input, null, 'missing', 0));
    else found.push(evidence('title', input, titles[0]!, 'disagrees', weights.title.disagrees));
  }
  return found;
}

/** The log-odds a candidate's evidence adds up to. */
export const totalWeight = (found: Evidence[]) => found.reduce((sum, item) => sum + item.weight, 0);

/** The evidence as the answer shows it, without weights. */
export const shownEvidence = (found: Evidence[]): MatchedOn[] =>
  found.map(({ field, input, value, how }) => ({ field, input, value, how }));
