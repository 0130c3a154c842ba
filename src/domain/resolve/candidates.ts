import { type SQL, sql } from 'drizzle-orm';
import { type Database, queryRows } from '../../db/database.ts';
import { parseJson } from '../../db/json-rows.ts';
import type { OrganisationDetails, OrganisationQuery, ProfileDetails, ProfileQuery } from './evidence.ts';

/** At most this many records per input and per way of finding them. */
const perLookup = 8;
/** Written into the text: a limit sent as a parameter left the planner without it. */
const lookupLimit = sql.raw(String(perLookup));

/**
 * The close-name lookup of people reads a bounded number of names per input, however many people there are:
 * `personNeighbours` each side of each rotation of the input's key (up to `rotations`), in the order of the key and
 * in the order of the key family name first (migration 0031; a typo leaves a name next to its record when it falls
 * past the first word of one of the two orders, and a name written `last, first` is one of the rotations); of these,
 * those whose full name is alike the input's by trigrams, at least `personSimilarity` (a typo in a name of two words
 * still scores above it). Fewer neighbours lost typos near a given name's start (bench/NOTES.md 74).
 */
const personNeighbours = 16;
const personNeighboursLimit = sql.raw(String(personNeighbours));
const personSimilarity = 0.45;

/** Inputs per statement of the close-name lookups. */
const fuzzyChunk = 50;

/**
 * The close-name lookup of organisations reads a bounded number of names per input, however many organisations
 * there are: `neighbours` each side of the input's key in key order, for each of up to `rotations` orders of its
 * words (a typo or a legal form past a name's start leaves it next to its record), and for each of its `rarePieces`
 * rarest pieces of four to six letters (counted in migration 0022's fragments), the names holding it among the first
 * `walked` of its rarest three letters' list (migration 0028; a typo near a name's start leaves its other words' pieces),
 * of which the `fromPieces` holding most of the pieces, then closest in length, go on; of all these, those
 * whose key is alike by trigrams.
 */
const neighbours = 6;
const rotations = 4;
const rarePieces = 4;
const walked = 1000;
const fromPieces = 24;
/** pg_trgm's own threshold: a name further off is no record the input could mean. */
const leastSimilarity = 0.3;

/** The input key's words in each order that starts at one of them: `yost grotke hickle` finds `grotke hickle yost`. */
function rotationsOf(key: string): string[] {
  const words = key.split(' ');
  return words
    .slice(0, rotations)
    .map((_, index) => [...words.slice(index), ...words.slice(0, index)].join(' '));
}

/** Each input's key in each order of its words that starts at one of them, in SQL: {@link rotationsOf}'s rule. */
const rotatedKeys = sql`select i.p, array_to_string(w.w[s:] || w.w[:s - 1], ' ') as key
  from input i cross join lateral string_to_array(i.key, ' ') as w(w)
  cross join lateral generate_series(1, least(${sql.raw(String(rotations))}, cardinality(w.w))) as s
  where i.key <> ''`;

/**
 * Every input's candidates: records whose name or alias has the input name's key in one of its orders (`Bernard et
 * Thomas` is also `Thomas et Bernard`'s), whose domain is the input's host
 * or whose ticker is its symbol, all in one statement (index probes of migrations 0029 and 0030); then, for the names
 * none of these found, the close names of a bounded lookup, fifty inputs a statement.
 */
