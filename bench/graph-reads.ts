import type postgres from 'postgres';
import { isExecutiveTitle } from '../src/domain/organisations/executive-title.ts';

/**
 * The GraphQL scenarios' reads three ways: orgraph's query, PostGraphile v5's query for the same rows (amber
 * preset, simplify inflection, over the same tables), and the minimal SQL written by hand, one statement per
 * level, batched with `any($1)`. Each has a normaliser to one shape, so the three answers are compared row
 * for row before anything is timed: lists whose order is not part of the question (a person's experiences,
 * an organisation's roles or aliases) become sorted lists of JSON, strings are compared in lower case
 * (PostGraphile spells enum values in upper case where orgraph has its own), numbers as numbers and
 * instants as ISO strings.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Row = Record<string, unknown>;

// --- normalising ---

const text = (value: unknown): string | null =>
  value === null || value === undefined ? null : String(value).toLowerCase();
const number = (value: unknown): number | null =>
  value === null || value === undefined ? null : Number(value);
const day = (value: unknown): string | null =>
  value === null || value === undefined
    ? null
    : value instanceof Date
      ? value.toISOString().slice(0, 10)
      : String(value).slice(0, 10);
const instant = (value: unknown): string | null =>
  value === null || value === undefined ? null : new Date(value as string).toISOString();
/** A list whose order is not compared: its items' JSON, sorted. */
const bag = (items: readonly Json[]): string[] => items.map((item) => JSON.stringify(item)).sort();

function dataOf(body: unknown): Row {
  const answer = body as { data?: Row; errors?: unknown[] };
  if (answer.errors && answer.errors.length > 0)
    throw new Error(`GraphQL errors: ${JSON.stringify(answer.errors)}`);
  if (!answer.data) throw new Error(`no data in ${JSON.stringify(body).slice(0, 300)}`);
  return answer.data;
}

// --- one organisation, a handful of scalar fields ---

const briefFields = 'reference name description employees status verified confidence';

/** The whole single record through the graph: every part of `organisation(reference)`. */
export const organisationQuery = /* GraphQL */ `
  query Organisation($reference: UUID!) {
    organisation(reference: $reference) {
      reference name description employees sizeBand status verified confidence
      relationships { customers suppliers partners serviceProviders }
      aliases { name startDate endDate }
      tickers { value exchange { name code } currency status isPrimaryListing }
      domains { domain confidenceScore isValid }
      phones { number type isValid }
      industries { isPrimary industry { code name level } }
      addresses {
        company { city state country zipPostalCode }
        mailing { city state country zipPostalCode }
      }
      clientSummary { currencyCode summaryType publishDate }
    }
  }
`;

export const organisationBriefQuery = `query OrganisationBrief($reference: UUID!) { organisation(reference: $reference) { ${briefFields} } }`;
export const peerOrganisationBriefQuery = `query OrganisationBrief($reference: UUID!) { organisation(reference: $reference) { ${briefFields} } }`;

function brief(row: Row): Json {
  return {
    reference: text(row.reference),
    name: text(row.name),
    description: text(row.description),
    employees: number(row.employees),
    status: text(row.status),
    verified: Boolean(row.verified),
    confidence: number(row.confidence),
  };
}

export const normaliseBrief = (body: unknown): Json => brief(dataOf(body).organisation as Row);

export async function driverBrief(sql: postgres.Sql, reference: string): Promise<Json> {
  const [row] = await sql`select reference, name, description, employees, status, verified, confidence
    from organisations where reference = ${reference}`;
  if (!row) throw new Error(`no organisation ${reference}`);
  return brief(row);
}

// --- the whole organisation record ---

export const peerOrganisationQuery = /* GraphQL */ `
  query Organisation($reference: UUID!) {
    organisation(reference: $reference) {
      reference name description employees status verified confidence
      customers suppliers partners serviceProviders
      organisationAliasesByOrganisationReference { nodes { name startDate endDate } }
      organisationTickersByOrganisationReference {
        nodes { value exchangeName exchangeCode currency status isPrimaryListing }
      }
      organisationDomainsByOrganisationReference { nodes { domain confidenceScore isValid } }
      organisationPhonesByOrganisationReference { nodes { number type isValid } }
      organisationIndustriesByOrganisationReference {
        nodes { isPrimary industryByIndustryCode { code name level } }
      }
      organisationAddressesByOrganisationReference { nodes { kind city state country zipPostalCode } }
      clientSummariesByOrganisationReference(first: 1, orderBy: [PUBLISH_DATE_DESC, REFERENCE_DESC]) {
        nodes { currencyCode summaryType publishDate }
      }
    }
  }
`;

