import type { StoredRecordType } from './documents.ts';

/**
 * Where each link of a record type is stored: the path the import names it by (the paths of `recordLinks` in
 * src/domain/import/records.ts), the table and column that hold the key, and the column naming the record the
 * row belongs to. A record staged from a line the store knows (unchanged since it was imported from that line)
 * is not parsed, so its links are read from here instead; they are the same, as the stored record is.
 */
export interface StoredLink {
  path: string;
  table: string;
  /** The column holding the record's reference (`reference` in the record's own table). */
  owner: string;
  column: string;
}

const own = (table: string, path: string, column: string): StoredLink => ({
  path,
  table,
  owner: 'reference',
  column,
});

export const storedLinks: Record<StoredRecordType, readonly StoredLink[]> = {
  occupation: [],
  organisation: [
    {
      path: '$.industries[*].code',
      table: 'organisation_industries',
      owner: 'organisation_reference',
      column: 'industry_code',
    },
  ],
  profile: [],
  experience: [
    own('experiences', '$.profile_reference', 'profile_reference'),
    own('experiences', '$.organisation_reference', 'organisation_reference'),
    own('experiences', '$.occupation_reference', 'occupation_reference'),
  ],
  organisation_ownership: [
    own('organisation_ownerships', '$.owner_reference', 'owner_reference'),
    own('organisation_ownerships', '$.owned_reference', 'owned_reference'),
  ],
  profile_stake: [
    own('profile_stakes', '$.profile_reference', 'profile_reference'),
    own('profile_stakes', '$.organisation_reference', 'organisation_reference'),
  ],
  article: [
    {
      path: '$.organisation_references[*]',
      table: 'article_organisations',
      owner: 'article_reference',
      column: 'organisation_reference',
    },
    {
      path: '$.annotations[*].organisation_reference',
      table: 'annotations',
      owner: 'article_reference',
      column: 'organisation_reference',
    },
    {
      path: '$.annotations[*].speaker.profile_reference',
      table: 'annotations',
      owner: 'article_reference',
      column: 'speaker_profile_reference',
    },
    {
      path: '$.annotations[*].subject.profile_reference',
      table: 'annotations',
      owner: 'article_reference',
      column: 'subject_profile_reference',
    },
  ],
  event: [
    own('events', '$.organisation_reference', 'organisation_reference'),
    own('events', '$.profile_reference', 'profile_reference'),
    own('events', '$.occupation_reference', 'occupation_reference'),
    own('events', '$.acquirer_reference', 'acquirer_reference'),
    own('events', '$.acquiree_reference', 'acquiree_reference'),
    own('events', '$.client_summary_reference', 'client_summary_reference'),
    {
      path: '$.participants[*].profile_reference',
      table: 'event_participants',
      owner: 'event_reference',
      column: 'profile_reference',
    },
    {
      path: '$.article_references[*]',
      table: 'event_articles',
      owner: 'event_reference',
      column: 'article_reference',
    },
  ],
};

/** Keys other records may link to beside a record's own reference, as stored: an organisation's client summaries. */
export const storedExtraKeys: Partial<Record<StoredRecordType, readonly (StoredLink & { kind: string })[]>> =
  {
    organisation: [
      {
        kind: 'client_summary',
        path: '$.client_summaries[*].reference',
        table: 'client_summaries',
        owner: 'organisation_reference',
        column: 'reference',
      },
    ],
  };

const linkCodes = new Map(
  Object.entries(storedLinks)
    .flatMap(([type, links]) => links.map((link) => `${type} ${link.path}`))
    .map((link, code) => [link, code]),
);

/**
 * The number import_links keeps for the link of `type` at `path`, in place of the two texts: a staged link's row
 * is then a few bytes shorter, and its index builds faster (bench/NOTES.md 43).
 */
export function linkCode(type: string, path: string): number {
  const code = linkCodes.get(`${type} ${path}`);
  if (code === undefined) throw new Error(`a ${type} has no link at ${path}`);
  return code;
}
