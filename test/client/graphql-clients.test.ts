import { readFileSync } from 'node:fs';
import { ApolloClient, ApolloLink, gql, HttpLink, InMemoryCache } from '@apollo/client';
import { Defer20220824Handler } from '@apollo/client/incremental';
import { PersistedQueryLink } from '@apollo/client/link/persisted-queries';
import { relayStylePagination } from '@apollo/client/utilities';
import { Client, fetchExchange, gql as urqlGql } from '@urql/core';
import { cacheExchange } from '@urql/exchange-graphcache';
import { relayPagination } from '@urql/exchange-graphcache/extras';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderGraphqlSetup, setupFile } from '../../scripts/generate-graphql-setup.ts';
import {
  embeddedTypes,
  graphcacheKeys,
  possibleTypes,
  scalarTypes,
} from '../../src/client/graphql-setup/schema-setup.gen.ts';
import { sha256Hex } from '../../src/graphql/plugins/use-persisted-queries.ts';
import { createApp } from '../../src/server/app.ts';
import { openTestApp, type TestApp } from '../support/test-app.ts';

let app: TestApp;
let service: ReturnType<typeof createApp>;
/** What each client sent to /graphql: the method, and the parsed body or query string. */
let sent: { method: string; query?: string; hash?: string; accept: string }[];

beforeAll(async () => {
  app = await openTestApp();
  service = createApp(app.services);
});
afterAll(() => app.close());

/** The clients' fetch: in-process, authenticated, recording what each request carries. */
async function recordingFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const request = new Request(input, init);
  request.headers.set('Authorization', `Bearer ${app.tokens.enterprise}`);
  const url = new URL(request.url);
  const params =
    request.method === 'GET'
      ? {
          query: url.searchParams.get('query') ?? undefined,
          extensions: JSON.parse(url.searchParams.get('extensions') ?? '{}'),
        }
      : await request.clone().json();
  sent.push({
    method: request.method,
    query: params.query,
    hash: params.extensions?.persistedQuery?.sha256Hash,
    accept: request.headers.get('Accept') ?? '',
  });
  return service.fetch(request);
}

let warnings: unknown[][];
beforeEach(() => {
  sent = [];
  warnings = [];
  for (const method of ['warn', 'error'] as const) {
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      warnings.push([method, ...args]);
    });
  }
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('the shipped client setup', () => {
  it('is generated from schema.graphql (regenerate with `npm run client:setup`)', () => {
    expect(
      readFileSync(setupFile, 'utf8') === renderGraphqlSetup(),
      'stale: run `npm run client:setup`',
    ).toBe(true);
  });

  it('maps every custom scalar and names the implementations of every interface and union', () => {
    expect(Object.keys(scalarTypes).sort()).toEqual([
      'CountryCode',
      'Date',
      'DateTime',
      'JSON',
      'URL',
      'UUID',
    ]);
    expect(possibleTypes.Event).toEqual([
      'ClientSummaryEvent',
      'DealEvent',
      'FundingEvent',
      'MoveEvent',
      'PublicOfferingEvent',
    ]);
    expect(embeddedTypes).toEqual(
      expect.arrayContaining(['PageInfo', 'TotalCount', 'OrganisationConnection']),
    );
    expect(embeddedTypes).not.toContain('Organisation');
  });
});

const organisationsWithEvents = gql`
  query OrganisationsWithEvents($first: Int!, $after: String) {
    organisations(first: $first, after: $after) {
      pageInfo {
        hasNextPage
        endCursor
      }
      edges {
        node {
          id
          name
          events(first: 3) {
            edges {
              node {
                id
                eventType
                ... on MoveEvent {
                  moveType
                  profile {
                    id
                    fullName
                  }
                }
              }
            }
          }
        }
      }
    }
  }
`;

function apolloClient(options: { persisted: boolean; get?: boolean }) {
  const http = new HttpLink({ uri: 'http://orgraph.test/graphql', fetch: recordingFetch });
  const persisted = new PersistedQueryLink({
    sha256: (text: string) => sha256Hex(text),
    useGETForHashedQueries: options.get ?? false,
  });
  const link = options.persisted ? ApolloLink.from([persisted, http]) : http;
  return new ApolloClient({
    link,
    cache: new InMemoryCache({
      possibleTypes,
      typePolicies: { Query: { fields: { organisations: relayStylePagination() } } },
    }),
    incrementalHandler: new Defer20220824Handler(),
  });
}

interface OrganisationsPage {
  organisations: {
    pageInfo: { hasNextPage: boolean; endCursor: string };
    edges: {
      node: {
        id: string;
        name: string;
        events: {
          edges: { node: { id: string; eventType: string; moveType?: string | null; profile?: unknown } }[];
        };
      };
    }[];
  };
}

