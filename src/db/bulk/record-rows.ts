/**
 * Which rows of which tables each record type is stored as, column by column, said once: the set-based statements
 * that store staged documents (write-records.ts) are built from it in SQL, and a first import from files builds
 * the same rows in COPY text as it reads each record (appendRecordRows). A worker thread loads this module: it
 * imports nothing that reaches the database driver.
 */

import { copyField } from './staged-rows.ts';

/**
 * Where a column's value comes from: the record's reference; text at a path of the record, of one entry of one
 * of its lists, or of one value of one of its objects (the empty path is the entry or value itself); that text
 * kept as JSON (`json`); or the key of the object's value.
 */
export type ColumnValue =
  | { of: 'reference' }
  | { of: 'record' | 'entry' | 'value'; path: readonly string[]; json?: true }
  | { of: 'key' };

export interface TableRows {
  table: string;
  /** One row per record, per entry of one of its lists, or per value of one of its objects (`objects`: those that are objects). */
  over: { list: string } | { object: string; objects?: true } | null;
  columns: ReadonlyArray<readonly [column: string, value: ColumnValue, cast?: string]>;
  /**
   * How an updated record's stored rows follow it: its main row and listed entries with a reference of their own
   * are upserted by `reference`, the entries no longer listed removed (`prune`, keyed by `parent`); rows without a
   * reference of their own are replaced (`replace`).
   */
  keep: { upsert: 'reference'; prune?: string } | { replace: string };
}

const reference: ColumnValue = { of: 'reference' };
const field = (...path: string[]): ColumnValue => ({ of: 'record', path });
const entry = (...path: string[]): ColumnValue => ({ of: 'entry', path });
const value = (...path: string[]): ColumnValue => ({ of: 'value', path });