export async function findOrganisationCandidates(
  db: Database,
  queries: OrganisationQuery[],
): Promise<Map<number, string[]>> {
  const inputs = queries.map((query, position) => ({
    p: position,
    n: query.name?.input ?? null,
    h: query.host?.host ?? null,
    t: query.ticker?.ticker?.symbol ?? null,
  }));
  if (inputs.every((input) => !input.n && !input.h && !input.t)) return new Map();
  const rows = await withoutJit(db, (tx) =>
    queryRows<{ p: number; reference: string; key: string | null }>(
      tx,
      sql`with input as materialized (
      select i.p, orgraph_organisation_key(i.n) as key, i.h, i.t
        from jsonb_to_recordset(${JSON.stringify(inputs)}::jsonb) as i(p int, n text, h text, t text)
    ), rotated as (
      ${rotatedKeys}
    ), found as (
      select r.p, c.reference from rotated r cross join lateral (
        select n.reference from organisation_names n where n.match_key = r.key limit ${lookupLimit}
      ) c
      union
      select r.p, c.reference from rotated r cross join lateral (
        select a.organisation_reference as reference from organisation_aliases a
          where orgraph_organisation_key(a.name) = r.key limit ${lookupLimit}
      ) c
      union
      select i.p, c.reference from input i cross join lateral (
        select d.organisation_reference as reference from organisation_domains d where lower(d.domain) = i.h
          limit ${lookupLimit}
      ) c
      union
      select i.p, c.reference from input i cross join lateral (
        select t.organisation_reference as reference from organisation_tickers t where upper(t.value) = i.t
          limit ${lookupLimit}
      ) c
    )
    select f.p, f.reference::text, null as key from found f
    union all
    select i.p, null, i.key from input i where i.key <> '' and not exists (select from found f where f.p = i.p)`,
    ),
  );
  const found = groupByInput(rows.filter((row) => row.reference !== null));
  const unfound = rows.flatMap((row) =>
    row.reference === null && row.key
      ? [
          {
            p: Number(row.p),
            t: queries[Number(row.p)]!.name!.input.toLowerCase(),
            k: row.key,
            r: rotationsOf(row.key),
          },
        ]
      : [],
  );
  return addCloseNames(
    db,
    found,
    unfound,
    (inputs) =>
      sql`with input as materialized (
        select i.p, i.t, i.k, i.r from jsonb_to_recordset(${inputs}::jsonb) as i(p int, t text, k text, r jsonb)
      ), near as (
        select i.p, c.reference from input i cross join lateral jsonb_array_elements_text(i.r) as r(k)
        cross join lateral (
          (select n.reference from organisation_names n where n.match_key >= r.k
            order by n.match_key limit ${sql.raw(String(neighbours))})
          union all
          (select n.reference from organisation_names n where n.match_key < r.k
            order by n.match_key desc limit ${sql.raw(String(neighbours))})
        ) c
      ), piece as (
        select g.p, g.f, row_number() over (partition by g.p order by sum(x.organisations), g.f) as rank
          from (
            select distinct i.p, substr(i.t, s, l) as f
              from input i, generate_series(4, 6) as l, generate_series(1, char_length(i.t) - l + 1) as s
          ) g
          join organisation_name_fragments x on x.fragment = g.f
          where g.f ~ '^[[:alnum:]]+$' group by g.p, g.f
      ), chosen as (
        select g.p, g.f, (
          select x.gram from (select substr(g.f, s, 3) as gram from generate_series(1, char_length(g.f) - 2) as s) x
            join organisation_name_fragments c on c.fragment = x.gram
            group by x.gram order by sum(c.organisations), x.gram limit 1
        ) as gram
        from piece g where g.rank <= ${sql.raw(String(rarePieces))}
      ), rare as (
        select g.p, w.reference, count(*) as pieces,
            min(abs(char_length(w.name) - (select char_length(i.t) from input i where i.p = g.p))) as apart
          from chosen g cross join lateral (
            select t.reference, t.name from organisation_name_trigrams t where t.trigram = g.gram
              limit ${sql.raw(String(walked))}
          ) w
          where strpos(lower(w.name), g.f) > 0
          group by g.p, w.reference
      ), rarest as (
        select p, reference from (
          select p, reference, row_number() over (partition by p order by pieces desc, apart, reference) as rank
            from rare
        ) r where r.rank <= ${sql.raw(String(fromPieces))}
      )
      select i.p, c.reference::text from input i cross join lateral (
        select n.reference from organisation_names n
          where n.reference = any(array(select reference from near where p = i.p
            union select reference from rarest where p = i.p))
            and similarity(n.match_key, i.k) >= ${sql.raw(String(leastSimilarity))}
          order by similarity(n.match_key, i.k) desc, n.reference limit ${lookupLimit}
      ) c`,
  );
}

