import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { getTableName, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { suspendConstraintsAndIndexes } from '../src/db/bulk/suspend.ts';
import { type DatabaseHandle, queryRows } from '../src/db/database.ts';
import { organisationActivityTable } from '../src/db/schema/activity.ts';
import { annotationsTable, articleOrganisationsTable, articlesTable } from '../src/db/schema/articles.ts';
import { organisationCountsTable, organisationNameFragmentsTable } from '../src/db/schema/counts.ts';
import { eventArticlesTable, eventParticipantsTable, eventsTable } from '../src/db/schema/events.ts';
import {
  clientSummariesTable,
  organisationAddressesTable,
  organisationAliasesTable,
  organisationDomainsTable,
  organisationFilterKeysTable,
  organisationIndustriesTable,
  organisationNamesTable,
  organisationNameTrigramsTable,
  organisationPhonesTable,
  organisationScoresTable,
  organisationsTable,
  organisationTickersTable,
} from '../src/db/schema/organisations.ts';
import { organisationOwnershipsTable, profileStakesTable } from '../src/db/schema/ownership.ts';
import { experiencesTable, profileEmailsTable, profilesTable } from '../src/db/schema/profiles.ts';
import { occupationsTable } from '../src/db/schema/reference.ts';
import { addStoryArticles } from './articles.ts';
import { type BulkLoader, RowBatch, runMaintenance, withBulkLoader } from './bulk-load.ts';
import { addClientSummaryEvents, addDeal, addFunding, addMoves, addPublicOffering } from './events.ts';
import { occupationReference, occupations } from './occupations.ts';
import { addOrganisation } from './organisations.ts';
import { addOrganisationOwnerships, addProfileStake } from './ownership.ts';
import { addProfile } from './people.ts';
import { createWorld, type World } from './world.ts';

export interface SeedProgress {
  /** The phase, named after the main table it loads. */
  table: string;
  done: number;
  total: number;
}

export interface SeedOptions {
  /** 1 = the demo dataset (about 2,000 organisations); fractional down to 0.01 for tests. */
  scale: number;
  /** Delete existing domain data first (api_tokens, plans, industries and saved searches are kept). */
  reset?: boolean;
  /** The anchor "today" for relative dates; truncated to the UTC day so a day's runs are identical. */
  now?: Date;
  onProgress?: (progress: SeedProgress) => void;
  /** The limit on each bulk and maintenance statement (0: none); `defaultBulkTimeoutMs` when unset. */
  maintenanceTimeoutMs?: number;
}

export interface SeedReport {
  rows: Record<string, number>;
  seconds: number;
}

/** Every table the seed fills, children after parents: the load order and what a reset empties. */
const seededTables: readonly PgTable[] = [
  occupationsTable,
  organisationsTable,
  organisationAliasesTable,
  organisationTickersTable,
  organisationDomainsTable,
  organisationPhonesTable,
  organisationIndustriesTable,
  organisationAddressesTable,
  organisationScoresTable,
  clientSummariesTable,
  profilesTable,
  profileEmailsTable,
  experiencesTable,
  eventsTable,
  eventParticipantsTable,
  articlesTable,
  annotationsTable,
  articleOrganisationsTable,
  eventArticlesTable,
  organisationOwnershipsTable,
  profileStakesTable,
];

/** One source of rows: `add` writes item `index` (an organisation, a profile, a story, ...) into a batch. */
interface Source {
  count: number;
  /** Items per COPY round; sized so a chunk is a few megabytes of text. */
  chunk: number;
  add(world: World, index: number, batch: RowBatch): void;
}

interface Phase {
  table: string;
  sources: Source[];
}

function phasesFor(world: World): Phase[] {
  const { counts } = world;
  return [
    {
      table: 'organisations',
      sources: [{ count: counts.organisations, chunk: 1_000, add: addOrganisation }],
    },
    { table: 'profiles', sources: [{ count: counts.profiles, chunk: 2_500, add: addProfile }] },
    {
      table: 'events',
      sources: [
        { count: counts.profiles, chunk: 5_000, add: addMoves },
        { count: counts.organisations, chunk: 5_000, add: addClientSummaryEvents },
        { count: counts.fundings, chunk: 2_500, add: addFunding },
        { count: counts.deals, chunk: 2_500, add: addDeal },
        { count: counts.publicOfferings, chunk: 2_500, add: addPublicOffering },
      ],
    },
    { table: 'articles', sources: [{ count: counts.stories, chunk: 500, add: addStoryArticles }] },
    {
      table: 'ownership',
      sources: [
        { count: counts.organisationOwnerships, chunk: 5_000, add: addOrganisationOwnerships },
        { count: counts.profileStakes, chunk: 5_000, add: addProfileStake },
      ],
    },
  ];
}

/** The phases after the rows are in: the derived rows, the index builds, then VACUUM and ANALYZE. */
const closingPhases = ['activity', 'indexes', 'vacuum'] as const;

/**
 * Fills what the triggers would have written statement by statement, in one set-wise pass each: the activity index,
 * each organisation's `has_activity` flag, the organisation counts, organisation_names (the list's columns and
 * the company country), then the filter keys and their counts, the name fragments' counts and the trigrams' names.
 */
const derivedRowsStatements = [
  `insert into organisation_activity (organisation_reference, activity_type, last_activity_at)
     select organisation_reference, activity_type, max(activity_at) from (
       select organisation_reference, type::text as activity_type, publish_date as activity_at
         from events where organisation_reference is not null
       union all
       select acquirer_reference, type::text, publish_date from events where acquirer_reference is not null
       union all
       select acquiree_reference, type::text, publish_date from events where acquiree_reference is not null
       union all
       select organisation_reference, 'client_summary', publish_date from client_summaries
     ) as activity
     group by 1, 2`,
  `update organisations o set has_activity = true
     where exists (select 1 from organisation_activity a where a.organisation_reference = o.reference)`,
  `insert into organisation_counts (has_activity, is_fund, status, verified, confidence, organisations)
     select has_activity, is_fund, status, verified, confidence, count(*) from organisations group by 1, 2, 3, 4, 5`,
  `insert into organisation_names (reference, name, status, verified, confidence, is_fund, has_activity, country)
     select o.reference, o.name, o.status, o.verified, o.confidence, o.is_fund, o.has_activity, a.country
       from organisations o
       left join organisation_addresses a on a.organisation_reference = o.reference and a.kind = 'company'`,
  // organisation_filter_keys from organisation_names and the industries, and their counts.
  'select orgraph_organisation_filter_keys_rebuild()',
  // The counts of every piece of three to six characters of the names, and each trigram's names in their order.
  'select orgraph_organisation_name_fragments_rebuild()',
  'select orgraph_organisation_name_trigrams_rebuild()',
];

const phaseTotal = (phase: Phase) => phase.sources.reduce((sum, source) => sum + source.count, 0);

/** True when there are no organisations, i.e. nothing has been seeded. */
export async function isDatabaseEmpty(handle: DatabaseHandle): Promise<boolean> {
  const [row] = await queryRows<{ present: boolean }>(
    handle.db,
    sql`select exists (select 1 from ${organisationsTable}) as present`,
  );
  return !row?.present;
}

/**
 * Loads the deterministic dataset: the same scale and anchor day always give the same rows. Assumes the
 * migrations have run. Everything loads in one transaction (a failed run leaves the database as it was), with
 * the derived rows (activity index, organisation_names) filled after the load; then the tables are analysed.
 */
export async function seedDatabase(handle: DatabaseHandle, options: SeedOptions): Promise<SeedReport> {
  const started = performance.now();
  const world = createWorld(options.scale, options.now);
  if (!options.reset && !(await isDatabaseEmpty(handle))) {
    throw new Error('the database already holds data; pass --reset to replace it');
  }
  const phases = phasesFor(world);
  const report = options.onProgress ?? (() => {});
  // Announce every phase first, so a progress display knows when the last one is done.
  for (const phase of phases) report({ table: phase.table, done: 0, total: phaseTotal(phase) });
  for (const table of closingPhases) report({ table, done: 0, total: 1 });
  const bulkOptions = { statementTimeoutMs: options.maintenanceTimeoutMs };

  const rows: Record<string, number> = {};
  for (const table of seededTables) rows[getTableName(table)] = 0;

  await withBulkLoader(
    handle.driver,
    async (loader) => {
      // Also when the database looks empty: leftovers without organisations must not collide with the new rows.
      const tableNames = [
        ...seededTables.map((table) => getTableName(table)),
        getTableName(organisationNamesTable),
        getTableName(organisationActivityTable),
        getTableName(organisationCountsTable),
      ];
      await loader.execute(`truncate ${tableNames.map((name) => `"${name}"`).join(', ')}`);
      // The filter keys are built after the load (with their counts): only their index waits.
      const restore = await suspendConstraintsAndIndexes(loader, [
        ...tableNames,
        getTableName(organisationFilterKeysTable),
      ]);
      // The triggers that keep organisation_names, the activity index and the counts in step with each statement
      // stay off during the load. Their plans are made once, while the tables are empty, and kept: the names
      // trigger's plan hashed every company address loaded so far for each chunk of organisations, so each chunk
      // cost more than the last (bench/NOTES.md 27). The derived rows are filled in one pass after the load.
      for (const name of tableNames) await loader.execute(`alter table "${name}" disable trigger user`);
      const pipeline = new LoadPipeline(loader, rows);
      try {
        const occupationBatch = new RowBatch();
        occupations.forEach((occupation, i) => {
          occupationBatch.add(occupationsTable, { reference: occupationReference(i), name: occupation.name });
        });
        await pipeline.load(occupationBatch);
        for (const phase of phases) {
          const total = phaseTotal(phase);
          let done = 0;
          for (const source of phase.sources) {
            for (let start = 0; start < source.count; start += source.chunk) {
              const end = Math.min(source.count, start + source.chunk);
              const batch = new RowBatch(seededTables);
              for (let index = start; index < end; index += 1) {
                source.add(world, index, batch);
                // Let the socket drain the previous COPY while this chunk is generated.
                if ((index & 255) === 255) await yieldToEventLoop();
              }
              await pipeline.load(batch);
              done += end - start;
              report({ table: phase.table, done, total });
            }
          }
        }
      } catch (error) {
        // Let a COPY still in flight finish before the transaction rolls back.
        await pipeline.drain().catch(() => {});
        throw error;
      }
      await pipeline.drain();
      for (const statement of derivedRowsStatements) await loader.execute(statement);
      for (const name of tableNames) await loader.execute(`alter table "${name}" enable trigger user`);
      report({ table: 'activity', done: 1, total: 1 });
      await restore();
      report({ table: 'indexes', done: 1, total: 1 });
    },
    bulkOptions,
  );

  // Outside any transaction (VACUUM refuses one), each statement with the bulk timeout rather than the request
  // one. VACUUM marks the pages of the tables the lists and the event search filter on as all-visible, so that
  // their covering indexes are read alone rather than row by row.
  const vacuumed = [
    eventsTable,
    organisationsTable,
    organisationNamesTable,
    organisationFilterKeysTable,
    organisationNameFragmentsTable,
    organisationNameTrigramsTable,
    organisationIndustriesTable,
    organisationAddressesTable,
    organisationActivityTable,
  ].map((table): string => getTableName(table));
  const analysed = seededTables
    .map((table) => getTableName(table))
    .filter((name) => !vacuumed.includes(name));
  await runMaintenance(
    handle.driver,
    [`analyze ${analysed.join(', ')}`, `vacuum (analyze) ${vacuumed.join(', ')}`],
    bulkOptions,
  );
  report({ table: 'vacuum', done: 1, total: 1 });

  return { rows, seconds: (performance.now() - started) / 1000 };
}

/** Keeps one COPY round in flight while the next chunk is generated. */
class LoadPipeline {
  private inflight: Promise<void> = Promise.resolve();

  constructor(
    private readonly loader: BulkLoader,
    private readonly rows: Record<string, number>,
  ) {}

  async load(batch: RowBatch): Promise<void> {
    await this.inflight;
    const next = this.copyAll(batch);
    // Failures surface at the next `load` or `drain`; until then the rejection is held, not unhandled.
    next.catch(() => {});
    this.inflight = next;
  }

  async drain(): Promise<void> {
    await this.inflight;
  }

  private async copyAll(batch: RowBatch): Promise<void> {
    for (const chunk of batch.chunks()) {
      await this.loader.copy(chunk);
      this.rows[chunk.name] = (this.rows[chunk.name] ?? 0) + chunk.rows;
    }
  }
}
