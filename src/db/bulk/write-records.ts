import type { StoredRecordType } from './documents.ts';

/**
 * The set-based statements that store staged records of a type, read from the staging table as jsonb. In a
 * batch (`$1` is the batch number) they store the records whose outcome is `inserted` or `updated` (classified
 * beforehand against the stored documents, so an unchanged record is never written); a list whose entries carry
 * their own reference (aliases, client summaries, annotations, ...) is upserted and loses only the entries no
 * longer listed, so that what links to a kept entry (an event to its client summary) stays; the other lists are
 * replaced. In an initial load (into empty tables) they insert every valid record of the type at once.
 */
export type WriteMode = 'batch' | 'initial';

function buildWriteStatements(mode: WriteMode): Record<StoredRecordType, readonly string[]> {
  /** The records to write, with `lateral` joined to each (a list's entries). */
  const changed = (type: string, lateral = '') =>
    mode === 'initial'
      ? `import_staged s ${lateral} where s.type = '${type}' and s.state = 'valid' and not s.deleted`
      : `import_outcomes o join import_staged s on s.id = o.id ${lateral}
    where o.type = '${type}' and o.batch = $1 and o.outcome in ('inserted', 'updated')`;

  /** Only an updated record can have entries stored that it no longer lists; a new one has none. */
  const updated = (type: string) =>
    `import_outcomes o join import_staged s on s.id = o.id where o.type = '${type}' and o.batch = $1 and o.outcome = 'updated'`;

  type Columns = ReadonlyArray<readonly [column: string, expression: string]>;

  function insert(table: string, columns: Columns, from: string): string {
    return `insert into ${table} (${columns.map(([column]) => column).join(', ')})
    select ${columns.map(([, expression]) => expression).join(', ')} from ${from}`;
  }

  /** An insert that updates a stored row of the same key; a plain insert where the tables are empty. */
  function upsert(table: string, key: string, columns: Columns, from: string): string {
    if (mode === 'initial') return insert(table, columns, from);
    const updates = columns.map(([column]) => column).filter((name) => name !== key);
    return `${insert(table, columns, from)}
    on conflict (${key}) do update set ${updates.map((name) => `${name} = excluded.${name}`).join(', ')}`;
  }

  /** Removes the entries of `list` that the changed records no longer name (none to remove in empty tables). */
  function pruneList(type: string, table: string, parentColumn: string, list: string): string | null {
    if (mode === 'initial') return null;
    return `delete from ${table} c using ${updated(type)}
    and c.${parentColumn} = s.reference
    and not (s.doc->'${list}' @> jsonb_build_array(jsonb_build_object('reference', c.reference)))`;
  }

  function replaceList(type: string, table: string, parentColumn: string): string | null {
    if (mode === 'initial') return null;
    return `delete from ${table} c using ${updated(type)} and c.${parentColumn} = s.reference`;
  }

  const field = (name: string, cast = '') => `(s.doc->>'${name}')${cast}`;
  const entry = (name: string, cast = '') => `(e->>'${name}')${cast}`;
  const entryAt = (path: string, cast = '') => `(e#>>'{${path}}')${cast}`;
  const entries = (type: string, list: string) =>
    changed(type, `cross join lateral jsonb_array_elements(s.doc->'${list}') e`);

  const statements: Record<StoredRecordType, ReadonlyArray<string | null>> = {
    occupation: [
      upsert(
        'occupations',
        'reference',
        [
          ['reference', 's.reference'],
          ['name', field('name')],
        ],
        changed('occupation'),
      ),
    ],
    organisation: [
      upsert(
        'organisations',
        'reference',
        [
          ['reference', 's.reference'],
          ['name', field('name')],
          ['description', field('description')],
          ['status', field('status', '::organisation_status')],
          ['verified', field('verified', '::boolean')],
          ['confidence', field('confidence', '::smallint')],
          ['is_fund', field('is_fund', '::boolean')],
          ['employees', `(s.doc#>>'{totals,employees}')::integer`],
          ['customers', `(s.doc#>>'{relationships,customers}')::integer`],
          ['suppliers', `(s.doc#>>'{relationships,suppliers}')::integer`],
          ['partners', `(s.doc#>>'{relationships,partners}')::integer`],
          ['service_providers', `(s.doc#>>'{relationships,service_providers}')::integer`],
        ],
        changed('organisation'),
      ),
      pruneList('organisation', 'organisation_aliases', 'organisation_reference', 'aliases'),
      upsert(
        'organisation_aliases',
        'reference',
        [
          ['reference', entry('reference', '::uuid')],
          ['organisation_reference', 's.reference'],
          ['name', entry('name')],
          ['start_date', entry('start_date', '::date')],
          ['end_date', entry('end_date', '::date')],
        ],
        entries('organisation', 'aliases'),
      ),
      pruneList('organisation', 'organisation_tickers', 'organisation_reference', 'tickers'),
      upsert(
        'organisation_tickers',
        'reference',
        [
          ['reference', entry('reference', '::uuid')],
          ['organisation_reference', 's.reference'],
          ['value', entry('value')],
          ['exchange_name', entryAt('exchange,name')],
          ['exchange_code', entryAt('exchange,code')],
          ['currency', entry('currency')],
          ['status', entry('status')],
          ['is_primary_listing', entry('is_primary_listing', '::boolean')],
        ],
        entries('organisation', 'tickers'),
      ),
      pruneList('organisation', 'organisation_domains', 'organisation_reference', 'domains'),
      upsert(
        'organisation_domains',
        'reference',
        [
          ['reference', entry('reference', '::uuid')],
          ['organisation_reference', 's.reference'],
          ['domain', entry('domain')],
          ['confidence_score', entry('confidence_score', '::real')],
          ['is_valid', entry('is_valid', '::boolean')],
        ],
        entries('organisation', 'domains'),
      ),
      pruneList('organisation', 'organisation_phones', 'organisation_reference', 'phones'),
      upsert(
        'organisation_phones',
        'reference',
        [
          ['reference', entry('reference', '::uuid')],
          ['organisation_reference', 's.reference'],
          ['number', entry('number')],
          ['type', entry('type')],
          ['is_valid', entry('is_valid', '::boolean')],
        ],
        entries('organisation', 'phones'),
      ),
      replaceList('organisation', 'organisation_industries', 'organisation_reference'),
      insert(
        'organisation_industries',
        [
          ['organisation_reference', 's.reference'],
          ['industry_code', entry('code')],
          ['is_primary', entry('is_primary', '::boolean')],
        ],
        entries('organisation', 'industries'),
      ),
      replaceList('organisation', 'organisation_addresses', 'organisation_reference'),
      insert(
        'organisation_addresses',
        [
          ['organisation_reference', 's.reference'],
          ['kind', 'a.key::address_kind'],
          ['city', `a.value->>'city'`],
          ['state', `a.value->>'state'`],
          ['country', `a.value->>'country'`],
          ['zip_postal_code', `a.value->>'zip_postal_code'`],
        ],
        `${changed('organisation', `cross join lateral jsonb_each(s.doc->'addresses') a`)} and jsonb_typeof(a.value) = 'object'`,
      ),
      replaceList('organisation', 'organisation_scores', 'organisation_reference'),
      insert(
        'organisation_scores',
        [
          ['organisation_reference', 's.reference'],
          ['dimension', 'd.key::score_dimension'],
          ['score', 'd.value::smallint'],
        ],
        changed('organisation', `cross join lateral jsonb_each_text(s.doc->'scores') d`),
      ),
      pruneList('organisation', 'client_summaries', 'organisation_reference', 'client_summaries'),
      upsert(
        'client_summaries',
        'reference',
        [
          ['reference', entry('reference', '::uuid')],
          ['organisation_reference', 's.reference'],
          ['currency_code', entry('currency_code')],
          ['summary_type', entry('summary_type', '::summary_type')],
          ['publish_date', entry('publish_date', '::timestamptz')],
          ['entries', `e->'entries'`],
        ],
        entries('organisation', 'client_summaries'),
      ),
    ],
    profile: [
      upsert(
        'profiles',
        'reference',
        [
          ['reference', 's.reference'],
          ['first_name', field('first_name')],
          ['last_name', field('last_name')],
          ['full_name', field('name')],
          ['linkedin_url', field('linkedin_url')],
          ['confidence_score', field('confidence_score', '::real')],
          ['is_registered_adviser', field('is_registered_adviser', '::boolean')],
        ],
        changed('profile'),
      ),
      pruneList('profile', 'profile_emails', 'profile_reference', 'emails'),
      upsert(
        'profile_emails',
        'reference',
        [
          ['reference', entry('reference', '::uuid')],
          ['profile_reference', 's.reference'],
          ['value', entry('value')],
          ['domain', entry('domain')],
          ['confidence_score', entry('confidence_score', '::real')],
          ['is_valid', entry('is_valid', '::boolean')],
        ],
        entries('profile', 'emails'),
      ),
    ],
    experience: [
      upsert(
        'experiences',
        'reference',
        [
          ['reference', 's.reference'],
          ['profile_reference', field('profile_reference', '::uuid')],
          ['organisation_reference', field('organisation_reference', '::uuid')],
          ['occupation_title', field('occupation_title')],
          ['occupation_reference', field('occupation_reference', '::uuid')],
          ['start_date', field('start_date', '::date')],
          ['end_date', field('end_date', '::date')],
        ],
        changed('experience'),
      ),
    ],
    organisation_ownership: [
      upsert(
        'organisation_ownerships',
        'reference',
        [
          ['reference', 's.reference'],
          ['owner_reference', field('owner_reference', '::uuid')],
          ['owned_reference', field('owned_reference', '::uuid')],
          ['relationship', field('relationship_type', '::owner_relationship')],
          ['ownership_label', field('ownership_label')],
          ['is_controlling_interest', field('is_controlling_interest', '::boolean')],
        ],
        changed('organisation_ownership'),
      ),
    ],
    profile_stake: [
      upsert(
        'profile_stakes',
        'reference',
        [
          ['reference', 's.reference'],
          ['profile_reference', field('profile_reference', '::uuid')],
          ['organisation_reference', field('organisation_reference', '::uuid')],
          ['ownership_type', field('ownership_type')],
          ['ownership_band', field('ownership_percentage')],
          ['title_or_status', field('title_or_status')],
          ['is_control_person', field('is_control_person', '::boolean')],
          ['is_active', field('is_active', '::boolean')],
          ['start_date', field('start_date', '::date')],
          ['end_date', field('end_date', '::date')],
        ],
        changed('profile_stake'),
      ),
    ],
    article: [
      upsert(
        'articles',
        'reference',
        [
          ['reference', 's.reference'],
          ['title', field('title')],
          ['url', field('url')],
          ['published_at', field('published_at', '::timestamptz')],
          ['content', field('content')],
          ['licence', field('licence', '::article_licence')],
        ],
        changed('article'),
      ),
      pruneList('article', 'annotations', 'article_reference', 'annotations'),
      upsert(
        'annotations',
        'reference',
        [
          ['reference', entry('reference', '::uuid')],
          ['article_reference', 's.reference'],
          ['type', entry('type', '::annotation_type')],
          ['summary', entry('summary')],
          ['text', entry('text')],
          ['start', entry('start', '::integer')],
          ['"end"', entry('end', '::integer')],
          ['organisation_reference', entry('organisation_reference', '::uuid')],
          ['speaker_kind', entryAt('speaker,kind', '::speaker_kind')],
          ['speaker_name', entryAt('speaker,name')],
          ['speaker_role', entryAt('speaker,role')],
          ['speaker_organisation_name', entryAt('speaker,organisation_name')],
          ['speaker_profile_reference', entryAt('speaker,profile_reference', '::uuid')],
          ['subject_name', entryAt('subject,name')],
          ['subject_role', entryAt('subject,role')],
          ['subject_organisation_name', entryAt('subject,organisation_name')],
          ['subject_profile_reference', entryAt('subject,profile_reference', '::uuid')],
        ],
        entries('article', 'annotations'),
      ),
      replaceList('article', 'article_organisations', 'article_reference'),
      insert(
        'article_organisations',
        [
          ['article_reference', 's.reference'],
          ['organisation_reference', "(e #>> '{}')::uuid"],
        ],
        entries('article', 'organisation_references'),
      ),
    ],
    event: [
      upsert(
        'events',
        'reference',
        [
          ['reference', 's.reference'],
          ['type', field('event_type', '::event_type')],
          ['summary', field('summary')],
          ['publish_date', field('publish_date', '::timestamptz')],
          ['organisation_reference', field('organisation_reference', '::uuid')],
          ['profile_reference', field('profile_reference', '::uuid')],
          ['occupation_reference', field('occupation_reference', '::uuid')],
          ['move_type', field('move_type')],
          ['effective_date', field('effective_date', '::timestamptz')],
          ['acquirer_reference', field('acquirer_reference', '::uuid')],
          ['acquiree_reference', field('acquiree_reference', '::uuid')],
          ['deal_type', field('deal_type')],
          ['deal_status', field('deal_status')],
          ['client_summary_reference', field('client_summary_reference', '::uuid')],
          ['details', `s.doc->'data'`],
        ],
        changed('event'),
      ),
      replaceList('event', 'event_participants', 'event_reference'),
      insert(
        'event_participants',
        [
          ['event_reference', 's.reference'],
          ['profile_reference', entry('profile_reference', '::uuid')],
          ['role', entry('role')],
        ],
        entries('event', 'participants'),
      ),
      replaceList('event', 'event_articles', 'event_reference'),
      insert(
        'event_articles',
        [
          ['event_reference', 's.reference'],
          ['article_reference', "(e #>> '{}')::uuid"],
        ],
        entries('event', 'article_references'),
      ),
    ],
  };
  const kept = {} as Record<StoredRecordType, readonly string[]>;
  for (const [type, list] of Object.entries(statements) as [
    StoredRecordType,
    ReadonlyArray<string | null>,
  ][]) {
    kept[type] = list.filter((statement): statement is string => statement !== null);
  }
  return kept;
}

/** Per type, the statements that store one batch (`$1`): upserts, and the pruning of lists. */
export const writeStatements = buildWriteStatements('batch');

/** Per type, the statements that insert every valid staged record into empty tables (no parameters). */
export const initialWriteStatements = buildWriteStatements('initial');
