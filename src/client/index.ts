/**
 * The typed TypeScript client of orgraph, shipped as `orgraph/client`: one method per `/v1` endpoint (types
 * generated from the OpenAPI document), async iterators over the paginated lists, retries on 429 and 503, and
 * `graphql()` for typed GraphQL documents.
 */
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { type GraphQLFormattedError, getOperationAST, print } from 'graphql';
import createClient from 'openapi-fetch';
import { OrgraphApiError, OrgraphGraphqlError, OrgraphPageLimitError } from './errors.ts';
import type { paths } from './openapi.gen.ts';
import { type IterateOptions, iteratePages } from './paging.ts';
import { type FetchLike, parseRetryAfter, type RetryOptions, retrying } from './retry.ts';

export type { FetchLike, IterateOptions, paths, RetryOptions };
export { OrgraphApiError, OrgraphGraphqlError, OrgraphPageLimitError };

type QueryOf<Path extends keyof paths> = paths[Path]['get'] extends { parameters: { query?: infer Query } }
  ? NonNullable<Query>
  : never;

/** One page of a list: its rows, the paging object (`meta`) and the request's correlation id. */
export interface Page<Row, Meta = PageMeta> {
  rows: Row[];
  meta: Meta;
  correlationId: string;
}

export type Chip = NonNullable<
  paths['/v1/search/events']['post']['requestBody']
>['content']['application/json']['query'][number];

export type SuggestionQuery = QueryOf<'/v1/search/suggestions'>;
export type OrganisationQuery = QueryOf<'/v1/organisations'>;
export type ProfileQuery = QueryOf<'/v1/profiles'>;
export type ProfileArticleQuery = QueryOf<'/v1/profiles/{profileReference}/articles'>;
export type EventQuery = QueryOf<'/v1/events'>;

export interface OrgraphClientOptions {
  /** Where the service listens, e.g. `http://localhost:4000` (no `/v1`). */
  baseUrl: string;
  /** An API token (`orgr_…`), sent as `Authorization: Bearer <token>`. */
  token: string;
  /** The fetch to send requests with; the global `fetch` by default. */
  fetch?: FetchLike;
  /** Retries on 429 and 503; see `RetryOptions`. */
  retry?: RetryOptions;
}

/** Variables are optional for operations that declare none, or only optional ones. */
type VariablesArgument<Variables> =
  Record<string, never> extends Variables ? [variables?: Variables] : [variables: Variables];

interface Sent<Data> {
  data?: Data;
  error?: unknown;
  response: Response;
}

/** The envelope's payload, or an `OrgraphApiError` carrying the envelope's messages. */
async function unwrap<Data>(sent: Promise<Sent<Data>>): Promise<Data> {
  const { data, error, response } = await sent;
  if (data !== undefined && response.ok) return data;
  throw errorFrom(response, error);
}

function errorFrom(response: Response, body: unknown): OrgraphApiError {
  const envelope = body as { status?: { messages?: unknown }; correlation_id?: unknown } | undefined;
  const messages = Array.isArray(envelope?.status?.messages)
    ? envelope.status.messages.map(String)
    : [typeof body === 'string' && body ? body : response.statusText];
  const correlationId =
    typeof envelope?.correlation_id === 'string'
      ? envelope.correlation_id
      : (response.headers.get('X-Correlation-ID') ?? undefined);
  const retryAfterMs = parseRetryAfter(response.headers.get('Retry-After'));
  return new OrgraphApiError(
    response.status,
    messages,
    correlationId,
    retryAfterMs === undefined ? undefined : Math.ceil(retryAfterMs / 1000),
  );
}

function pageOf<Row, Meta>(body: { success: Row[]; meta: Meta; correlation_id: string }): Page<Row, Meta> {
  return { rows: body.success, meta: body.meta, correlationId: body.correlation_id };
}

