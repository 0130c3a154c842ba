import type { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { storedTables } from '../../db/bulk/documents.ts';
import { loadIntoEmptyStore, storeHoldsRecords } from '../../db/bulk/initial-load.ts';
import { type BulkSession, openBulkSession } from '../../db/bulk/session.ts';
import {
  addSource,
  anyDigestsKept,
  classifyBatch,
  confirmKnownLines,
  countOutcomes,
  createStaging,
  dropStaging,
  indexBatches,
  rejectedRecords,
  resolveLinks,
  type StagingText,
  settleDuplicates,
  stageKnownLines,
  stageRows,
  stageStoredLinks,
  writeBatch,
} from '../../db/bulk/staging.ts';
import { type DatabaseHandle, queryRows } from '../../db/database.ts';
import { LinesAgain } from './lines-again.ts';
import { typeOfFileName } from './parse-line.ts';
import { batchOfLine, type ChunkToRead, type LineBatches, readChunk } from './read-chunk.ts';
import { decodeLine, type Line, readLines } from './read-lines.ts';
import { defaultReadWorkers, ReadPool } from './read-pool.ts';
import { lineDigestOf, lineDigestOfBytes } from './read-record.ts';
import { type RecordType, recordLinks, recordTypes } from './records.ts';
import { type OpenRejects, type Rejection, RejectsFile, rejectionBody } from './rejects.ts';

export interface ImportSource {
  /** A path, or `-` for standard input; the file name may give the record type (`organisations.ndjson`). */
  name: string;
  open(): Readable;
  /** Whether `open` reads it again from the start (a file; not standard input). */
  rereadable: boolean;
}

export interface ImportProgress {
  phase: 'reading' | 'resolving' | 'writing' | 'refreshing';
  /** While writing, the record type being stored. */
  type?: string;
  read: number;
  written: number;
  rejected: number;
}

export interface ImportOptions {
  /** Validate and classify everything, store nothing. */
  dryRun?: boolean;
  /** Store nothing when any record is rejected; otherwise store everything in one transaction. */
  allOrNothing?: boolean;
  /** Lines of a file per batch: a batch's records of one type are written in one transaction (batchOfLine). */
  batchSize?: number;
  /** Where rejected records go (NDJSON); null to only count them. */
  rejectsPath?: string | null;
  /** How the rejects file is opened at the first rejection; by default, the file at `rejectsPath`. */
  openRejects?: OpenRejects;
  onProgress?: (progress: ImportProgress) => void;
  /** Worker threads that parse and validate the lines of a large import; 0 reads on the import's own thread. */
  readWorkers?: number;
}

export interface TypeCounts {
  inserted: number;
  updated: number;
  unchanged: number;
  deleted: number;
  rejected: number;
}

export interface ImportSummary {
  read: number;
  written: number;
  rejected: number;
  /** False on a dry run, and when `--all-or-nothing` met a rejection. */
  committed: boolean;
  /** True when the store was empty and the import was loaded in one transaction, as the seed loads. */
  initial_load: boolean;
  dry_run: boolean;
  types: Record<string, TypeCounts>;
  rejects: string | null;
  seconds: number;
}

/**
 * Parsed records (with their documents) per COPY into the staging tables. Small enough that a chunk's records die
 * young: larger chunks outlived the young generation, and the old one grew with every line read (bench/NOTES.md 60).
 */
const stagingChunk = 500;
/**
 * Lines per lookup of their digests (one statement, an index probe per line): many while the lines are known
 * (staged without parsing, they cost little memory, and each statement costs PostgreSQL as much as the rows of
 * thousands of lines: bench/NOTES.md 42), few while they are parsed (their records are the memory the chunk holds:
 * bench/NOTES.md 38).
 */
const lookupChunk = { known: 10_000, parsed: stagingChunk };
/**
 * At most this much line text (UTF-16 code units, or bytes for a line not decoded) per lookup, whatever the number
 * of lines (a line may be 1 MiB): less while the lines are parsed, since their records and documents are held until
 * staged, which keeps files of long lines (articles) within the import's memory budget (bench/NOTES.md 41, 60).
 */
const lookupChunkText = { known: 8 * 1024 * 1024, parsed: 1024 * 1024 };
/** Chunks of lines handed to the read pool ahead of the one being staged. */
const readAhead = 3;

/** A line's digest (lineDigestOf) as it was read, text or bytes; null for a line that could not be read. */
function digestOfLine(line: Line, defaultType: RecordType | null): string | null {
  if ('encoded' in line) return lineDigestOfBytes(line.encoded, defaultType);
  return 'text' in line ? lineDigestOf(line.text, defaultType) : null;
}

const emptyCounts = (): TypeCounts => ({ inserted: 0, updated: 0, unchanged: 0, deleted: 0, rejected: 0 });

/**
 * Imports NDJSON records in two passes over the database, one over the files. Reading validates each line and
 * stages the valid records in temporary tables (COPY); resolving checks every link against the staged and the
 * stored records, type by type in storage order, so records may name each other across files and in any order;
 * writing classifies each batch against the stored documents and upserts only what differs, one transaction
 * per batch (or one in all for `allOrNothing`). A killed import leaves whole batches, and a rerun finds them
 * unchanged and finishes the rest.
 *
 * Into an empty store, from files, the reading stages each record as the rows it is stored as rather than as its
 * document, and the initial load copies those rows into the tables: a document is needed only to compare a record
 * with a stored one, and an empty store has none. Should the store hold records by the time of the load, the
 * import starts again the usual way; a record rejected after the reading is read again from its file for the
 * rejects.
 */
export async function importRecords(
  handle: DatabaseHandle,
  sources: readonly ImportSource[],
  options: ImportOptions = {},
): Promise<ImportSummary> {
  const started = performance.now();
  try {
    return await importOnce(handle, sources, options, started, { rows: sources.every((s) => s.rereadable) });
  } catch (error) {
    if (!(error instanceof StoreNoLongerEmpty)) throw error;
    return importOnce(handle, sources, options, started, { rows: false });
  }
}

/** The store was empty when an import staged its records as rows, and held records when it came to store them. */
class StoreNoLongerEmpty extends Error {}

async function importOnce(
  handle: DatabaseHandle,
  sources: readonly ImportSource[],
  options: ImportOptions,
  started: number,
  allowed: { rows: boolean },
): Promise<ImportSummary> {
  const batchSize = options.batchSize ?? 5_000;
  const rejects = new RejectsFile(options.rejectsPath ?? null, options.openRejects);
  const types: Record<string, TypeCounts> = {};
  const countsOf = (type: string) => {
    types[type] ??= emptyCounts();
    return types[type];
  };
  for (const type of recordTypes) countsOf(type);
  const progress: ImportProgress = { phase: 'reading', read: 0, written: 0, rejected: 0 };
  const report = () => options.onProgress?.({ ...progress });

  const readWorkers = options.readWorkers ?? defaultReadWorkers;
  let pool = null as ReadPool | null;
  const session = await openBulkSession(handle.driver, 'orgraph-import');
  let committed = false;
  let initialLoad = false;
  let linesAgain = null as LinesAgain | null;
  try {
    // With no digest kept (a first import), no line or record can be known: the lookups are skipped, and with
    // them the wait for each COPY before the next chunk is parsed.
    const digestsKept = await anyDigestsKept(session);
    const rowsStaged = allowed.rows && !digestsKept && !(await storeHoldsRecords(session));
    await createStaging(session, { rows: rowsStaged });
    let knownLines = 0;
    // Lines parsed so far: the read pool starts once they are enough to pay for its threads, whatever the size of
    // the chunks (a chunk of 4 KB lines holds fewer than 500).
    let unreadLines = 0;
    // What decides whether the links of known lines are needed (see stageStoredLinks).
    let parsedRecords = 0;
    let deletions = 0;
    let parsedOrganisations = 0;
    // The batches each type's parsed records are staged in (batchOfLine): each file's lines make batches of their
    // own, after the batches of the files before. Known lines are in no batch (stageKnownLines).
    const batchesOfType = new Map<string, Set<number>>();
    let nextBatch = 0;
    for (const [index, source] of sources.entries()) {
      await addSource(session, index, source.name);
      const defaultType = typeOfFileName(source.name);
      const batches: LineBatches = { first: nextBatch, size: batchSize };
      let lastLine = 0;
      const emptyText = (): StagingText & { records: number } => ({
        records: 0,
        staged: [],
        keys: [],
        links: [],
        rows: new Map(),
      });
      let pending = emptyText();
      let inflight: Promise<void> = Promise.resolve();
      const flush = async () => {
        await inflight;
        const rows = pending;
        pending = emptyText();
        // One COPY in flight while the next lines are read; its failure surfaces at the next flush.
        inflight = stageRows(session, rows);
        inflight.catch(() => {});
      };
      const reject = async (type: string, rejection: Omit<Rejection, 'source'>) => {
        countsOf(type).rejected += 1;
        progress.rejected += 1;
        await rejects.write({ source: source.name, ...rejection });
      };
      // Lines are taken a chunk at a time: one lookup finds the lines the store knows, which are staged as the
      // records they stand for without being read; the others are parsed and validated (on the read pool's
      // threads once the import is large enough to pay for them) and staged in full, in the order of the lines.
      let chunk: { line: Line; digest: string | null }[] = [];
      let chunkText = 0;
      let lastChunkKnown = false;
      let processing: Promise<void> = Promise.resolve();
      const processed: Promise<void>[] = [];
      const takeChunk = async () => {
        const lines = chunk;
        chunk = [];
        chunkText = 0;
        // The known lines are staged by the lookup itself, in the session's order after the chunks before; the
        // unknown lines are read once it is done, and staged after the chunks before, in the order of the lines.
        const lookup = digestsKept
          ? stageKnownLines(session, {
              source: index,
              lines: lines.flatMap((entry) =>
                entry.digest === null ? [] : [{ number: entry.line.number, digest: entry.digest }],
              ),
            })
          : Promise.resolve(null);
        /** Whether a line was staged by the lookup. */
        const isKnown = (entry: (typeof lines)[number], found: { unknown: Set<number> } | null) =>
          found !== null && entry.digest !== null && !found.unknown.has(entry.line.number);
        const reading = lookup.then((found) => {
          lastChunkKnown = (found?.known ?? 0) * 2 > lines.length;
          const unread: ChunkToRead['lines'] = [];
          for (const entry of lines) {
            if (isKnown(entry, found)) continue;
            // A line read as bytes (the store keeps digests) is decoded only now that it is not known.
            if ('encoded' in entry.line) entry.line = decodeLine(entry.line);
            if ('text' in entry.line) unread.push([entry.line.number, entry.line.text, entry.digest]);
          }
          unreadLines += unread.length;
          if (pool === null && readWorkers > 0 && unreadLines >= lookupChunk.parsed) {
            pool = new ReadPool(readWorkers);
          }
          const toRead: ChunkToRead = {
            source: index,
            defaultType,
            batches,
            lines: unread,
            rows: rowsStaged,
          };
          return Promise.all([found, pool ? pool.read(toRead) : [readChunk(toRead)]] as const);
        });
        reading.catch(() => {});
        processing = processing.then(async () => {
          const [found, read] = await reading;
          const outcomes = read.flatMap((piece) => piece.outcomes);
          let next = 0;
          for (const entry of lines) {
            const { line } = entry;
            if ('error' in line) {
              const reason =
                line.error === 'too-long'
                  ? `the line is longer than 1 MiB (${line.bytes} bytes)`
                  : 'the line is not valid UTF-8';
              await reject('unknown', { line: line.number, record_head: line.head, reasons: [reason] });
              continue;
            }
            if (isKnown(entry, found)) {
              knownLines += 1;
              continue;
            }
            const outcome = outcomes[next++];
            if (!outcome) throw new Error(`line ${line.number} was not read`);
            if (!outcome.ok) {
              await reject(outcome.type, outcome.rejection);
              continue;
            }
            const batchesOf = batchesOfType.get(outcome.type) ?? new Set<number>();
            batchesOfType.set(outcome.type, batchesOf.add(batchOfLine(batches, line.number)));
            pending.records += 1;
            parsedRecords += 1;
            if (outcome.deleted) deletions += 1;
            else if (outcome.type === 'organisation') parsedOrganisations += 1;
          }
          for (const piece of read) {
            pending.staged.push(piece.staged);
            pending.keys.push(piece.keys);
            pending.links.push(piece.links);
            for (const [table, rows] of Object.entries(piece.rows)) {
              const parts = pending.rows.get(table);
              if (parts) parts.push(rows);
              else pending.rows.set(table, [rows]);
            }
          }
          if (pending.records >= stagingChunk) await flush();
        });
        processing.catch(() => {});
        processed.push(processing);
        // At most a few chunks read ahead of the staging: their records are the memory the import holds.
        while (processed.length > readAhead) await processed.shift();
      };
      for await (const line of readLines(source.open(), { decode: !digestsKept })) {
        progress.read += 1;
        lastLine = line.number;
        chunk.push({
          line,
          digest: digestsKept ? digestOfLine(line, defaultType) : null,
        });
        if ('text' in line) chunkText += line.text.length;
        else if ('encoded' in line) chunkText += line.encoded.length;
        if (
          chunk.length >= (lastChunkKnown ? lookupChunk.known : lookupChunk.parsed) ||
          chunkText >= (lastChunkKnown ? lookupChunkText.known : lookupChunkText.parsed)
        ) {
          await takeChunk();
        }
        if ((progress.read & 1023) === 0) report();
      }
      await takeChunk();
      await processing;
      await flush();
      await inflight;
      nextBatch = batchOfLine(batches, lastLine) + 1;
    }

    progress.phase = 'resolving';
    report();
    // Only a parsed record's links are checked against the known records' keys: with none, they are not needed.
    if (knownLines > 0 && parsedRecords > 0) {
      await stageStoredLinks(session, { links: deletions > 0 || parsedOrganisations > 0 });
    }
    await settleDuplicates(session);
    for (const type of recordTypes) await resolveLinks(session, type, recordLinks[type]);
    const stagedRejections = await countStagedRejections(session);
    const anyRejected = progress.rejected + stagedRejections > 0;
    progress.rejected += stagedRejections;

    if (options.dryRun || (options.allOrNothing && anyRejected)) {
      // Staged as rows, the records have no document to compare: the store was empty, so each would be new.
      if (!rowsStaged) for (const type of recordTypes) await classifyBatch(session, type, null);
    } else {
      progress.phase = 'writing';
      report();
      const writeAll = async (writer: BulkSession) => {
        await indexBatches(writer);
        for (const type of recordTypes) {
          progress.type = type;
          // Known lines have nothing to write: one statement confirms them all (finding any record another writer
          // changed since its line was looked up), outside any transaction.
          if (knownLines > 0) await confirmKnownLines(writer, type);
          for (const batch of [...(batchesOfType.get(type) ?? [])].sort((a, b) => a - b)) {
            const write = async (tx: BulkSession) => {
              await classifyBatch(tx, type, batch);
              return writeBatch(tx, type, batch);
            };
            progress.written += options.allOrNothing ? await write(writer) : await writer.transaction(write);
            report();
          }
        }
      };
      // Into an empty store everything goes in one transaction, the way the seed loads; else batch by batch.
      initialLoad = await loadIntoEmptyStore(
        session,
        (type) => {
          progress.type = type;
          report();
        },
        { rows: rowsStaged },
      );
      if (!initialLoad && rowsStaged) throw new StoreNoLongerEmpty();
      if (!initialLoad) {
        if (options.allOrNothing) await session.transaction(writeAll);
        else await writeAll(session);
      }
      committed = true;
    }

    for (const row of await countOutcomes(session, initialLoad || rowsStaged)) {
      const counts = countsOf(row.type);
      if (row.outcome === 'absent') counts.unchanged += row.records;
      else if (row.outcome in counts) counts[row.outcome as keyof TypeCounts] += row.records;
    }
    // Records found stale while writing were rejected then.
    progress.rejected = Object.values(types).reduce((sum, counts) => sum + counts.rejected, 0);
    for (let after = 0; ; ) {
      const page = await rejectedRecords(session, after, 1_000);
      if (page.length === 0) break;
      for (const rejection of page) {
        // A record staged as its rows is read again from its line.
        let text = rejection.document;
        if (!rejection.documented && rowsStaged) {
          linesAgain ??= new LinesAgain(sources.map((source) => () => source.open()));
          text = (await linesAgain.text(rejection.source, rejection.line)) ?? text;
        }
        await rejects.write({
          source: sources[rejection.source]?.name ?? String(rejection.source),
          line: rejection.line,
          ...rejectionBody(text, parseOrUndefined(text)),
          reasons: rejection.reasons,
        });
      }
      after = page[page.length - 1]!.id;
    }
    await dropStaging(session);
  } finally {
    await linesAgain?.close();
    await pool?.close();
    await session.close();
    await rejects.close();
  }

  const written = Object.values(types).reduce((sum, c) => sum + c.inserted + c.updated + c.deleted, 0);
  if (committed && written > 0) {
    progress.phase = 'refreshing';
    delete progress.type;
    report();
    await refreshDerivedData(handle, touchedTables(types));
  }
  progress.written = committed ? written : 0;
  report();
  return {
    read: progress.read,
    written: progress.written,
    rejected: progress.rejected,
    committed,
    initial_load: initialLoad,
    dry_run: Boolean(options.dryRun),
    types,
    rejects: rejects.count > 0 ? rejects.path : null,
    seconds: Math.round((performance.now() - started) / 10) / 100,
  };
}

function parseOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

async function countStagedRejections(session: BulkSession): Promise<number> {
  const [row] = await session.query<{ n: number }>(
    `select count(*)::integer as n from import_staged where state in ('rejected', 'unlinked')`,
  );
  return Number(row?.n ?? 0);
}

function touchedTables(types: Record<string, TypeCounts>): string[] {
  const tables = new Set<string>();
  for (const type of recordTypes) {
    const counts = types[type];
    if (counts && counts.inserted + counts.updated + counts.deleted > 0) {
      for (const table of storedTables[type]) tables.add(table);
      // A deleted organisation or profile takes the records that link to it along.
      if (counts.deleted > 0 && (type === 'organisation' || type === 'profile' || type === 'article')) {
        for (const list of Object.values(storedTables)) for (const table of list) tables.add(table);
      }
    }
  }
  return [...tables];
}

/**
 * Brings what the service derives from the records in line after an import: the planner's statistics of the
 * tables written, which the lists' counts and estimates read. The activity index, the maintained counts, the
 * organisation name mirror and the filter keys follow by their triggers as each batch commits, relationship
 * counts are columns of the records, and suggestions and saved searches read the tables themselves.
 */
export async function refreshDerivedData(handle: DatabaseHandle, tables: readonly string[]): Promise<void> {
  if (tables.length === 0) return;
  // The activity index and the filter keys follow organisations and events by triggers.
  const analysed = [
    ...tables,
    'organisation_activity',
    'organisation_filter_keys',
    'organisation_name_fragments',
    'organisation_name_trigrams',
  ];
  // A server gathers the statistics on two connections at once, the tables shared out by size: analyze reads
  // one table at a time on one core (bench/NOTES.md 43). The embedded store has one connection.
  const groups = handle.driver.kind === 'postgres' ? await sharedBySize(handle, analysed, 2) : [analysed];
  await Promise.all(
    groups.map((group) =>
      handle.db.transaction(async (tx) => {
        if (handle.driver.kind === 'postgres') await tx.execute(sql`set local statement_timeout = 0`);
        await tx.execute(sql.raw(`analyze ${group.join(', ')}`));
      }),
    ),
  );
}

/** `tables` in `count` groups of about the same size on disk, the largest tables first. */
async function sharedBySize(
  handle: DatabaseHandle,
  tables: readonly string[],
  count: number,
): Promise<string[][]> {
  const sizes = await queryRows<{ name: string; bytes: number }>(
    handle.db,
    sql.raw(
      `select name, pg_total_relation_size(to_regclass(name))::float8 as bytes
         from unnest(array[${tables.map((table) => `'${table}'`).join(', ')}]) as t(name) order by 2 desc, 1`,
    ),
  );
  const groups = Array.from({ length: count }, () => ({ tables: [] as string[], bytes: 0 }));
  for (const { name, bytes } of sizes) {
    const smallest = groups.reduce((a, b) => (b.bytes < a.bytes ? b : a));
    smallest.tables.push(name);
    smallest.bytes += Number(bytes);
  }
  return groups.map((group) => group.tables).filter((group) => group.length > 0);
}