/** Per record type, in the order they are written, the rows it is stored as. */
export const recordRows = {
  occupation: [
    {
      table: 'occupations',
      over: null,
      columns: [
        ['reference', reference],
        ['name', field('name')],
      ],
      keep: { upsert: 'reference' },
    },
  ],
  organisation: [
    {
      table: 'organisations',
      over: null,
      columns: [
        ['reference', reference],
        ['name', field('name')],
        ['description', field('description')],
        ['status', field('status'), '::organisation_status'],
        ['verified', field('verified'), '::boolean'],
        ['confidence', field('confidence'), '::smallint'],
        ['is_fund', field('is_fund'), '::boolean'],
        ['employees', field('totals', 'employees'), '::integer'],
        ['customers', field('relationships', 'customers'), '::integer'],
        ['suppliers', field('relationships', 'suppliers'), '::integer'],
        ['partners', field('relationships', 'partners'), '::integer'],
        ['service_providers', field('relationships', 'service_providers'), '::integer'],
      ],
      keep: { upsert: 'reference' },
    },
    {
      table: 'organisation_aliases',
      over: { list: 'aliases' },
      columns: [
        ['reference', entry('reference'), '::uuid'],
        ['organisation_reference', reference],
        ['name', entry('name')],
        ['start_date', entry('start_date'), '::date'],
        ['end_date', entry('end_date'), '::date'],
      ],
      keep: { upsert: 'reference', prune: 'organisation_reference' },
    },
    {
      table: 'organisation_tickers',
      over: { list: 'tickers' },
      columns: [
        ['reference', entry('reference'), '::uuid'],
        ['organisation_reference', reference],
        ['value', entry('value')],
        ['exchange_name', entry('exchange', 'name')],
        ['exchange_code', entry('exchange', 'code')],
        ['currency', entry('currency')],
        ['status', entry('status')],
        ['is_primary_listing', entry('is_primary_listing'), '::boolean'],
      ],
      keep: { upsert: 'reference', prune: 'organisation_reference' },
    },
    {
      table: 'organisation_domains',
      over: { list: 'domains' },
      columns: [
        ['reference', entry('reference'), '::uuid'],
        ['organisation_reference', reference],
        ['domain', entry('domain')],
        ['confidence_score', entry('confidence_score'), '::real'],
        ['is_valid', entry('is_valid'), '::boolean'],
      ],
      keep: { upsert: 'reference', prune: 'organisation_reference' },
    },
    {
      table: 'organisation_phones',
      over: { list: 'phones' },
      columns: [
        ['reference', entry('reference'), '::uuid'],
        ['organisation_reference', reference],
        ['number', entry('number')],
        ['type', entry('type')],
        ['is_valid', entry('is_valid'), '::boolean'],
      ],
      keep: { upsert: 'reference', prune: 'organisation_reference' },
    },
    {
      table: 'organisation_industries',
      over: { list: 'industries' },
      columns: [
        ['organisation_reference', reference],
        ['industry_code', entry('code')],
        ['is_primary', entry('is_primary'), '::boolean'],
      ],
      keep: { replace: 'organisation_reference' },
    },
    {
      table: 'organisation_addresses',
      over: { object: 'addresses', objects: true },
      columns: [
        ['organisation_reference', reference],
        ['kind', { of: 'key' }, '::address_kind'],
        ['city', value('city')],
        ['state', value('state')],
        ['country', value('country')],
        ['zip_postal_code', value('zip_postal_code')],
      ],
      keep: { replace: 'organisation_reference' },
    },
    {
      table: 'organisation_scores',
      over: { object: 'scores' },
      columns: [
        ['organisation_reference', reference],
        ['dimension', { of: 'key' }, '::score_dimension'],
        ['score', value(), '::smallint'],
      ],
      keep: { replace: 'organisation_reference' },
    },
    {
      table: 'client_summaries',
      over: { list: 'client_summaries' },
      columns: [
        ['reference', entry('reference'), '::uuid'],
        ['organisation_reference', reference],
        ['currency_code', entry('currency_code')],
        ['summary_type', entry('summary_type'), '::summary_type'],
        ['publish_date', entry('publish_date'), '::timestamptz'],
        ['entries', { of: 'entry', path: ['entries'], json: true }],
      ],
      keep: { upsert: 'reference', prune: 'organisation_reference' },
    },
  ],
  profile: [
    {
      table: 'profiles',
      over: null,
      columns: [
        ['reference', reference],
        ['first_name', field('first_name')],
        ['last_name', field('last_name')],
        ['full_name', field('name')],
        ['linkedin_url', field('linkedin_url')],
        ['confidence_score', field('confidence_score'), '::real'],
        ['is_registered_adviser', field('is_registered_adviser'), '::boolean'],
      ],
      keep: { upsert: 'reference' },
    },
    {
      table: 'profile_emails',
      over: { list: 'emails' },
      columns: [
        ['reference', entry('reference'), '::uuid'],
        ['profile_reference', reference],
        ['value', entry('value')],
        ['domain', entry('domain')],
        ['confidence_score', entry('confidence_score'), '::real'],
        ['is_valid', entry('is_valid'), '::boolean'],
      ],
      keep: { upsert: 'reference', prune: 'profile_reference' },
    },
  ],
  experience: [
    {
      table: 'experiences',
      over: null,
      columns: [
        ['reference', reference],
        ['profile_reference', field('profile_reference'), '::uuid'],
        ['organisation_reference', field('organisation_reference'), '::uuid'],
        ['occupation_title', field('occupation_title')],
        ['occupation_reference', field('occupation_reference'), '::uuid'],
        ['start_date', field('start_date'), '::date'],
        ['end_date', field('end_date'), '::date'],
      ],
      keep: { upsert: 'reference' },
    },
  ],
  organisation_ownership: [
    {
      table: 'organisation_ownerships',
      over: null,
      columns: [
        ['reference', reference],
        ['owner_reference', field('owner_reference'), '::uuid'],
        ['owned_reference', field('owned_reference'), '::uuid'],
        ['relationship', field('relationship_type'), '::owner_relationship'],
        ['ownership_label', field('ownership_label')],
        ['is_controlling_interest', field('is_controlling_interest'), '::boolean'],
      ],
      keep: { upsert: 'reference' },
    },
  ],
  profile_stake: [
    {
      table: 'profile_stakes',
      over: null,
      columns: [
        ['reference', reference],
        ['profile_reference', field('profile_reference'), '::uuid'],
        ['organisation_reference', field('organisation_reference'), '::uuid'],
        ['ownership_type', field('ownership_type')],
        ['ownership_band', field('ownership_percentage')],
        ['title_or_status', field('title_or_status')],
        ['is_control_person', field('is_control_person'), '::boolean'],
        ['is_active', field('is_active'), '::boolean'],
        ['start_date', field('start_date'), '::date'],
        ['end_date', field('end_date'), '::date'],
      ],
      keep: { upsert: 'reference' },
    },
  ],
  article: [
    {
      table: 'articles',
      over: null,
      columns: [
        ['reference', reference],
        ['title', field('title')],
        ['url', field('url')],
        ['published_at', field('published_at'), '::timestamptz'],
        ['content', field('content')],
        ['licence', field('licence'), '::article_licence'],
      ],
      keep: { upsert: 'reference' },
    },
    {
      table: 'annotations',
      over: { list: 'annotations' },
      columns: [
        ['reference', entry('reference'), '::uuid'],
        ['article_reference', reference],
        ['type', entry('type'), '::annotation_type'],
        ['summary', entry('summary')],
        ['text', entry('text')],
        ['start', entry('start'), '::integer'],
        ['"end"', entry('end'), '::integer'],
        ['organisation_reference', entry('organisation_reference'), '::uuid'],
        ['speaker_kind', entry('speaker', 'kind'), '::speaker_kind'],
        ['speaker_name', entry('speaker', 'name')],
        ['speaker_role', entry('speaker', 'role')],
        ['speaker_organisation_name', entry('speaker', 'organisation_name')],
        ['speaker_profile_reference', entry('speaker', 'profile_reference'), '::uuid'],
        ['subject_name', entry('subject', 'name')],
        ['subject_role', entry('subject', 'role')],
        ['subject_organisation_name', entry('subject', 'organisation_name')],
        ['subject_profile_reference', entry('subject', 'profile_reference'), '::uuid'],
      ],
      keep: { upsert: 'reference', prune: 'article_reference' },
    },
    {
      table: 'article_organisations',
      over: { list: 'organisation_references' },
      columns: [
        ['article_reference', reference],
        ['organisation_reference', entry(), '::uuid'],
      ],
      keep: { replace: 'article_reference' },
    },
  ],
  event: [
    {
      table: 'events',
      over: null,
      columns: [
        ['reference', reference],
        ['type', field('event_type'), '::event_type'],
        ['summary', field('summary')],
        ['publish_date', field('publish_date'), '::timestamptz'],
        ['organisation_reference', field('organisation_reference'), '::uuid'],
        ['profile_reference', field('profile_reference'), '::uuid'],
        ['occupation_reference', field('occupation_reference'), '::uuid'],
        ['move_type', field('move_type')],
        ['effective_date', field('effective_date'), '::timestamptz'],
        ['acquirer_reference', field('acquirer_reference'), '::uuid'],
        ['acquiree_reference', field('acquiree_reference'), '::uuid'],
        ['deal_type', field('deal_type')],
        ['deal_status', field('deal_status')],
        ['client_summary_reference', field('client_summary_reference'), '::uuid'],
        ['details', { of: 'record', path: ['data'], json: true }],
      ],
      keep: { upsert: 'reference' },
    },
    {
      table: 'event_participants',
      over: { list: 'participants' },
      columns: [
        ['event_reference', reference],
        ['profile_reference', entry('profile_reference'), '::uuid'],
        ['role', entry('role')],
      ],
      keep: { replace: 'event_reference' },
    },
    {
      table: 'event_articles',
      over: { list: 'article_references' },
      columns: [
        ['event_reference', reference],
        ['article_reference', entry(), '::uuid'],
      ],
      keep: { replace: 'event_reference' },
    },
  ],
} as const satisfies Record<string, readonly TableRows[]>;

