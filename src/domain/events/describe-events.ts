import { asc, eq, inArray } from 'drizzle-orm';
import type { Database } from '../../db/database.ts';
import type { Annotation, Article } from '../../db/schema/articles.ts';
import { type Event, eventParticipantsTable } from '../../db/schema/events.ts';
import {
  type ClientSummary,
  type Organisation,
  type OrganisationAddress,
  type OrganisationTicker,
  organisationsTable,
} from '../../db/schema/organisations.ts';
import { type Profile, profilesTable } from '../../db/schema/profiles.ts';
import type { Occupation } from '../../db/schema/reference.ts';
import { findAnnotationsByArticle, findArticlesByEvent } from '../articles/get-article.ts';
import {
  addressesByKind,
  listAddresses,
  listClientSummariesByReference,
  listTickers,
  type OrganisationAddresses,
} from '../organisations/organisation-parts.ts';
import { findOccupationsByReference } from '../profiles/get-profile.ts';

export interface EventParticipant {
  profile: Profile;
  role: string;
}

export interface EventArticle {
  article: Article;
  annotations: Annotation[];
}

/** An event with every record its full description embeds. */
export interface DescribedEvent {
  event: Event;
  organisation: Organisation | null;
  acquirer: Organisation | null;
  acquiree: Organisation | null;
  /** Moves: the person, the normalised title, and the organisation's listings and addresses. */
  profile: Profile | null;
  occupation: Occupation | null;
  listings: OrganisationTicker[];
  addresses: OrganisationAddresses;
  /** Moves: the source articles, empty unless asked for. */
  articles: EventArticle[];
  /** Funding rounds and public offerings. */
  participants: EventParticipant[];
  clientSummary: ClientSummary | null;
}

export interface DescribeOptions {
  /** Whether to read the source articles of moves (the caller's plan may not cover articles). */
  includeArticles: boolean;
}

const unique = <T>(values: (T | null | undefined)[]): T[] => [
  ...new Set(values.filter((value): value is T => value !== null && value !== undefined)),
];

function byKey<Row, Key>(rows: readonly Row[], keyOf: (row: Row) => Key): Map<Key, Row> {
  return new Map(rows.map((row) => [keyOf(row), row]));
}

function groupBy<Row, Value>(
  rows: readonly Row[],
  keyOf: (row: Row) => string,
  toValue: (row: Row) => Value,
): Map<string, Value[]> {
  const groups = new Map<string, Value[]>();
  for (const row of rows) {
    const key = keyOf(row);
    const group = groups.get(key);
    if (group) group.push(toValue(row));
    else groups.set(key, [toValue(row)]);
  }
  return groups;
}

const none = async <Row>(): Promise<Row[]> => [];

/**
 * Describes a page of events in a fixed number of statements (at most nine, whatever the page size):
 * each kind of embedded record is read for the whole page at once.
 */
