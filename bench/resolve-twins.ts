import { sql } from 'drizzle-orm';
import { distance } from 'fastest-levenshtein';
import { type Database, queryRows } from '../src/db/database.ts';
import {
  hostOf,
  linkedinHandle,
  organisationKey,
  parseTicker,
  personKey,
} from '../src/domain/resolve/normalise.ts';
import type { OrganisationInput, ProfileInput } from '../src/domain/resolve/types.ts';
import type { Labelled } from './resolve-set.ts';

/**
 * Which labelled inputs another record fits as well as the one they were made from: a name two organisations share
 * once legal forms are set aside, with no domain, ticker, country or city that tells them apart. The right answer to
 * such an input is `ambiguous`, so the bench counts it apart from recall instead of as a miss (bench/NOTES.md 69).
 * Decided from the records alone, never from the matcher's answer.
 */

const sortedKey = (key: string) => key.split(' ').sort().join(' ');

function add(map: Map<string, string[]>, key: string | null, reference: string): void {
  if (!key) return;
  const list = map.get(key);
  if (list) list.push(reference);
  else map.set(key, [reference]);
}

function narrow(current: Set<string> | null, references: string[] | undefined): Set<string> {
  const next = new Set(references ?? []);
  return current ? new Set([...current].filter((reference) => next.has(reference))) : next;
}

export interface Twins<Input> {
  /** Per input: true when at least one other record fits it as well as the expected one. */
  of(set: Labelled<Input>[]): Promise<boolean[]>;
}

export async function organisationTwins(db: Database): Promise<Twins<OrganisationInput>> {
  const byName = new Map<string, string[]>();
  const byHost = new Map<string, string[]>();
  const byTicker = new Map<string, string[]>();
  const place = new Map<string, { country: string | null; city: string | null }>();
  const records = await queryRows<{
    reference: string;
    name: string;
    country: string | null;
    city: string | null;
  }>(
    db,
    sql`select o.reference::text, o.name, ad.country, ad.city from organisations o
      left join organisation_addresses ad on ad.organisation_reference = o.reference and ad.kind = 'company'`,
  );
  for (const row of records) {
    add(byName, sortedKey(organisationKey(row.name)), row.reference);
    place.set(row.reference, { country: row.country, city: row.city });
  }
  const aliases = await queryRows<{ reference: string; name: string }>(
    db,
    sql`select organisation_reference::text as reference, name from organisation_aliases`,
  );
  for (const row of aliases) add(byName, sortedKey(organisationKey(row.name)), row.reference);
  const domains = await queryRows<{ reference: string; domain: string }>(
    db,
    sql`select distinct organisation_reference::text as reference, lower(domain) as domain from organisation_domains`,
  );
  for (const row of domains) add(byHost, row.domain, row.reference);
  const tickers = await queryRows<{ reference: string; symbol: string }>(
    db,
    sql`select distinct organisation_reference::text as reference, upper(value) as symbol from organisation_tickers`,
  );
  for (const row of tickers) add(byTicker, row.symbol, row.reference);

  return {
    async of(set) {
      return set.map(({ input, expected, from }) => {
        if (expected === null) return false;
        let fits: Set<string> | null = null;
        if (input.name && from)
          fits = narrow(fits, [...new Set(byName.get(sortedKey(organisationKey(from))))]);
        const host = input.domain ?? input.website;
        if (host) fits = narrow(fits, byHost.get(hostOf(host) ?? ''));
        if (input.ticker) fits = narrow(fits, byTicker.get(parseTicker(input.ticker)?.symbol ?? ''));
        if (!fits) return false;
        const own = place.get(expected);
        const others = [...fits].filter((reference) => {
          if (reference === expected) return false;
          const theirs = place.get(reference);
          if (input.country && input.country === own?.country && theirs?.country !== own.country)
            return false;
          if (input.city && input.city === own?.city && theirs?.city !== own.city) return false;
          return true;
        });
        return others.length > 0;
      });
    },
  };
}