describe('Apollo Client 4', () => {
  it('registers a persisted query on first use, then sends its hash alone', async () => {
    const first = await apolloClient({ persisted: true }).query<OrganisationsPage>({
      query: organisationsWithEvents,
      variables: { first: 3 },
    });
    expect(sent.map((request) => [Boolean(request.query), Boolean(request.hash)])).toEqual([
      [false, true],
      [true, true],
    ]);
    const registered = sent[1]!.hash;
    expect(registered).toBe(sha256Hex(sent[1]!.query!));
    expect(sent[0]!.hash).toBe(registered);

    sent = [];
    const second = await apolloClient({ persisted: true }).query<OrganisationsPage>({
      query: organisationsWithEvents,
      variables: { first: 3 },
    });
    expect(sent).toEqual([expect.objectContaining({ query: undefined, hash: registered })]);
    expect(second.data).toEqual(first.data);

    // Over GET, as a CDN would cache it.
    sent = [];
    const overGet = await apolloClient({ persisted: true, get: true }).query<OrganisationsPage>({
      query: organisationsWithEvents,
      variables: { first: 3 },
    });
    expect(sent).toEqual([expect.objectContaining({ method: 'GET', query: undefined, hash: registered })]);
    expect(overGet.data).toEqual(first.data);
    expect(warnings).toEqual([]);
  });

  it('reads the fields of `... on MoveEvent` through the shipped possibleTypes', async () => {
    const { data } = await apolloClient({ persisted: false }).query<OrganisationsPage>({
      query: organisationsWithEvents,
      variables: { first: 20 },
    });
    const events = data!.organisations.edges.flatMap((edge) => edge.node.events.edges.map((e) => e.node));
    // Without possibleTypes Apollo leaves out every field selected through `... on MoveEvent`.
    const moves = events.filter((event) => 'moveType' in event);
    expect(events.length).toBeGreaterThan(0);
    expect(moves.length).toBeGreaterThan(0);
    for (const move of moves) expect(move).toHaveProperty('profile');
    expect(warnings).toEqual([]);
  });

  it('pages with relayStylePagination, merging pages without duplicates', async () => {
    const client = apolloClient({ persisted: false });
    const observable = client.watchQuery<OrganisationsPage>({
      query: organisationsWithEvents,
      variables: { first: 4 },
    });
    const pages: OrganisationsPage[] = [];
    const subscription = observable.subscribe({
      next: (result) => {
        if (result.data && result.dataState === 'complete') pages.push(result.data as OrganisationsPage);
      },
    });
    await vi.waitFor(() => expect(pages.length).toBeGreaterThan(0), { timeout: 10_000 });
    const firstPage = pages.at(-1)!.organisations;
    expect(firstPage.pageInfo.hasNextPage).toBe(true);
    await observable.fetchMore({ variables: { after: firstPage.pageInfo.endCursor } });
    await vi.waitFor(() => expect(pages.at(-1)!.organisations.edges.length).toBe(8), { timeout: 10_000 });
    subscription.unsubscribe();
    const ids = pages.at(-1)!.organisations.edges.map((edge) => edge.node.id);
    expect(new Set(ids).size).toBe(8);
    expect(ids.slice(0, 4)).toEqual(firstPage.edges.map((edge) => edge.node.id));
    expect(warnings).toEqual([]);
  });

  it('receives the deferred part of a @defer query', async () => {
    const query = gql`
      query DeferredEvents {
        organisations(first: 2) {
          edges {
            node {
              id
              name
              ... @defer {
                events(first: 2) {
                  edges {
                    node {
                      id
                      eventType
                    }
                  }
                }
              }
            }
          }
        }
      }
    `;
    const results: { data: unknown; dataState: string }[] = [];
    const subscription = apolloClient({ persisted: false })
      .watchQuery({ query })
      .subscribe({ next: (result) => results.push({ data: result.data, dataState: result.dataState }) });
    await vi.waitFor(() => expect(results.at(-1)?.dataState).toBe('complete'), { timeout: 10_000 });
    subscription.unsubscribe();
    expect(sent[0]!.accept).toMatch(/multipart\/mixed/);
    const final = results.at(-1)!.data as {
      organisations: { edges: { node: { name: string; events: { edges: unknown[] } } }[] };
    };
    expect(final.organisations.edges).toHaveLength(2);
    for (const edge of final.organisations.edges) expect(Array.isArray(edge.node.events.edges)).toBe(true);
    // The first part arrived without the deferred fields.
    expect(results.some((result) => result.dataState === 'streaming')).toBe(true);
    expect(warnings).toEqual([]);
  });
});

describe('urql with Graphcache', () => {
  it('pages with relayPagination and the shipped keys, without a warning', async () => {
    const client = new Client({
      url: 'http://orgraph.test/graphql',
      fetch: recordingFetch,
      exchanges: [
        cacheExchange({ keys: graphcacheKeys, resolvers: { Query: { organisations: relayPagination() } } }),
        fetchExchange,
      ],
    });
    const query = urqlGql`
      query Organisations($first: Int!, $after: String) {
        organisations(first: $first, after: $after) {
          totalCount { value isEstimate }
          pageInfo { hasNextPage endCursor }
          edges { cursor node { id name currentExecutives { title profile { id fullName } } } }
        }
      }
    `;
    const first = await client.query(query, { first: 3 }).toPromise();
    expect(first.error).toBeUndefined();
    const endCursor = first.data.organisations.pageInfo.endCursor;
    const second = await client.query(query, { first: 3, after: endCursor }).toPromise();
    expect(second.error).toBeUndefined();
    const ids = second.data.organisations.edges.map((edge: { node: { id: string } }) => edge.node.id);
    expect(ids).toHaveLength(6);
    expect(new Set(ids).size).toBe(6);
    expect(warnings).toEqual([]);
  });
});