interface RecordParts {
  organisation: Row;
  aliases: Row[];
  tickers: Row[];
  domains: Row[];
  phones: Row[];
  industries: Row[];
  addresses: Row[];
  clientSummary: Row | null;
}

function wholeRecord(parts: RecordParts): Json {
  const o = parts.organisation;
  const address = (kind: string) => {
    const found = parts.addresses.find((row) => text(row.kind) === kind);
    return found
      ? {
          city: text(found.city),
          state: text(found.state),
          country: text(found.country),
          zip: text(found.zipPostalCode),
        }
      : null;
  };
  const summary = parts.clientSummary;
  return {
    ...(brief(o) as Record<string, Json>),
    relationships: [number(o.customers), number(o.suppliers), number(o.partners), number(o.serviceProviders)],
    aliases: bag(parts.aliases.map((a) => [text(a.name), day(a.startDate), day(a.endDate)])),
    tickers: bag(
      parts.tickers.map((t) => [
        text(t.value),
        text(t.exchangeName),
        text(t.exchangeCode),
        text(t.currency),
        text(t.status),
        Boolean(t.isPrimaryListing),
      ]),
    ),
    domains: bag(parts.domains.map((d) => [text(d.domain), number(d.confidenceScore), Boolean(d.isValid)])),
    phones: bag(parts.phones.map((p) => [text(p.number), text(p.type), Boolean(p.isValid)])),
    industries: bag(
      parts.industries.map((i) => [Boolean(i.isPrimary), text(i.code), text(i.name), number(i.level)]),
    ),
    addresses: { company: address('company'), mailing: address('mailing') },
    clientSummary: summary
      ? [text(summary.currencyCode), text(summary.summaryType), instant(summary.publishDate)]
      : null,
  };
}

/** orgraph's `organisation` of the graphql-organisation scenario (sizeBand is derived from employees, not compared). */
export function normaliseOrganisation(body: unknown): Json {
  const o = dataOf(body).organisation as Row & {
    relationships: Row;
    aliases: Row[];
    tickers: (Row & { exchange: Row })[];
    domains: Row[];
    phones: Row[];
    industries: (Row & { industry: Row })[];
    addresses: { company: Row | null; mailing: Row | null };
    clientSummary: Row | null;
  };
  return wholeRecord({
    organisation: { ...o, ...o.relationships },
    aliases: o.aliases,
    tickers: o.tickers.map((t) => ({ ...t, exchangeName: t.exchange.name, exchangeCode: t.exchange.code })),
    domains: o.domains,
    phones: o.phones,
    industries: o.industries.map((i) => ({ isPrimary: i.isPrimary, ...i.industry })),
    addresses: [
      ...(o.addresses.company ? [{ ...o.addresses.company, kind: 'company' }] : []),
      ...(o.addresses.mailing ? [{ ...o.addresses.mailing, kind: 'mailing' }] : []),
    ],
    clientSummary: o.clientSummary,
  });
}

export function normalisePeerOrganisation(body: unknown): Json {
  const o = dataOf(body).organisation as Record<string, { nodes: Row[] }> & Row;
  const nodes = (field: string) => (o[field] as { nodes: Row[] }).nodes;
  return wholeRecord({
    organisation: o,
    aliases: nodes('organisationAliasesByOrganisationReference'),
    tickers: nodes('organisationTickersByOrganisationReference'),
    domains: nodes('organisationDomainsByOrganisationReference'),
    phones: nodes('organisationPhonesByOrganisationReference'),
    industries: nodes('organisationIndustriesByOrganisationReference').map((i) => ({
      isPrimary: i.isPrimary,
      ...(i.industryByIndustryCode as Row),
    })),
    addresses: nodes('organisationAddressesByOrganisationReference'),
    clientSummary: nodes('clientSummariesByOrganisationReference')[0] ?? null,
  });
}