export async function describeEvents(
  db: Database,
  events: readonly Event[],
  options: DescribeOptions,
): Promise<DescribedEvent[]> {
  const moves = events.filter((event) => event.type === 'move');
  const moveOrganisations = unique(moves.map((event) => event.organisationReference));
  const organisationReferences = unique(
    events.flatMap((event) => [
      event.organisationReference,
      event.acquirerReference,
      event.acquireeReference,
    ]),
  );
  const profileReferences = unique(moves.map((event) => event.profileReference));
  const occupationReferences = unique(moves.map((event) => event.occupationReference));
  const summaryReferences = unique(events.map((event) => event.clientSummaryReference));
  const withParticipants = events
    .filter((event) => event.type === 'funding' || event.type === 'public_offering')
    .map((event) => event.reference);
  const moveReferences = moves.map((event) => event.reference);

  const [organisations, profiles, occupations, tickers, addresses, summaries, participants, articles] =
    await Promise.all([
      organisationReferences.length > 0
        ? db
            .select()
            .from(organisationsTable)
            .where(inArray(organisationsTable.reference, organisationReferences))
        : none<Organisation>(),
      profileReferences.length > 0
        ? db.select().from(profilesTable).where(inArray(profilesTable.reference, profileReferences))
        : none<Profile>(),
      occupationReferences.length > 0
        ? findOccupationsByReference(db, occupationReferences)
        : none<Occupation>(),
      moveOrganisations.length > 0 ? listTickers(db, moveOrganisations) : none<OrganisationTicker>(),
      moveOrganisations.length > 0 ? listAddresses(db, moveOrganisations) : none<OrganisationAddress>(),
      summaryReferences.length > 0
        ? listClientSummariesByReference(db, summaryReferences)
        : none<ClientSummary>(),
      withParticipants.length > 0 ? findParticipants(db, withParticipants) : none<ParticipantRow>(),
      options.includeArticles && moveReferences.length > 0
        ? findArticlesByEvent(db, moveReferences)
        : none<{ eventReference: string; article: Article }>(),
    ]);
  const articleReferences = unique(articles.map((row) => row.article.reference));
  const annotations =
    articleReferences.length > 0 ? await findAnnotationsByArticle(db, articleReferences) : [];

  const organisationByReference = byKey(organisations, (row) => row.reference);
  const profileByReference = byKey(profiles, (row) => row.reference);
  const occupationByReference = byKey(occupations, (row) => row.reference);
  const summaryByReference = byKey(summaries, (row) => row.reference);
  const tickersByOrganisation = groupBy(
    tickers,
    (row) => row.organisationReference,
    (row) => row,
  );
  const addressesByOrganisation = groupBy(
    addresses,
    (row) => row.organisationReference,
    (row) => row,
  );
  const participantsByEvent = groupBy(
    participants,
    (row) => row.eventReference,
    (row): EventParticipant => ({ profile: row.profile, role: row.role }),
  );
  const annotationsByArticle = groupBy(
    annotations,
    (row) => row.articleReference,
    (row) => row,
  );
  const articlesByEvent = groupBy(
    articles,
    (row) => row.eventReference,
    (row): EventArticle => ({
      article: row.article,
      annotations: annotationsByArticle.get(row.article.reference) ?? [],
    }),
  );

  const organisationOf = (reference: string | null) =>
    reference === null ? null : (organisationByReference.get(reference) ?? null);
  return events.map((event) => {
    const isMove = event.type === 'move';
    const organisationReference = event.organisationReference;
    return {
      event,
      organisation: organisationOf(organisationReference),
      acquirer: organisationOf(event.acquirerReference),
      acquiree: organisationOf(event.acquireeReference),
      profile:
        isMove && event.profileReference ? (profileByReference.get(event.profileReference) ?? null) : null,
      occupation:
        isMove && event.occupationReference
          ? (occupationByReference.get(event.occupationReference) ?? null)
          : null,
      listings:
        isMove && organisationReference ? (tickersByOrganisation.get(organisationReference) ?? []) : [],
      addresses: addressesByKind(
        isMove && organisationReference ? (addressesByOrganisation.get(organisationReference) ?? []) : [],
      ),
      articles: isMove ? (articlesByEvent.get(event.reference) ?? []) : [],
      participants: participantsByEvent.get(event.reference) ?? [],
      clientSummary: event.clientSummaryReference
        ? (summaryByReference.get(event.clientSummaryReference) ?? null)
        : null,
    };
  });
}

interface ParticipantRow {
  eventReference: string;
  role: string;
  profile: Profile;
}

/** The people taking part in each event, by surname. */
export function findParticipants(
  db: Database,
  eventReferences: readonly string[],
): Promise<ParticipantRow[]> {
  const link = eventParticipantsTable;
  return db
    .select({ eventReference: link.eventReference, role: link.role, profile: profilesTable })
    .from(link)
    .innerJoin(profilesTable, eq(profilesTable.reference, link.profileReference))
    .where(inArray(link.eventReference, [...eventReferences]))
    .orderBy(
      link.eventReference,
      asc(profilesTable.lastName),
      asc(profilesTable.firstName),
      asc(profilesTable.reference),
    );
}