export type RowsRecordType = keyof typeof recordRows;

/** The table a first import stages `table`'s rows in, each row after the id of the staged record it came from. */
export const stagedRowsTable = (table: string) => `import_rows_${table}`;

function at(base: unknown, path: readonly string[]): unknown {
  let found = base;
  for (const key of path) {
    if (found === null || typeof found !== 'object' || Array.isArray(found)) return undefined;
    found = (found as Record<string, unknown>)[key];
  }
  return found;
}

/** What PostgreSQL's `->>` and `#>>` give for a JSON value: strings as they are, other values as JSON, nothing as null. */
function asText(found: unknown): string | null {
  if (found === undefined || found === null) return null;
  return typeof found === 'string' ? found : JSON.stringify(found);
}

/** A jsonb object's keys in the order `jsonb_each` gives them: shorter keys first, then by their bytes. */
function jsonbKeyOrder(a: string, b: string): number {
  if (a.length !== b.length) return a.length - b.length;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return Buffer.compare(x, y);
}

interface RowScope {
  entry?: unknown;
  key?: string;
  value?: unknown;
}

function columnText(
  record: Readonly<Record<string, unknown>>,
  value: ColumnValue,
  scope: RowScope,
): string | null {
  switch (value.of) {
    case 'reference':
      return String(record.reference);
    case 'key':
      return scope.key ?? null;
    default: {
      const base = value.of === 'record' ? record : value.of === 'entry' ? scope.entry : scope.value;
      const found = at(base, value.path);
      // `->` keeps a JSON null as JSON; only a missing key is no value.
      if (value.json) return found === undefined ? null : JSON.stringify(found);
      return asText(found);
    }
  }
}

/**
 * Appends to `into` (by table) the COPY text rows a record of `type` is stored as, each opened by `id`, the staged
 * record's: the same rows, column for column, that the statements of write-records.ts insert from its document.
 */
export function appendRecordRows(
  into: (table: string, row: string) => void,
  type: RowsRecordType,
  record: Readonly<Record<string, unknown>>,
  id: number,
): void {
  for (const rows of recordRows[type] as readonly TableRows[]) {
    const scopes: RowScope[] = [];
    if (rows.over === null) scopes.push({});
    else if ('list' in rows.over) {
      const list = record[rows.over.list];
      if (Array.isArray(list)) for (const entry of list) scopes.push({ entry });
    } else {
      const object = record[rows.over.object];
      if (object !== null && typeof object === 'object' && !Array.isArray(object)) {
        const values = object as Record<string, unknown>;
        for (const key of Object.keys(values).sort(jsonbKeyOrder)) {
          const found = values[key];
          if (rows.over.objects && (found === null || typeof found !== 'object' || Array.isArray(found)))
            continue;
          scopes.push({ key, value: found });
        }
      }
    }
    for (const scope of scopes) {
      let row = String(id);
      for (const [, value] of rows.columns) row += `\t${copyField(columnText(record, value, scope))}`;
      into(rows.table, `${row}\n`);
    }
  }
}

/** Each table's columns in the order of its rows, after the staged record's id (`import_id`). */
export const rowColumns: ReadonlyMap<string, readonly string[]> = new Map(
  Object.values(recordRows).flatMap((tables) =>
    (tables as readonly TableRows[]).map(
      (rows) => [rows.table, rows.columns.map(([column]) => column)] as const,
    ),
  ),
);