/** The same record over REST: `GET /v1/organisations/{reference}` answers it in its envelope, snake_case. */
export function normaliseRestOrganisation(body: unknown): Json {
  const o = (body as { success?: Row }).success;
  if (!o) throw new Error(`no record in ${JSON.stringify(body).slice(0, 300)}`);
  const r = o as Row & {
    totals: Row;
    relationships: Row;
    aliases: Row[];
    tickers: (Row & { exchange: Row })[];
    domains: Row[];
    phones: Row[];
    industries: Row[];
    addresses: { company: Row | null; mailing: Row | null };
    client_summary: Row | null;
  };
  const address = (kind: string, a: Row | null) =>
    a ? [{ ...a, kind, zipPostalCode: a.zip_postal_code }] : [];
  return wholeRecord({
    organisation: {
      ...r,
      employees: r.totals.employees,
      ...r.relationships,
      serviceProviders: r.relationships.service_providers,
    },
    aliases: r.aliases.map((a) => ({ name: a.name, startDate: a.start_date, endDate: a.end_date })),
    tickers: r.tickers.map((t) => ({
      ...t,
      exchangeName: t.exchange.name,
      exchangeCode: t.exchange.code,
      isPrimaryListing: t.is_primary_listing,
    })),
    domains: r.domains.map((d) => ({ ...d, confidenceScore: d.confidence_score, isValid: d.is_valid })),
    phones: r.phones.map((p) => ({ ...p, isValid: p.is_valid })),
    industries: r.industries.map((i) => ({ ...i, isPrimary: i.is_primary })),
    addresses: [...address('company', r.addresses.company), ...address('mailing', r.addresses.mailing)],
    clientSummary: r.client_summary
      ? {
          currencyCode: r.client_summary.currency_code,
          summaryType: r.client_summary.summary_type,
          publishDate: r.client_summary.publish_date,
        }
      : null,
  });
}

/** PostGraphile's whole record with the client summary's entries, which the REST record carries too. */
export const peerRestOrganisationQuery = peerOrganisationQuery.replace(
  'currencyCode summaryType publishDate',
  'currencyCode summaryType publishDate entries',
);

/** The record in one statement: the row and each part as a JSON array beside it. */
export async function driverOrganisation(sql: postgres.Sql, reference: string): Promise<Json> {
  const [row] = await sql`
    select o.reference, o.name, o.description, o.employees, o.status, o.verified, o.confidence,
      o.customers, o.suppliers, o.partners, o.service_providers as "serviceProviders",
      (select coalesce(json_agg(json_build_object('name', a.name, 'startDate', a.start_date, 'endDate', a.end_date)), '[]')
        from organisation_aliases a where a.organisation_reference = o.reference) as aliases,
      (select coalesce(json_agg(json_build_object('value', t.value, 'exchangeName', t.exchange_name,
          'exchangeCode', t.exchange_code, 'currency', t.currency, 'status', t.status, 'isPrimaryListing', t.is_primary_listing)), '[]')
        from organisation_tickers t where t.organisation_reference = o.reference) as tickers,
      (select coalesce(json_agg(json_build_object('domain', d.domain, 'confidenceScore', d.confidence_score, 'isValid', d.is_valid)), '[]')
        from organisation_domains d where d.organisation_reference = o.reference) as domains,
      (select coalesce(json_agg(json_build_object('number', p.number, 'type', p.type, 'isValid', p.is_valid)), '[]')
        from organisation_phones p where p.organisation_reference = o.reference) as phones,
      (select coalesce(json_agg(json_build_object('isPrimary', oi.is_primary, 'code', i.code, 'name', i.name, 'level', i.level)), '[]')
        from organisation_industries oi join industries i on i.code = oi.industry_code
        where oi.organisation_reference = o.reference) as industries,
      (select coalesce(json_agg(json_build_object('kind', ad.kind, 'city', ad.city, 'state', ad.state,
          'country', ad.country, 'zipPostalCode', ad.zip_postal_code)), '[]')
        from organisation_addresses ad where ad.organisation_reference = o.reference) as addresses,
      (select json_build_object('currencyCode', cs.currency_code, 'summaryType', cs.summary_type, 'publishDate', cs.publish_date)
        from client_summaries cs where cs.organisation_reference = o.reference
        order by cs.publish_date desc, cs.reference desc limit 1) as "clientSummary"
    from organisations o where o.reference = ${reference}`;
  if (!row) throw new Error(`no organisation ${reference}`);
  return wholeRecord({
    organisation: row,
    aliases: row.aliases,
    tickers: row.tickers,
    domains: row.domains,
    phones: row.phones,
    industries: row.industries,
    addresses: row.addresses,
    clientSummary: row.clientSummary,
  });
}

// --- organisations(first: 20) → every role → person → all experiences → each one's organisation ---

