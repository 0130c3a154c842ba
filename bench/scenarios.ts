import type postgres from 'postgres';
import type { Database } from '../src/db/database.ts';
import { describeEvents } from '../src/domain/events/describe-events.ts';
import { countEvents, findEvents, prepareEventFilter } from '../src/domain/events/find-events.ts';
import { createLoaders, type Loaders } from '../src/domain/loaders.ts';
import {
  findOrganisations,
  findOrganisationsPage,
  type OrganisationFilter,
  type OrganisationSortKey,
} from '../src/domain/organisations/find-organisations.ts';
import { getOrganisation } from '../src/domain/organisations/get-organisation.ts';
import { partitionRoles } from '../src/domain/organisations/organisation-people.ts';
import { getProfileStakes } from '../src/domain/ownership/profile-stakes.ts';
import { getProfile } from '../src/domain/profiles/get-profile.ts';
import { getProfileArticles } from '../src/domain/profiles/profile-articles.ts';
import { countSuggestions, findSuggestions } from '../src/domain/suggestions/find-suggestions.ts';
import { encodeCursor } from '../src/graphql/keyset.ts';
import { pageWindow } from '../src/rest/paging.ts';
import {
  driverBrief,
  driverNestedRoles,
  driverOrganisation,
  nestedArticlesQuery,
  nestedRolesQuery,
  normaliseBrief,
  normaliseNestedArticles,
  normaliseNestedRoles,
  normaliseOrganisation,
  normalisePeerNestedArticles,
  normalisePeerNestedRoles,
  normalisePeerOrganisation,
  normaliseRestOrganisation,
  organisationBriefQuery,
  organisationQuery,
  peerNestedArticlesQuery,
  peerNestedRolesQuery,
  peerOrganisationBriefQuery,
  peerOrganisationCursor,
  peerOrganisationQuery,
  peerRestOrganisationQuery,
} from './graph-reads.ts';
import type { Samples } from './samples.ts';

export interface HttpRequest {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
}

/**
 * Which latency target a scenario answers to: a single record, a substring search, a list with any
 * filters (count included), or a deep page.
 */
export type LatencyClass = 'single' | 'search' | 'list' | 'page';

export const latencyTargetsMs: Record<LatencyClass, number> = { single: 10, search: 50, list: 300, page: 50 };

export interface Scenario {
  name: string;
  transport: 'rest' | 'graphql';
  description: string;
  latencyClass: LatencyClass;
  /** An indexed lookup or search: its p99 should grow at most 2x from scale 10 to scale 100. */
  growthChecked: boolean;
  /** The request number `index` (the samples rotate with it). */
  request(index: number): HttpRequest;
  /**
   * The same reads without HTTP or GraphQL: the domain functions and loaders the handler or resolvers
   * call, in the same order, on a Drizzle database over the `postgres` driver.
   */
  direct(db: Database, index: number, context: DirectContext): Promise<unknown>;
  /**
   * GraphQL scenarios: `direct` is the minimal SQL written by hand (one statement per level, batched), not
   * the domain's functions; the name says so in the report.
   */
  directKind?: 'domain' | 'hand-written SQL';
  /** orgraph's answer to request `index` in the shape the peer's and the direct reads' answers are compared in. */
  normalise?(body: unknown): unknown;
  /** The same rows from PostGraphile v5, or why its generated schema cannot ask for them. */
  peer?: PeerScenario | { unsupported: string };
}

/** A scenario's request to PostGraphile v5 and its answer in the compared shape. */
export interface PeerScenario {
  request(index: number, context: PeerContext): HttpRequest;
  normalise(body: unknown): unknown;
}

/** What PostGraphile's requests need from the peer itself: the digest its list cursors start with. */
export interface PeerContext {
  organisationOrderDigest: string;
}

export interface DirectContext {
  countTimeoutMs: number;
  /** The `postgres` driver itself, for the hand-written reads. */
  sql: postgres.Sql;
}

/** What the scenarios need beyond the samples: the saved search to list events by. */
export interface ScenarioSetup {
  samples: Samples;
  queryId: string;
}

const pick = <T>(list: readonly T[], index: number): T => {
  if (list.length === 0) throw new Error('no samples to rotate through');
  return list[index % list.length]!;
};

const get = (path: string): HttpRequest => ({ method: 'GET', path });

function graphql(query: string, variables: Record<string, unknown>): HttpRequest {
  return { method: 'POST', path: '/graphql', body: JSON.stringify({ query, variables }) };
}

function query(parameters: Record<string, string | number>): string {
  return new URLSearchParams(
    Object.entries(parameters).map(([key, value]) => [key, String(value)]),
  ).toString();
}

