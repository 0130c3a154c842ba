/**
 * Each record type's canonical document, built from the stored rows in SQL: what `orgraph export` writes and
 * what an import compares its records with. `$row` is the alias of the record's main table. The shape matches
 * src/domain/import/canonical.ts: every field present, lists in a fixed order, date-times in UTC milliseconds.
 */

const timestamp = (column: string) =>
  `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const list = (select: string) => `coalesce((${select}), '[]'::jsonb)`;

export interface RecordTable {
  /** The main table and its key column. */
  table: string;
  key: string;
  /** The jsonb document of the row aliased `r`. */
  document: string;
}

export const recordTables = {
  occupation: {
    table: 'occupations',
    key: 'reference',
    document: `jsonb_build_object('type', 'occupation', 'reference', r.reference, 'name', r.name)`,
  },
  organisation: {
    table: 'organisations',
    key: 'reference',
    document: `jsonb_build_object(
      'type', 'organisation', 'reference', r.reference, 'name', r.name, 'description', r.description,
      'status', r.status, 'verified', r.verified, 'confidence', r.confidence, 'is_fund', r.is_fund,
      'totals', jsonb_build_object('employees', r.employees),
      'relationships', jsonb_build_object('customers', r.customers, 'suppliers', r.suppliers,
        'partners', r.partners, 'service_providers', r.service_providers),
      'aliases', ${list(`select jsonb_agg(jsonb_build_object('reference', c.reference, 'name', c.name,
        'start_date', c.start_date, 'end_date', c.end_date) order by c.reference)
        from organisation_aliases c where c.organisation_reference = r.reference`)},
      'tickers', ${list(`select jsonb_agg(jsonb_build_object('reference', c.reference, 'value', c.value,
        'exchange', jsonb_build_object('name', c.exchange_name, 'code', c.exchange_code), 'currency', c.currency,
        'status', c.status, 'is_primary_listing', c.is_primary_listing) order by c.reference)
        from organisation_tickers c where c.organisation_reference = r.reference`)},
      'domains', ${list(`select jsonb_agg(jsonb_build_object('reference', c.reference, 'domain', c.domain,
        'confidence_score', c.confidence_score, 'is_valid', c.is_valid) order by c.reference)
        from organisation_domains c where c.organisation_reference = r.reference`)},
      'phones', ${list(`select jsonb_agg(jsonb_build_object('reference', c.reference, 'number', c.number,
        'type', c.type, 'is_valid', c.is_valid) order by c.reference)
        from organisation_phones c where c.organisation_reference = r.reference`)},
      'industries', ${list(`select jsonb_agg(jsonb_build_object('code', c.industry_code, 'is_primary', c.is_primary)
        order by c.industry_code collate "C")
        from organisation_industries c where c.organisation_reference = r.reference`)},
      'addresses', jsonb_build_object('company', null, 'mailing', null) || coalesce((select jsonb_object_agg(c.kind,
        jsonb_build_object('city', c.city, 'state', c.state, 'country', c.country, 'zip_postal_code', c.zip_postal_code))
        from organisation_addresses c where c.organisation_reference = r.reference), '{}'::jsonb),
      'scores', coalesce((select jsonb_object_agg(c.dimension, c.score)
        from organisation_scores c where c.organisation_reference = r.reference), '{}'::jsonb),
      'client_summaries', ${list(`select jsonb_agg(jsonb_build_object('reference', c.reference,
        'currency_code', c.currency_code, 'summary_type', c.summary_type,
        'publish_date', ${timestamp('c.publish_date')}, 'entries', c.entries) order by c.reference)
        from client_summaries c where c.organisation_reference = r.reference`)})`,
  },
  profile: {
    table: 'profiles',
    key: 'reference',
    document: `jsonb_build_object(
      'type', 'profile', 'reference', r.reference, 'first_name', r.first_name, 'last_name', r.last_name,
      'name', r.full_name, 'linkedin_url', r.linkedin_url, 'confidence_score', r.confidence_score,
      'is_registered_adviser', r.is_registered_adviser,
      'emails', ${list(`select jsonb_agg(jsonb_build_object('reference', c.reference, 'value', c.value,
        'domain', c.domain, 'confidence_score', c.confidence_score, 'is_valid', c.is_valid) order by c.reference)
        from profile_emails c where c.profile_reference = r.reference`)})`,
  },
  experience: {
    table: 'experiences',
    key: 'reference',
    document: `jsonb_build_object(
      'type', 'experience', 'reference', r.reference, 'profile_reference', r.profile_reference,
      'organisation_reference', r.organisation_reference, 'occupation_title', r.occupation_title,
      'occupation_reference', r.occupation_reference, 'start_date', r.start_date, 'end_date', r.end_date)`,
  },
  organisation_ownership: {
    table: 'organisation_ownerships',
    key: 'reference',
    document: `jsonb_build_object(
      'type', 'organisation_ownership', 'reference', r.reference, 'owner_reference', r.owner_reference,
      'owned_reference', r.owned_reference, 'relationship_type', r.relationship,
      'ownership_label', r.ownership_label, 'is_controlling_interest', r.is_controlling_interest)`,
  },
  profile_stake: {
    table: 'profile_stakes',
    key: 'reference',
    document: `jsonb_build_object(
      'type', 'profile_stake', 'reference', r.reference, 'profile_reference', r.profile_reference,
      'organisation_reference', r.organisation_reference, 'ownership_type', r.ownership_type,
      'ownership_percentage', r.ownership_band, 'title_or_status', r.title_or_status,
      'is_control_person', r.is_control_person, 'is_active', r.is_active,
      'start_date', r.start_date, 'end_date', r.end_date)`,
  },
  article: {
    table: 'articles',
    key: 'reference',
    document: `jsonb_build_object(
      'type', 'article', 'reference', r.reference, 'title', r.title, 'url', r.url,
      'published_at', ${timestamp('r.published_at')}, 'content', r.content, 'licence', r.licence,
      'annotations', ${list(`select jsonb_agg(jsonb_build_object('reference', c.reference, 'type', c.type,
        'summary', c.summary, 'text', c.text, 'start', c.start, 'end', c."end",
        'organisation_reference', c.organisation_reference,
        'speaker', jsonb_build_object('kind', c.speaker_kind, 'name', c.speaker_name, 'role', c.speaker_role,
          'organisation_name', c.speaker_organisation_name, 'profile_reference', c.speaker_profile_reference),
        'subject', jsonb_build_object('name', c.subject_name, 'role', c.subject_role,
          'organisation_name', c.subject_organisation_name, 'profile_reference', c.subject_profile_reference))
        order by c.reference)
        from annotations c where c.article_reference = r.reference`)},
      'organisation_references', ${list(`select jsonb_agg(c.organisation_reference order by c.organisation_reference)
        from article_organisations c where c.article_reference = r.reference`)})`,
  },
  event: {
    table: 'events',
    key: 'reference',
    document: `jsonb_build_object(
      'type', 'event', 'reference', r.reference, 'event_type', r.type, 'summary', r.summary,
      'publish_date', ${timestamp('r.publish_date')}, 'organisation_reference', r.organisation_reference,
      'profile_reference', r.profile_reference, 'occupation_reference', r.occupation_reference,
      'move_type', r.move_type, 'effective_date', ${timestamp('r.effective_date')},
      'acquirer_reference', r.acquirer_reference, 'acquiree_reference', r.acquiree_reference,
      'deal_type', r.deal_type, 'deal_status', r.deal_status,
      'client_summary_reference', r.client_summary_reference, 'data', r.details,
      'participants', ${list(`select jsonb_agg(jsonb_build_object('profile_reference', c.profile_reference,
        'role', c.role) order by c.profile_reference)
        from event_participants c where c.event_reference = r.reference`)},
      'article_references', ${list(`select jsonb_agg(c.article_reference order by c.article_reference)
        from event_articles c where c.event_reference = r.reference`)})`,
  },
} as const satisfies Record<string, RecordTable>;

export type StoredRecordType = keyof typeof recordTables;

/** The tables that hold each record type: its main table first, then its lists. */
export const storedTables: Record<StoredRecordType, readonly string[]> = {
  occupation: ['occupations'],
  organisation: [
    'organisations',
    'organisation_names',
    'organisation_aliases',
    'organisation_tickers',
    'organisation_domains',
    'organisation_phones',
    'organisation_industries',
    'organisation_addresses',
    'organisation_scores',
    'client_summaries',
  ],
  profile: ['profiles', 'profile_emails'],
  experience: ['experiences'],
  organisation_ownership: ['organisation_ownerships'],
  profile_stake: ['profile_stakes'],
  article: ['articles', 'annotations', 'article_organisations'],
  event: ['events', 'event_participants', 'event_articles'],
};