/** The records of the candidates: names, aliases with their end, domains, tickers and the company address. */
export async function readOrganisationDetails(
  db: Database,
  references: string[],
): Promise<Map<string, OrganisationDetails>> {
  if (references.length === 0) return new Map();
  const rows = await queryRows<{
    reference: string;
    name: string;
    aliases: unknown;
    domains: unknown;
    tickers: unknown;
    country: string | null;
    city: string | null;
  }>(
    db,
    sql`select o.reference::text, o.name,
        (select json_agg(json_build_object('name', a.name, 'endDate', a.end_date) order by a.name)
          from organisation_aliases a where a.organisation_reference = o.reference) as aliases,
        (select json_agg(d.domain order by d.is_valid desc, d.confidence_score desc, d.domain)
          from organisation_domains d where d.organisation_reference = o.reference) as domains,
        (select json_agg(json_build_object('value', t.value, 'exchangeCode', t.exchange_code,
            'exchangeName', t.exchange_name) order by t.is_primary_listing desc, t.value)
          from organisation_tickers t where t.organisation_reference = o.reference) as tickers,
        ad.country, ad.city
      from organisations o
      left join organisation_addresses ad on ad.organisation_reference = o.reference and ad.kind = 'company'
      where o.reference = any(array(select jsonb_array_elements_text(${JSON.stringify(references)}::jsonb)::uuid))`,
  );
  return new Map(
    rows.map((row) => [
      row.reference,
      {
        reference: row.reference,
        name: row.name,
        aliases: (parseJson(row.aliases) as OrganisationDetails['aliases'] | null) ?? [],
        domains: (parseJson(row.domains) as string[] | null) ?? [],
        tickers: (parseJson(row.tickers) as OrganisationDetails['tickers'] | null) ?? [],
        country: row.country,
        city: row.city,
      },
    ]),
  );
}

/**
 * Every input's candidate people: by the name's key in each order of its words (`Hansen, Blake` is Blake Hansen),
 * the LinkedIn handle or the e-mail address in one statement (index probes of migration 0029), then, for the names
 * none of these found, the close names of a bounded lookup, fifty inputs a statement.
 */
export async function findProfileCandidates(
  db: Database,
  queries: ProfileQuery[],
): Promise<Map<number, string[]>> {
  const inputs = queries.map((query, position) => ({
    p: position,
    n: query.name?.input ?? null,
    l: query.linkedin?.handle ?? null,
    e: query.email?.value ?? null,
  }));
  if (inputs.every((input) => !input.n && !input.l && !input.e)) return new Map();
  const rows = await withoutJit(db, (tx) =>
    queryRows<{ p: number; reference: string | null; key: string | null }>(
      tx,
      sql`with input as materialized (
      select i.p, orgraph_person_key(i.n) as key, i.n, i.l, i.e
        from jsonb_to_recordset(${JSON.stringify(inputs)}::jsonb) as i(p int, n text, l text, e text)
    ), rotated as (
      ${rotatedKeys}
    ), found as (
      select r.p, c.reference from rotated r cross join lateral (
        select pr.reference from profiles pr where orgraph_person_key(pr.full_name) = r.key limit ${lookupLimit}
      ) c
      union
      select i.p, c.reference from input i cross join lateral (
        select pr.reference from profiles pr where orgraph_linkedin_handle(pr.linkedin_url) = i.l limit ${lookupLimit}
      ) c
      union
      select i.p, c.reference from input i cross join lateral (
        select m.profile_reference as reference from profile_emails m where lower(m.value) = i.e limit ${lookupLimit}
      ) c
    )
    select f.p, f.reference::text, null as key from found f
    union all
    select i.p, null, i.key from input i where i.key <> '' and not exists (select from found f where f.p = i.p)`,
    ),
  );
  const found = groupByInput(rows.filter((row) => row.reference !== null));
  const unfound = rows.flatMap((row) =>
    row.reference === null && row.key
      ? [{ p: Number(row.p), t: queries[Number(row.p)]!.name!.input, r: rotationsOf(row.key) }]
      : [],
  );
  const walk = (key: SQL, direction: 'asc' | 'desc') =>
    sql`(select pr.reference, pr.full_name from profiles pr where ${key} ${sql.raw(direction === 'asc' ? '>=' : '<')} r.k
      order by ${key} ${sql.raw(direction)} limit ${personNeighboursLimit})`;
  const key = sql`orgraph_person_key(pr.full_name)`;
  const familyFirstKey = sql`orgraph_person_key(pr.last_name || ' ' || pr.first_name)`;
  return addCloseNames(
    db,
    found,
    unfound,
    // The walks return the full name, so that the ranking reads no row twice and computes no key.
    (inputs) =>
      sql`with input as materialized (
        select i.p, i.t, i.r from jsonb_to_recordset(${inputs}::jsonb) as i(p int, t text, r jsonb)
      ), near as (
        select distinct i.p, c.reference, similarity(c.full_name, i.t) as similarity
          from input i cross join lateral jsonb_array_elements_text(i.r) as r(k)
          cross join lateral (
            ${walk(key, 'asc')} union all ${walk(key, 'desc')}
            union all ${walk(familyFirstKey, 'asc')} union all ${walk(familyFirstKey, 'desc')}
          ) c
      )
      select p, reference::text from (
        select p, reference, row_number() over (partition by p order by similarity desc, reference) as rank
          from near where similarity >= ${sql.raw(String(personSimilarity))}
      ) n where rank <= ${lookupLimit}`,
  );
}