/** The three chips of the saved search: moves that are appointments to the most common title. */
export function threeChipSearch(samples: Samples) {
  return [
    { fieldType: 'EventType', label: 'Move', value: 'move', operator: 'EQUAL' },
    { fieldType: 'Operator', label: 'and', value: 'AND' },
    { fieldType: 'MoveType', label: 'Appointment', value: 'Appointment', operator: 'EQUAL' },
    { fieldType: 'Operator', label: 'and', value: 'AND' },
    {
      fieldType: 'Occupation',
      label: samples.commonOccupation.name,
      value: samples.commonOccupation.reference,
      operator: 'EQUAL',
    },
  ];
}

// --- REST handlers' reads, as the route modules issue them ---

async function listOrganisationsDirect(
  db: Database,
  filter: OrganisationFilter,
  page: number,
  context: DirectContext,
) {
  return findOrganisationsPage(db, filter, pageWindow(page, 20), { timeoutMs: context.countTimeoutMs });
}

async function experienceViews(
  loaders: Loaders,
  experiences: Awaited<ReturnType<Loaders['experiencesByProfile']['load']>>,
) {
  return Promise.all(
    experiences.map((experience) =>
      Promise.all([
        experience.organisationReference
          ? loaders.organisationByReference.load(experience.organisationReference)
          : null,
        experience.occupationReference
          ? loaders.occupationByReference.load(experience.occupationReference)
          : null,
      ]),
    ),
  );
}

async function profileDirect(db: Database, reference: string) {
  const loaders = createLoaders(db);
  const profile = await getProfile(db, reference);
  const [history, emails] = await Promise.all([
    loaders.experiencesByProfile.load(reference),
    loaders.emailsByProfile.load(reference),
  ]);
  return { profile, emails, experiences: await experienceViews(loaders, history) };
}

async function profileArticlesDirect(db: Database, reference: string) {
  const loaders = createLoaders(db);
  const result = await getProfileArticles(db, reference, { collapse: 'latest' }, pageWindow(1, 20));
  const items = result.items.slice(0, 20);
  return loaders.eventsByArticle.loadMany(items.map((item) => item.article.reference));
}

async function eventsByQueryDirect(db: Database, queryId: string, page: number, context: DirectContext) {
  const filter = await prepareEventFilter(db, { queryId });
  const [rows] = await Promise.all([
    findEvents(db, filter, pageWindow(page, 20)),
    countEvents(db, filter, context.countTimeoutMs),
  ]);
  return describeEvents(db, rows.slice(0, 20), { includeArticles: true });
}

// --- GraphQL operations and the loads their resolvers make ---

const eventsQuery = /* GraphQL */ `
  query Events($before: DateTime) {
    events(first: 100, filter: { publishedBefore: $before }) {
      edges {
        node {
          reference eventType summary publishDate
          organisation { name }
          ... on MoveEvent {
            moveType effectiveDate
            profile { fullName }
            occupation { name }
            compensations { type value valueType valueSuffix }
          }
          ... on FundingEvent { round value currencyCode participants { fullName } }
          ... on DealEvent {
            deal { type status value valueUsd announcementDate completionDate }
            acquirer { name }
            acquiree { name }
          }
          ... on PublicOfferingEvent {
            offering { exchange ticker price sharesOffered currencyCode }
            participants { fullName }
          }
          ... on ClientSummaryEvent { clientSummary { currencyCode summaryType publishDate } }
        }
      }
    }
  }
`;

async function nestedDirect(db: Database, after: OrganisationSortKey) {
  const loaders = createLoaders(db);
  const organisations = await findOrganisations(
    db,
    { showEmpty: true },
    { limit: 21, inverted: false, after },
  );
  const organisationOf = (reference: string | null) =>
    reference ? loaders.organisationByReference.load(reference) : null;
  return Promise.all(
    organisations.slice(0, 20).map(async (organisation) => {
      const people = partitionRoles(await loaders.rolesByOrganisation.load(organisation.reference));
      return Promise.all([
        ...people.currentExecutives.map(async (role) => {
          const [experiences, articles] = await Promise.all([
            loaders.experiencesByProfile.load(role.profile.reference),
            loaders.profileArticles.load({
              reference: role.profile.reference,
              args: { options: { collapse: 'latest' }, window: { limit: 6, inverted: false } },
            }),
          ]);
          return [
            await Promise.all(experiences.map((e) => organisationOf(e.organisationReference))),
            articles,
          ];
        }),
        ...people.currentProfessionals.map(async (role) => {
          const experiences = await loaders.experiencesByProfile.load(role.profile.reference);
          return Promise.all(experiences.map((e) => organisationOf(e.organisationReference)));
        }),
      ]);
    }),
  );
}