/** organisation → people → profile → experiences → organisation, and profile → articles → annotations. */
export const nestedArticlesQuery = /* GraphQL */ `
  query Nested($after: String) {
    organisations(first: 20, after: $after, filter: { showEmpty: true }) {
      edges {
        node {
          name
          currentExecutives {
            title
            profile {
              fullName
              experiences { occupationTitle organisation { name } }
              articles(first: 5) {
                edges { node { article { title } about { summary text } by { summary text } } }
              }
            }
          }
          currentProfessionals {
            profile { fullName experiences { organisation { name } } }
          }
          alumni { profile { fullName } }
        }
      }
    }
  }
`;

/**
 * PostGraphile's side of `nestedArticlesQuery`: every role with its person, split by the same rule as orgraph's
 * lists when normalised; a current executive's articles from the computed column `bench/peer/nested-articles.sql`.
 */
export const peerNestedArticlesQuery = /* GraphQL */ `
  query Nested($after: Cursor) {
    organisations(first: 20, after: $after, orderBy: [NAME_ASC, REFERENCE_ASC], condition: { isFund: false }) {
      nodes {
        name
        experiencesByOrganisationReference {
          nodes {
            occupationTitle endDate
            profileByProfileReference {
              fullName
              experiencesByProfileReference {
                nodes { occupationTitle organisationByOrganisationReference { name } }
              }
            }
            executiveArticles { nodes { title about by } }
          }
        }
      }
    }
  }
`;

interface NestedArticleRole {
  title: unknown;
  endDate: unknown;
  fullName: unknown;
  experiences: { title: unknown; organisation: unknown }[];
  articles: {
    title: unknown;
    about: { summary: unknown; text: unknown }[];
    by: { summary: unknown; text: unknown }[];
  }[];
}

interface NestedArticleLists {
  currentExecutives: NestedArticleRole[];
  currentProfessionals: NestedArticleRole[];
  alumni: NestedArticleRole[];
}

/** One organisation of the nested articles read: its three lists as bags, executives with their articles in order. */
function nestedArticlesOf(name: unknown, lists: NestedArticleLists): Json {
  const statements = (list: { summary: unknown; text: unknown }[]): Json =>
    list.map((a) => [text(a.summary), text(a.text)]);
  return {
    name: text(name),
    currentExecutives: bag(
      lists.currentExecutives.map((r) => [
        text(r.title),
        text(r.fullName),
        bag(r.experiences.map((e) => [text(e.title), text(e.organisation)])),
        r.articles.map((a) => [text(a.title), statements(a.about), statements(a.by)]),
      ]),
    ),
    currentProfessionals: bag(
      lists.currentProfessionals.map((r) => [
        text(r.fullName),
        bag(r.experiences.map((e) => text(e.organisation))),
      ]),
    ),
    alumni: bag(lists.alumni.map((r) => text(r.fullName))),
  };
}

interface OrgraphArticleRole {
  title?: string;
  profile: {
    fullName: string;
    experiences?: { occupationTitle?: string; organisation: { name: string } | null }[];
    articles?: { edges: { node: { article: { title: string }; about: Row[]; by: Row[] } }[] } | null;
  };
}

type Statements = NestedArticleRole['articles'][number]['about'];

export function normaliseNestedArticles(body: unknown): Json {
  const edges = (dataOf(body).organisations as { edges: { node: Row }[] }).edges;
  return edges.map(({ node }) => {
    const role = (r: OrgraphArticleRole): NestedArticleRole => ({
      title: r.title,
      endDate: null,
      fullName: r.profile.fullName,
      experiences: (r.profile.experiences ?? []).map((e) => ({
        title: e.occupationTitle,
        organisation: e.organisation?.name ?? null,
      })),
      articles: (r.profile.articles?.edges ?? []).map(({ node: item }) => ({
        title: item.article.title,
        about: item.about as Statements,
        by: item.by as Statements,
      })),
    });
    const list = (name: keyof NestedArticleLists) => (node[name] as OrgraphArticleRole[]).map(role);
    const lists = {
      currentExecutives: list('currentExecutives'),
      currentProfessionals: list('currentProfessionals'),
      alumni: list('alumni'),
    };
    // Only the executives' titles are asked for, so orgraph's split is checked against the rule on them.
    if (!lists.currentExecutives.every((r) => isExecutiveTitle(String(r.title))))
      throw new Error(`orgraph's currentExecutives of ${String(node.name)} differ from the title rule`);
    return nestedArticlesOf(node.name, lists);
  });
}