/** Creates a client; every method throws `OrgraphApiError` on an error status. */
export function createOrgraphClient(options: OrgraphClientOptions) {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const send = retrying(options.fetch ?? ((request) => fetch(request)), options.retry);
  const headers = { Authorization: `Bearer ${options.token}`, Accept: 'application/json' };
  const api = createClient<paths>({ baseUrl, headers, fetch: send });

  const client = {
    /** `POST /v1/search/events`: saves chips as a search; pass `queryId` to `listEvents`. */
    saveEventSearch: async (query: Chip[]) =>
      (await unwrap(api.POST('/v1/search/events', { body: { query } }))).success,

    /** `GET /v1/search/suggestions`: one page of filter values whose names contain `query`. */
    listSuggestions: async (query: SuggestionQuery) =>
      pageOf(await unwrap(api.GET('/v1/search/suggestions', { params: { query } }))),

    /** `GET /v1/organisations`: one page of organisations matching every given filter. */
    listOrganisations: async (query: OrganisationQuery = {}) =>
      pageOf(await unwrap(api.GET('/v1/organisations', { params: { query } }))),

    /** `GET /v1/organisations/{organisationReference}`. */
    getOrganisation: async (organisationReference: string) =>
      (
        await unwrap(
          api.GET('/v1/organisations/{organisationReference}', {
            params: { path: { organisationReference } },
          }),
        )
      ).success,

    /** `GET /v1/organisations/{organisationReference}/people`: current executives, professionals and alumni. */
    getOrganisationPeople: async (organisationReference: string) =>
      (
        await unwrap(
          api.GET('/v1/organisations/{organisationReference}/people', {
            params: { path: { organisationReference } },
          }),
        )
      ).success,

    /** `GET /v1/organisations/{organisationReference}/ownership`: owners and subsidiaries. */
    getOrganisationOwnership: async (organisationReference: string) =>
      (
        await unwrap(
          api.GET('/v1/organisations/{organisationReference}/ownership', {
            params: { path: { organisationReference } },
          }),
        )
      ).success,

    /** `GET /v1/profiles`: one page of people, by surname then first name. */
    listProfiles: async (query: ProfileQuery = {}) =>
      pageOf(await unwrap(api.GET('/v1/profiles', { params: { query } }))),

    /** `GET /v1/profiles/{profileReference}`. */
    getProfile: async (profileReference: string) =>
      (await unwrap(api.GET('/v1/profiles/{profileReference}', { params: { path: { profileReference } } })))
        .success,

    /** `GET /v1/profiles/{profileReference}/articles`: one page of articles about or by the person, newest first. */
    listProfileArticles: async (profileReference: string, query: ProfileArticleQuery = {}) =>
      pageOf(
        await unwrap(
          api.GET('/v1/profiles/{profileReference}/articles', {
            params: { path: { profileReference }, query },
          }),
        ),
      ),

    /** `GET /v1/profiles/{profileReference}/ownership`: the person's stakes (empty when none, or unknown). */
    getProfileOwnership: async (profileReference: string) =>
      (
        await unwrap(
          api.GET('/v1/profiles/{profileReference}/ownership', { params: { path: { profileReference } } }),
        )
      ).success,

    /** `GET /v1/articles/{articleReference}`. */
    getArticle: async (articleReference: string) =>
      (await unwrap(api.GET('/v1/articles/{articleReference}', { params: { path: { articleReference } } })))
        .success,

    /** `GET /v1/events/{eventReference}`. */
    getEvent: async (eventReference: string) =>
      (await unwrap(api.GET('/v1/events/{eventReference}', { params: { path: { eventReference } } })))
        .success,

    /** `GET /v1/events`: one page of events, filtered by `eventType` or a saved search's `queryId`. */
    listEvents: async (query: EventQuery = {}) =>
      pageOf(await unwrap(api.GET('/v1/events', { params: { query } }))),

    /** Every suggestion matching `query`, page after page (see `IterateOptions`). */
    allSuggestions: (query: SuggestionQuery, iterate?: IterateOptions) =>
      iteratePages((page) => client.listSuggestions({ ...query, page }), query.page ?? 1, iterate),

    /**
     * Every organisation matching the filters, page after page. Without filters the service applies its defaults
     * (active organisations with confidence 5 or more, funds excluded); pass `show_empty: 'true'`, `type: 'all'`
     * and `status: 'all'` for every organisation.
     */
    allOrganisations: (query: OrganisationQuery = {}, iterate?: IterateOptions) =>
      iteratePages((page) => client.listOrganisations({ ...query, page }), query.page ?? 1, iterate),

    /** Every profile matching the filters, page after page. */
    allProfiles: (query: ProfileQuery = {}, iterate?: IterateOptions) =>
      iteratePages((page) => client.listProfiles({ ...query, page }), query.page ?? 1, iterate),

    /** Every article item of a person, page after page. */
    allProfileArticles: (
      profileReference: string,
      query: ProfileArticleQuery = {},
      iterate?: IterateOptions,
    ) =>
      iteratePages(
        (page) => client.listProfileArticles(profileReference, { ...query, page }),
        query.page ?? 1,
        iterate,
      ),

    /** Every event matching the filters, page after page. */
    allEvents: (query: EventQuery = {}, iterate?: IterateOptions) =>
      iteratePages((page) => client.listEvents({ ...query, page }), query.page ?? 1, iterate),

    /**
     * Runs a typed GraphQL document (from `orgraph/client/graphql`, or your own generated ones) and returns its
     * data; a response with errors throws `OrgraphGraphqlError` carrying the partial data.
     */
    graphql: async <Data, Variables>(
      document: TypedDocumentNode<Data, Variables>,
      ...[variables]: VariablesArgument<Variables>
    ) => {
      const operationName = getOperationAST(document)?.name?.value;
      const response = await send(
        new Request(`${baseUrl}/graphql`, {
          method: 'POST',
          headers: { ...headers, 'Content-Type': 'application/json' },
          body: JSON.stringify({ query: print(document), variables: variables ?? {}, operationName }),
        }),
      );
      const body = (await response.json().catch(() => undefined)) as
        | { data?: Data | null; errors?: GraphQLFormattedError[] }
        | undefined;
      if (!body || !('data' in body || 'errors' in body)) throw errorFrom(response, body);
      const correlationId = response.headers.get('X-Correlation-ID') ?? undefined;
      if (body.errors?.length || body.data == null) {
        throw new OrgraphGraphqlError(body.errors ?? [], body.data, correlationId);
      }
      return body.data;
    },
  };
  // The document's operation names for the two methods named before operations had ids.
  return {
    ...client,
    listOrganisationPeople: client.getOrganisationPeople,
    listProfileOwnership: client.getProfileOwnership,
  };
}

export type OrgraphClient = ReturnType<typeof createOrgraphClient>;
type Resolved<Method extends keyof OrgraphClient> = Awaited<ReturnType<OrgraphClient[Method]>>;

export type PageMeta = Resolved<'listOrganisations'>['meta'];
export type SavedSearch = Resolved<'saveEventSearch'>;
export type Suggestion = Resolved<'listSuggestions'>['rows'][number];
export type OrganisationListRow = Resolved<'listOrganisations'>['rows'][number];
export type Organisation = Resolved<'getOrganisation'>;
export type OrganisationPeople = Resolved<'getOrganisationPeople'>;
export type OrganisationOwnership = Resolved<'getOrganisationOwnership'>;
export type ProfileListRow = Resolved<'listProfiles'>['rows'][number];
export type Profile = Resolved<'getProfile'>;
export type ProfileArticleItem = Resolved<'listProfileArticles'>['rows'][number];
export type ProfileOwnershipItem = Resolved<'getProfileOwnership'>[number];
export type Article = Resolved<'getArticle'>;
export type EventRecord = Resolved<'getEvent'>;