async function eventsDirect(db: Database, before: string) {
  const loaders = createLoaders(db);
  const filter = await prepareEventFilter(db, { publishedBefore: new Date(before) });
  const events = (await findEvents(db, filter, { limit: 101, inverted: false })).slice(0, 100);
  const organisationOf = (reference: string | null) =>
    reference ? loaders.organisationByReference.load(reference) : null;
  return Promise.all(
    events.map((event) => {
      const loads: Promise<unknown>[] = [Promise.resolve(organisationOf(event.organisationReference))];
      if (event.type === 'move') {
        if (event.profileReference) loads.push(loaders.profileByReference.load(event.profileReference));
        if (event.occupationReference)
          loads.push(loaders.occupationByReference.load(event.occupationReference));
      } else if (event.type === 'funding' || event.type === 'public_offering') {
        loads.push(loaders.participantsByEvent.load(event.reference));
      } else if (event.type === 'deal') {
        loads.push(Promise.resolve(organisationOf(event.acquirerReference)));
        loads.push(Promise.resolve(organisationOf(event.acquireeReference)));
      } else if (event.type === 'client_summary' && event.clientSummaryReference) {
        loads.push(loaders.clientSummaryByReference.load(event.clientSummaryReference));
      }
      return Promise.all(loads);
    }),
  );
}