export async function profileTwins(db: Database): Promise<Twins<ProfileInput>> {
  const byName = new Map<string, string[]>();
  const byHandle = new Map<string, string[]>();
  const byEmail = new Map<string, string[]>();
  const people = await queryRows<{ reference: string; name: string; linkedinUrl: string | null }>(
    db,
    sql`select reference::text, full_name as name, linkedin_url as "linkedinUrl" from profiles`,
  );
  for (const row of people) {
    add(byName, sortedKey(personKey(row.name)), row.reference);
    if (row.linkedinUrl) add(byHandle, linkedinHandle(row.linkedinUrl), row.reference);
  }
  const emails = await queryRows<{ reference: string; email: string }>(
    db,
    sql`select distinct profile_reference::text as reference, lower(value) as email from profile_emails`,
  );
  for (const row of emails) add(byEmail, row.email, row.reference);

  return {
    async of(set) {
      const fitting = set.map(({ input, expected, from }) => {
        if (expected === null) return [];
        let fits: Set<string> | null = null;
        if ((input.name || input.firstName || input.lastName) && from)
          fits = narrow(fits, byName.get(sortedKey(personKey(from))));
        if (input.linkedinUrl) fits = narrow(fits, byHandle.get(linkedinHandle(input.linkedinUrl) ?? ''));
        if (input.email) fits = narrow(fits, byEmail.get(input.email.toLowerCase()));
        return fits ? [...fits].filter((reference) => reference !== expected) : [];
      });
      // An organisation or title in the input tells two people of one name apart when their current roles differ.
      const asked = [
        ...new Set(
          fitting
            .flat()
            .concat(set.map((item) => item.expected ?? ''))
            .filter(Boolean),
        ),
      ];
      const roles = await queryRows<{ reference: string; organisation: string | null; title: string }>(
        db,
        sql`select x.profile_reference::text as reference, o.name as organisation, x.occupation_title as title
          from experiences x left join organisations o on o.reference = x.organisation_reference
          where x.end_date is null
            and x.profile_reference = any(array(select jsonb_array_elements_text(${JSON.stringify(asked)}::jsonb)::uuid))`,
      );
      const current = new Map<string, { organisations: Set<string>; titles: Set<string> }>();
      for (const row of roles) {
        const entry = current.get(row.reference) ?? { organisations: new Set(), titles: new Set() };
        if (row.organisation) entry.organisations.add(sortedKey(organisationKey(row.organisation)));
        entry.titles.add(personKey(row.title));
        current.set(row.reference, entry);
      }
      return set.map(({ input }, index) =>
        fitting[index]!.some((reference) => {
          const theirs = current.get(reference);
          if (
            input.organisation &&
            !theirs?.organisations.has(sortedKey(organisationKey(input.organisation)))
          )
            return false;
          if (input.title && !theirs?.titles.has(personKey(input.title))) return false;
          return true;
        }),
      );
    },
  };
}

/**
 * Whether a made-up person's name is one typo (a letter added, dropped, changed or two swapped, in one word) from a
 * real person's: such an input is what a typo in that person's name looks like, so it cannot stand for "no record".
 */
export function nearPersonNames(names: string[]): (name: string) => boolean {
  const byRest = new Map<string, string[]>();
  for (const name of names) {
    const words = personKey(name).split(' ');
    words.forEach((word, index) => {
      const rest = [...words.slice(0, index), '*', ...words.slice(index + 1)].sort().join(' ');
      add(byRest, rest, word);
    });
  }
  const oneTypo = (a: string, b: string) => {
    if (Math.abs(a.length - b.length) > 1) return false;
    const edits = distance(a, b);
    if (edits <= 1) return true;
    if (edits !== 2 || a.length !== b.length) return false;
    const differ = [...a].flatMap((char, index) => (char === b[index] ? [] : [index]));
    return differ.length === 2 && differ[1] === differ[0]! + 1 && a[differ[0]!] === b[differ[1]!];
  };
  return (name) => {
    const words = personKey(name).split(' ');
    return words.some((word, index) => {
      const rest = [...words.slice(0, index), '*', ...words.slice(index + 1)].sort().join(' ');
      return (byRest.get(rest) ?? []).some((other) => oneTypo(word, other));
    });
  };
}
