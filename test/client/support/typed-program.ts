/**
 * A program a new user would write against clients generated from `GET /v1/openapi.json`: every one of the
 * thirteen operations through openapi-typescript + openapi-fetch and through @hey-api/openapi-ts, with
 * realistic values, event data narrowed on `event_type`, booleans passed as booleans and an event
 * organisation value built by hand. It is written out beside the generated code and compiled under
 * `tsc --strict`; it holds no cast and no `any`.
 */
export const typedProgramSource = `
import createClient from 'openapi-fetch';
import { createClient as createHeyClient, createConfig } from './hey/client/index.js';
import * as hey from './hey/sdk.gen.js';
import type { DealEventData as HeyDealEventData, Event as HeyEvent } from './hey/types.gen.js';
import type { components, operations, paths } from './openapi-typescript.js';

type Event = components['schemas']['Event'];

/** One line per event, reading fields only its type has. */
export function describeEvent(event: Event | HeyEvent): string {
  switch (event.event_type) {
    case 'move':
      return \`move:\${event.data.move_type ?? ''}:\${event.data.articles.length}\`;
    case 'funding':
      return \`funding:\${event.data.round ?? ''}:\${event.data.participants.length}\`;
    case 'deal':
      return \`deal:\${event.data.deal?.status ?? ''}:\${event.data.acquirer?.name ?? ''}\`;
    case 'public_offering':
      return \`public_offering:\${event.data.offering?.ticker ?? ''}\`;
    case 'client_summary':
      return \`client_summary:\${event.data.entries.length}\`;
  }
}

/** An event organisation value and nullable ones, as a consumer builds them. */
export function dealData(reference: string, name: string): [components['schemas']['DealEventData'], HeyDealEventData] {
  const acquirer: components['schemas']['EventOrganisationRef'] = { reference, name };
  return [
    { organisation: acquirer, acquirer, acquiree: null, deal: null },
    { organisation: null, acquirer: { reference, name }, acquiree: null, deal: null },
  ];
}

export interface Outcome {
  statuses: Record<string, number>;
  events: string[];
  currentOrganisation?: string | null;
}

type OperationName = keyof operations;

export async function runOpenapiFetch(baseUrl: string, token: string, fetch: typeof globalThis.fetch): Promise<Outcome> {
  const client = createClient<paths>({
    baseUrl,
    fetch,
    headers: { Authorization: \`Bearer \${token}\` },
    querySerializer: { array: { style: 'form', explode: false } },
  });
  const statuses: Partial<Record<OperationName, number>> = {};
  const organisations = await client.GET('/v1/organisations', {
    params: { query: { verified: true, has_raum: false, activity_type: ['move', 'funding'], limit: 5 } },
  });
  statuses.listOrganisations = organisations.response.status;
  const everyOrganisation = await client.GET('/v1/organisations', { params: { query: { limit: 1 } } });
  const organisationReference = everyOrganisation.data?.success[0]?.reference ?? '';
  const path = { params: { path: { organisationReference } } };
  statuses.getOrganisation = (await client.GET('/v1/organisations/{organisationReference}', path)).response.status;
  statuses.listOrganisationPeople = (await client.GET('/v1/organisations/{organisationReference}/people', path)).response.status;
  statuses.getOrganisationOwnership = (await client.GET('/v1/organisations/{organisationReference}/ownership', path)).response.status;

  const profiles = await client.GET('/v1/profiles', { params: { query: { profileType: 'business_owner', limit: 3 } } });
  statuses.listProfiles = profiles.response.status;
  const profileReference = profiles.data?.success[0]?.reference ?? '';
  const person = { params: { path: { profileReference } } };
  const profile = await client.GET('/v1/profiles/{profileReference}', person);
  statuses.getProfile = profile.response.status;
  const role = profile.data?.success.current_role;
  const currentOrganisation: string | null = role ? role.organisation : null;
  statuses.listProfileArticles = (await client.GET('/v1/profiles/{profileReference}/articles', {
    params: { path: { profileReference }, query: { collapse: 'none', limit: 2 } },
  })).response.status;
  statuses.listProfileOwnership = (await client.GET('/v1/profiles/{profileReference}/ownership', person)).response.status;

  const events = await client.GET('/v1/events', { params: { query: { published_after: '2000-01-01', limit: 200 } } });
  statuses.listEvents = events.response.status;
  const rows = events.data?.success ?? [];
  const move = rows.find((event) => event.event_type === 'move' && event.data.articles.length > 0);
  const eventReference = move?.reference ?? rows[0]?.reference ?? '';
  const event = await client.GET('/v1/events/{eventReference}', { params: { path: { eventReference } } });
  statuses.getEvent = event.response.status;
  let articleReference = '';
  if (event.data?.success.event_type === 'move') articleReference = event.data.success.data.articles[0]?.reference ?? '';
  if (articleReference) {
    statuses.getArticle = (await client.GET('/v1/articles/{articleReference}', { params: { path: { articleReference } } })).response.status;
  }
  const saved = await client.POST('/v1/search/events', {
    body: { query: [{ fieldType: 'EventType', label: 'Deal', value: 'deal', operator: 'EQUAL' }] },
  });
  statuses.saveEventSearch = saved.response.status;
  const queryId = saved.data?.success.queryId;
  if (queryId) await client.GET('/v1/events', { params: { query: { queryId } } });
  statuses.listSuggestions = (await client.GET('/v1/search/suggestions', { params: { query: { query: 'capital' } } })).response.status;
  return { statuses, events: rows.map(describeEvent), currentOrganisation };
}

export async function runHeyApi(baseUrl: string, token: string, fetch: typeof globalThis.fetch): Promise<Outcome> {
  const client = createHeyClient(createConfig({ baseUrl, fetch, auth: token }));
  const statuses: Partial<Record<OperationName, number>> = {};
  const organisations = await hey.listOrganisations({
    client,
    query: { verified: true, has_raum: false, activity_type: ['move', 'funding'], limit: 5 },
  });
  statuses.listOrganisations = organisations.response.status;
  const first = await hey.listOrganisations({ client, query: { limit: 1 } });
  const organisationReference = first.data?.success[0]?.reference ?? '';
  statuses.getOrganisation = (await hey.getOrganisation({ client, path: { organisationReference } })).response.status;
  statuses.listOrganisationPeople = (await hey.listOrganisationPeople({ client, path: { organisationReference } })).response.status;
  statuses.getOrganisationOwnership = (await hey.getOrganisationOwnership({ client, path: { organisationReference } })).response.status;
  const profiles = await hey.listProfiles({ client, query: { search: 'a', limit: 3 } });
  statuses.listProfiles = profiles.response.status;
  const profileReference = profiles.data?.success[0]?.reference ?? '';
  statuses.getProfile = (await hey.getProfile({ client, path: { profileReference } })).response.status;
  statuses.listProfileArticles = (await hey.listProfileArticles({ client, path: { profileReference }, query: { role: 'about' } })).response.status;
  statuses.listProfileOwnership = (await hey.listProfileOwnership({ client, path: { profileReference } })).response.status;
  const events = await hey.listEvents({ client, query: { eventType: 'move', limit: 100 } });
  statuses.listEvents = events.response.status;
  const rows = events.data?.success ?? [];
  const withArticles = rows.find((event) => event.event_type === 'move' && event.data.articles.length > 0);
  const eventReference = withArticles?.reference ?? rows[0]?.reference ?? '';
  const event = await hey.getEvent({ client, path: { eventReference } });
  statuses.getEvent = event.response.status;
  const record = event.data?.success;
  const articleReference = record?.event_type === 'move' ? (record.data.articles[0]?.reference ?? '') : '';
  if (articleReference) statuses.getArticle = (await hey.getArticle({ client, path: { articleReference } })).response.status;
  const savedChips = await hey.saveEventSearch({
    client,
    body: { query: [{ fieldType: 'EventType', label: 'Move', value: 'move', operator: 'EQUAL' }] },
  });
  statuses.saveEventSearch = savedChips.response.status;
  statuses.listSuggestions = (await hey.listSuggestions({ client, query: { query: 'capital', limit: 5 } })).response.status;
  return { statuses, events: rows.map(describeEvent) };
}
`;