/** The people of the candidates: names, LinkedIn URL, e-mails and roles with their organisations' names. */
export async function readProfileDetails(
  db: Database,
  references: string[],
): Promise<Map<string, ProfileDetails>> {
  if (references.length === 0) return new Map();
  const rows = await queryRows<{
    reference: string;
    fullName: string;
    firstName: string;
    lastName: string;
    linkedinUrl: string | null;
    emails: unknown;
    roles: unknown;
  }>(
    db,
    sql`select pr.reference::text, pr.full_name as "fullName", pr.first_name as "firstName",
        pr.last_name as "lastName", pr.linkedin_url as "linkedinUrl",
        (select json_agg(m.value order by m.is_valid desc, m.confidence_score desc, m.value)
          from profile_emails m where m.profile_reference = pr.reference) as emails,
        (select json_agg(json_build_object('organisationReference', x.organisation_reference,
            'organisationName', o.name, 'title', x.occupation_title, 'current', x.end_date is null)
            order by x.end_date desc nulls first, x.start_date desc nulls last)
          from experiences x left join organisations o on o.reference = x.organisation_reference
          where x.profile_reference = pr.reference) as roles
      from profiles pr
      where pr.reference = any(array(select jsonb_array_elements_text(${JSON.stringify(references)}::jsonb)::uuid))`,
  );
  return new Map(
    rows.map((row) => [
      row.reference,
      {
        reference: row.reference,
        fullName: row.fullName,
        firstName: row.firstName,
        lastName: row.lastName,
        linkedinUrl: row.linkedinUrl,
        emails: (parseJson(row.emails) as string[] | null) ?? [],
        roles: (parseJson(row.roles) as ProfileDetails['roles'] | null) ?? [],
      },
    ]),
  );
}

/** The names no exact lookup found, `fuzzyChunk` inputs a statement: the closest records. */
async function addCloseNames(
  db: Database,
  found: Map<number, string[]>,
  unfound: { p: number }[],
  lookup: (inputs: string) => SQL,
): Promise<Map<number, string[]>> {
  for (let start = 0; start < unfound.length; start += fuzzyChunk) {
    const chunk = JSON.stringify(unfound.slice(start, start + fuzzyChunk));
    const close = await withoutJit(db, (tx) =>
      queryRows<{ p: number; reference: string }>(tx, lookup(chunk)),
    );
    for (const [position, references] of groupByInput(close)) found.set(position, references);
  }
  return found;
}

/**
 * A statement run with JIT off in its own transaction (so that the setting holds through a transaction pooler): the
 * planner's estimates for these lookups pass `jit_above_cost`, and compiling cost a call half a second at any scale
 * for statements that read little (bench/NOTES.md 69).
 */
function withoutJit<Row>(db: Database, read: (tx: Database) => Promise<Row[]>): Promise<Row[]> {
  return db.transaction(async (tx) => {
    await tx.execute(sql.raw('set local jit = off'));
    return read(tx as unknown as Database);
  });
}

function groupByInput(rows: { p: number; reference: string | null }[]): Map<number, string[]> {
  const byInput = new Map<number, string[]>();
  for (const row of rows) {
    const position = Number(row.p);
    const list = byInput.get(position) ?? [];
    if (row.reference !== null && !list.includes(row.reference)) list.push(row.reference);
    byInput.set(position, list);
  }
  return byInput;
}