/** An organisation's roles as PostGraphile gives them: each experience with its person's name and history. */
function peerRolesOf(node: Row) {
  return (node.experiencesByOrganisationReference as { nodes: Row[] }).nodes.map((e) => {
    const person = e.profileByProfileReference as Row & { experiencesByProfileReference: { nodes: Row[] } };
    return {
      experience: e,
      title: e.occupationTitle,
      endDate: e.endDate,
      fullName: person.fullName,
      experiences: person.experiencesByProfileReference.nodes.map((x) => ({
        title: x.occupationTitle,
        organisation: (x.organisationByOrganisationReference as Row | null)?.name ?? null,
      })),
    };
  });
}

export function normalisePeerNestedArticles(body: unknown): Json {
  const nodes = (dataOf(body).organisations as { nodes: Row[] }).nodes;
  return nodes.map((node) => {
    const roles = peerRolesOf(node).map(({ experience, ...role }) => ({
      ...role,
      articles: (experience.executiveArticles as { nodes: Row[] }).nodes.map((a) => ({
        title: a.title,
        about: a.about as Statements,
        by: a.by as Statements,
      })),
    }));
    const current = roles.filter((r) => r.endDate === null);
    return nestedArticlesOf(node.name, {
      currentExecutives: current.filter((r) => isExecutiveTitle(String(r.title))),
      currentProfessionals: current.filter((r) => !isExecutiveTitle(String(r.title))),
      alumni: roles.filter((r) => r.endDate !== null),
    });
  });
}

export const nestedRolesQuery = /* GraphQL */ `
  query NestedRoles($after: String) {
    organisations(first: 20, after: $after, filter: { showEmpty: true }) {
      edges {
        node {
          name
          currentExecutives { ...Role }
          currentProfessionals { ...Role }
          alumni { ...Role }
        }
      }
    }
  }
  fragment Role on OrganisationRole {
    title startDate endDate
    profile { fullName experiences { occupationTitle organisation { name } } }
  }
`;

export const peerNestedRolesQuery = /* GraphQL */ `
  query NestedRoles($after: Cursor) {
    organisations(first: 20, after: $after, orderBy: [NAME_ASC, REFERENCE_ASC], condition: { isFund: false }) {
      nodes {
        name
        experiencesByOrganisationReference {
          nodes {
            occupationTitle startDate endDate
            profileByProfileReference {
              fullName
              experiencesByProfileReference {
                nodes { occupationTitle organisationByOrganisationReference { name } }
              }
            }
          }
        }
      }
    }
  }
`;

interface RoleShape {
  title: unknown;
  startDate: unknown;
  endDate: unknown;
  fullName: unknown;
  experiences: { title: unknown; organisation: unknown }[];
}

/**
 * One organisation's roles as three bags (current executives, current professionals, alumni), so that
 * orgraph's partition is checked too: PostGraphile returns every role and the normaliser splits them with
 * the same title rule.
 */
function rolesOf(name: unknown, roles: readonly RoleShape[]): Json {
  const role = (r: RoleShape): Json => [
    text(r.title),
    day(r.startDate),
    day(r.endDate),
    text(r.fullName),
    bag(r.experiences.map((e) => [text(e.title), text(e.organisation)])),
  ];
  const current = roles.filter((r) => r.endDate === null || r.endDate === undefined);
  return {
    name: text(name),
    currentExecutives: bag(current.filter((r) => isExecutiveTitle(String(r.title))).map(role)),
    currentProfessionals: bag(current.filter((r) => !isExecutiveTitle(String(r.title))).map(role)),
    alumni: bag(roles.filter((r) => r.endDate !== null && r.endDate !== undefined).map(role)),
  };
}

/** A role as orgraph's graph answers it in the nested read. */
export interface OrgraphRole {
  title: string;
  startDate: string | null;
  endDate: string | null;
  profile: {
    fullName: string;
    experiences: { occupationTitle: string; organisation: { name: string } | null }[];
  };
}

export function normaliseNestedRoles(body: unknown): Json {
  const edges = (dataOf(body).organisations as { edges: { node: Row }[] }).edges;
  return edges.map(({ node }) => {
    const lists = ['currentExecutives', 'currentProfessionals', 'alumni'] as const;
    const roles = lists.flatMap((list) =>
      (node[list] as OrgraphRole[]).map((r) => ({
        title: r.title,
        startDate: r.startDate,
        endDate: r.endDate,
        fullName: r.profile.fullName,
        experiences: r.profile.experiences.map((e) => ({
          title: e.occupationTitle,
          organisation: e.organisation?.name ?? null,
        })),
      })),
    );
    const normal = rolesOf(node.name, roles) as Record<string, Json>;
    // The lists as orgraph split them, checked against the rule applied to all roles.
    for (const list of lists) {
      const asSplit = rolesOf(
        node.name,
        roles.filter((_, i) => listOf(node, i) === list),
      ) as Record<string, Json>;
      if (JSON.stringify(asSplit[list]) !== JSON.stringify(normal[list]))
        throw new Error(`orgraph's ${list} of ${String(node.name)} differ from the title rule`);
    }
    return normal;
  });
}