/** Every scenario of the benchmark, in the order they run and print. */
export function createScenarios({ samples, queryId }: ScenarioSetup): Scenario[] {
  const organisation = (index: number) => pick(samples.organisations, index);
  const broadPage = 500;
  return [
    {
      name: 'rest-organisation',
      transport: 'rest',
      description: 'GET /v1/organisations/{reference}',
      latencyClass: 'single',
      growthChecked: true,
      request: (index) => get(`/v1/organisations/${organisation(index).reference}`),
      direct: (db, index) => getOrganisation(db, organisation(index).reference),
      normalise: normaliseRestOrganisation,
      peer: {
        request: (index) => graphql(peerRestOrganisationQuery, { reference: organisation(index).reference }),
        normalise: normalisePeerOrganisation,
      },
    },
    {
      name: 'rest-organisations-name',
      transport: 'rest',
      description: 'GET /v1/organisations?name=<3-6 chars of a real name>&show_empty=true',
      latencyClass: 'search',
      growthChecked: true,
      request: (index) =>
        get(`/v1/organisations?${query({ name: pick(samples.nameFragments, index), show_empty: 'true' })}`),
      direct: (db, index, context) =>
        listOrganisationsDirect(
          db,
          { name: pick(samples.nameFragments, index), showEmpty: true },
          1,
          context,
        ),
    },
    {
      name: 'rest-organisations-filters',
      transport: 'rest',
      description:
        'GET /v1/organisations?country&status&industry&min_confidence (values of a real organisation)',
      latencyClass: 'list',
      growthChecked: false,
      request: (index) => {
        const f = pick(samples.filterCombinations, index);
        return get(
          `/v1/organisations?${query({ country: f.country, status: f.status, industry: f.industry, min_confidence: f.minConfidence })}`,
        );
      },
      direct: (db, index, context) => {
        const f = pick(samples.filterCombinations, index);
        const filter: OrganisationFilter = {
          country: f.country,
          status: f.status as OrganisationFilter['status'],
          industry: f.industry,
          minConfidence: f.minConfidence,
        };
        return listOrganisationsDirect(db, filter, 1, context);
      },
    },
    {
      name: 'rest-organisations-page500',
      transport: 'rest',
      description: `GET /v1/organisations?page=${broadPage} (the default broad list)`,
      latencyClass: 'page',
      growthChecked: false,
      request: () => get(`/v1/organisations?page=${broadPage}`),
      direct: (db, _index, context) => listOrganisationsDirect(db, {}, broadPage, context),
    },
    {
      name: 'rest-profile',
      transport: 'rest',
      description: 'GET /v1/profiles/{reference}',
      latencyClass: 'single',
      growthChecked: true,
      request: (index) => get(`/v1/profiles/${pick(samples.profiles, index)}`),
      direct: (db, index) => profileDirect(db, pick(samples.profiles, index)),
    },
    {
      name: 'rest-profile-articles',
      transport: 'rest',
      description: 'GET /v1/profiles/{reference}/articles?collapse=latest (people with statements)',
      latencyClass: 'list',
      growthChecked: true,
      request: (index) =>
        get(`/v1/profiles/${pick(samples.profilesWithArticles, index)}/articles?collapse=latest`),
      direct: (db, index) => profileArticlesDirect(db, pick(samples.profilesWithArticles, index)),
    },
    {
      name: 'rest-profile-ownership',
      transport: 'rest',
      description: 'GET /v1/profiles/{reference}/ownership (people with stakes)',
      latencyClass: 'single',
      growthChecked: true,
      request: (index) => get(`/v1/profiles/${pick(samples.profilesWithStakes, index)}/ownership`),
      direct: (db, index) => getProfileStakes(db, pick(samples.profilesWithStakes, index)),
    },
    {
      name: 'rest-events-search',
      transport: 'rest',
      description: 'GET /v1/events?queryId=<three-chip search>&page=1..10',
      latencyClass: 'list',
      growthChecked: false,
      request: (index) => get(`/v1/events?${query({ queryId, page: 1 + (index % 10) })}`),
      direct: (db, index, context) => eventsByQueryDirect(db, queryId, 1 + (index % 10), context),
    },
    {
      name: 'rest-suggestions',
      transport: 'rest',
      description: 'GET /v1/search/suggestions?query=<3-6 chars of an organisation or occupation name>',
      latencyClass: 'search',
      growthChecked: true,
      request: (index) =>
        get(`/v1/search/suggestions?${query({ query: pick(samples.suggestionQueries, index) })}`),
      direct: (db, index, context) => {
        const text = pick(samples.suggestionQueries, index);
        return Promise.all([
          findSuggestions(db, text, pageWindow(1, 20)),
          countSuggestions(db, text, context.countTimeoutMs),
        ]);
      },
    },
    {
      name: 'graphql-organisation-brief',
      transport: 'graphql',
      description: 'organisation(reference) with 7 scalar fields',
      latencyClass: 'single',
      growthChecked: true,
      request: (index) => graphql(organisationBriefQuery, { reference: organisation(index).reference }),
      direct: (_db, index, context) => driverBrief(context.sql, organisation(index).reference),
      directKind: 'hand-written SQL',
      normalise: normaliseBrief,
      peer: {
        request: (index) => graphql(peerOrganisationBriefQuery, { reference: organisation(index).reference }),
        normalise: normaliseBrief,
      },
    },
    {
      name: 'graphql-organisation',
      transport: 'graphql',
      description: 'organisation(reference) with every part of the single record',
      latencyClass: 'single',
      growthChecked: true,
      request: (index) => graphql(organisationQuery, { reference: organisation(index).reference }),
      direct: (_db, index, context) => driverOrganisation(context.sql, organisation(index).reference),
      directKind: 'hand-written SQL',
      normalise: normaliseOrganisation,
      peer: {
        request: (index) => graphql(peerOrganisationQuery, { reference: organisation(index).reference }),
        normalise: normalisePeerOrganisation,
      },
    },
    {
      name: 'graphql-nested-roles',
      transport: 'graphql',
      description:
        'organisations(first: 20) → every role (current executives, current professionals, alumni) → person → all experiences → organisation',
      latencyClass: 'list',
      growthChecked: false,
      request: (index) => {
        const { name, reference } = organisation(index);
        return graphql(nestedRolesQuery, { after: encodeCursor({ name, reference }) });
      },
      direct: (_db, index, context) => driverNestedRoles(context.sql, organisation(index)),
      directKind: 'hand-written SQL',
      normalise: normaliseNestedRoles,
      peer: {
        request: (index, context) =>
          graphql(peerNestedRolesQuery, {
            after: peerOrganisationCursor(context.organisationOrderDigest, organisation(index)),
          }),
        normalise: normalisePeerNestedRoles,
      },
    },
    {
      name: 'graphql-nested',
      transport: 'graphql',
      description:
        'organisations(first: 20) → people → profile → experiences → organisation, profile → articles(first: 5) → annotations',
      latencyClass: 'list',
      growthChecked: false,
      request: (index) => {
        const { name, reference } = organisation(index);
        return graphql(nestedArticlesQuery, { after: encodeCursor({ name, reference }) });
      },
      direct: (db, index) => {
        const { name, reference } = organisation(index);
        return nestedDirect(db, { name, reference });
      },
      directKind: 'domain',
      normalise: normaliseNestedArticles,
      peer: {
        request: (index, context) =>
          graphql(peerNestedArticlesQuery, {
            after: peerOrganisationCursor(context.organisationOrderDigest, organisation(index)),
          }),
        normalise: normalisePeerNestedArticles,
      },
    },
    {
      name: 'graphql-events',
      transport: 'graphql',
      description: 'events(first: 100, publishedBefore) with the data of each type',
      latencyClass: 'list',
      growthChecked: false,
      request: (index) => graphql(eventsQuery, { before: pick(samples.eventInstants, index) }),
      direct: (db, index) => eventsDirect(db, pick(samples.eventInstants, index)),
    },
  ];
}