/** Which of the three lists the `index`-th role of the concatenated lists came from. */
function listOf(node: Row, index: number): string {
  const executives = (node.currentExecutives as unknown[]).length;
  const professionals = (node.currentProfessionals as unknown[]).length;
  if (index < executives) return 'currentExecutives';
  if (index < executives + professionals) return 'currentProfessionals';
  return 'alumni';
}

export function normalisePeerNestedRoles(body: unknown): Json {
  const nodes = (dataOf(body).organisations as { nodes: Row[] }).nodes;
  return nodes.map((node) => {
    const roles = peerRolesOf(node).map(({ experience, ...role }) => ({
      ...role,
      startDate: experience.startDate,
    }));
    return rolesOf(node.name, roles);
  });
}

/** Four statements: the page, its roles with their people, those people's experiences, their organisations. */
export async function nestedRolesRows(
  sql: postgres.Sql,
  after: { name: string; reference: string },
  first = 20,
) {
  const organisations = await sql`select reference, name from organisations
    where not is_fund and (name, reference) > (${after.name}, ${after.reference}::uuid)
    order by name, reference limit ${first}`;
  const roles =
    await sql`select e.organisation_reference, e.occupation_title, e.start_date::text, e.end_date::text,
      e.profile_reference, p.full_name
    from experiences e join profiles p on p.reference = e.profile_reference
    where e.organisation_reference = any(${organisations.map((o) => o.reference)}::uuid[])`;
  const people = [...new Set(roles.map((r) => r.profile_reference as string))];
  const experiences = await sql`select profile_reference, occupation_title, organisation_reference
    from experiences where profile_reference = any(${people}::uuid[])`;
  const places = [
    ...new Set(
      experiences.flatMap((e) => (e.organisation_reference ? [e.organisation_reference as string] : [])),
    ),
  ];
  const names = await sql`select reference, name from organisations where reference = any(${places}::uuid[])`;
  return { organisations, roles, experiences, names };
}

/** The bench's hand-written nested read: {@link nestedRolesRows}, put together as the normalisers compare. */
export async function driverNestedRoles(
  sql: postgres.Sql,
  after: { name: string; reference: string },
): Promise<Json> {
  const { organisations, roles, experiences, names } = await nestedRolesRows(sql, after);
  const nameOf = new Map(names.map((o) => [o.reference as string, o.name as string]));
  const experiencesOf = new Map<string, { title: unknown; organisation: unknown }[]>();
  for (const e of experiences) {
    const list = experiencesOf.get(e.profile_reference) ?? [];
    list.push({
      title: e.occupation_title,
      organisation: e.organisation_reference ? (nameOf.get(e.organisation_reference) ?? null) : null,
    });
    experiencesOf.set(e.profile_reference, list);
  }
  return organisations.map((o) =>
    rolesOf(
      o.name,
      roles
        .filter((r) => r.organisation_reference === o.reference)
        .map((r) => ({
          title: r.occupation_title,
          startDate: r.start_date,
          endDate: r.end_date,
          fullName: r.full_name,
          experiences: experiencesOf.get(r.profile_reference) ?? [],
        })),
    ),
  );
}

/** PostGraphile's cursor for a place in `organisations(orderBy: [NAME_ASC, REFERENCE_ASC])`. */
export function peerOrganisationCursor(
  orderDigest: string,
  key: { name: string; reference: string },
): string {
  return Buffer.from(JSON.stringify([orderDigest, key.name, key.reference])).toString('base64');
}

/** The order digest PostGraphile puts first in that list's cursors, read off one of its own cursors. */
export function orderDigestOf(cursor: string): string {
  const parts = JSON.parse(Buffer.from(cursor, 'base64').toString('utf8')) as unknown[];
  if (typeof parts[0] !== 'string') throw new Error(`unexpected cursor ${cursor}`);
  return parts[0];
}

export const peerCursorProbe = `{ organisations(first: 1, orderBy: [NAME_ASC, REFERENCE_ASC], condition: { isFund: false }) { edges { cursor } } }`;
