import { once } from 'node:events';
import { createReadStream, createWriteStream, statSync, type WriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { type Command, InvalidArgumentError, Option } from 'commander';
import type { DatabaseHandle } from '../db/database.ts';
import type { ImportOptions } from '../domain/import/import-records.ts';
import {
  isRecordTypeName as isRecordType,
  type RecordTypeName as RecordType,
  recordTypeNames as recordTypes,
} from '../domain/import/record-types.ts';
import { packageFile } from '../package-files.ts';
import type { AdminRequest } from '../server/admin-protocol.ts';
import type { AdminConversation } from './admin-client.ts';
import { FileBytes, progressBar, progressLines } from './import-progress.ts';
import { checkInputFile, checkOutputDirectory, checkOutputFile } from './paths.ts';
import { exportThroughServer, importThroughServer } from './records-through-server.ts';

// The importer and exporter (zod, the bulk session) load only when their command runs, as the seed does.

/** Where a command's work is done: on the database itself, or by the server running on the embedded store. */
export interface CommandStores {
  withDatabase<T>(work: (handle: DatabaseHandle) => Promise<T>): Promise<T>;
  /** A conversation with the server running on the embedded store, begun with `request`; null when there is none. */
  runningServer(request: AdminRequest): Promise<{ conversation: AdminConversation; dataDir: string } | null>;
}

function parseBatchSize(value: string): number {
  const size = Number(value);
  if (!Number.isInteger(size) || size < 1 || size > 100_000) {
    throw new InvalidArgumentError('batch size must be an integer from 1 to 100000');
  }
  return size;
}

function parseType(value: string, previous: RecordType[] = []): RecordType[] {
  if (!isRecordType(value)) throw new InvalidArgumentError(`type must be one of ${recordTypes.join(', ')}`);
  return [...previous, value];
}

export function registerImportCommands(
  program: Command,
  { withDatabase, runningServer }: CommandStores,
): void {
  program
    .command('import')
    .description(
      'Import records from NDJSON files (or - for standard input): upsert by reference, report the rest',
    )
    .argument('<files...>', 'NDJSON files, one record per line; - reads standard input')
    .option('--dry-run', 'validate and count, store nothing', false)
    .option('--all-or-nothing', 'store nothing when any record is rejected', false)
    .option('--rejects <path>', 'where rejected records go (NDJSON)', 'rejects.ndjson')
    .option(
      '--batch-size <n>',
      'lines of a file per batch, each type of it written in one transaction',
      parseBatchSize,
      5_000,
    )
    .addOption(
      new Option(
        '--progress <mode>',
        'bar (percentage, rate and time left), lines (a JSON line on stderr per batch or type written) or ' +
          'none; by default bar on a terminal, otherwise none',
      ).choices(['bar', 'lines', 'none']),
    )
    .addHelpText(
      'after',
      `\nRecord types: ${recordTypes.join(', ')}. A record is keyed by its reference;\n` +
        '{ "type": …, "reference": …, "deleted": true } removes one. A file named after a type\n' +
        '(organisations.ndjson) may leave out "type".\n' +
        `JSON Schema of each record type: ${packageFile('schemas', 'import')}/<type>.json\n` +
        'Exit status: 0 when every record was stored, 2 when some were rejected, 1 on failure.',
    )
    .action(
      async (
        files: string[],
        options: {
          dryRun: boolean;
          allOrNothing: boolean;
          rejects: string;
          batchSize: number;
          progress?: 'bar' | 'lines' | 'none';
        },
      ) => {
        for (const name of files) checkInputFile(name, 'The import file');
        checkOutputFile(options.rejects, 'The rejects file');
        const bytes = new FileBytes(files.map((name) => (name === '-' ? null : statSync(name).size)));
        const mode = options.progress ?? (process.stderr.isTTY ? 'bar' : 'none');
        const display = mode === 'bar' ? progressBar(bytes) : mode === 'lines' ? progressLines() : null;
        const importOptions = {
          dryRun: options.dryRun,
          allOrNothing: options.allOrNothing,
          batchSize: options.batchSize,
          rejectsPath: options.rejects,
          ...(display ? { onProgress: display.update } : {}),
        };
        try {
          const server = await runningServer({
            command: 'import',
            sources: files.map((name) => ({ name, rereadable: name !== '-' })),
            dryRun: options.dryRun,
            allOrNothing: options.allOrNothing,
            batchSize: options.batchSize,
            rejects: options.rejects,
            progress: display !== null,
          });
          const summary = server
            ? await importThroughServer(
                server.conversation,
                server.dataDir,
                files,
                options.rejects,
                bytes,
                display?.update,
              )
            : await importDirectly(files, bytes, importOptions);
          display?.stop();
          process.stdout.write(`${JSON.stringify(summary)}\n`);
          if (summary.rejected > 0) process.exitCode = 2;
        } finally {
          display?.stop();
        }
      },
    );

  function importDirectly(files: string[], bytes: FileBytes, options: ImportOptions) {
    // The import's live heap is small, but what it reads dies in the old generation, which V8 lets grow far
    // past it before collecting: held down, the peak RSS stays within the import's budget (bench/NOTES.md 38).
    // The heap's limit is computed again after each collection, so the flag takes effect even set now.
    setFlagsFromString('--heap-growing-percent=25');
    return withDatabase(async (handle) => {
      const { importRecords } = await import('../domain/import/import-records.ts');
      return importRecords(
        handle,
        files.map((name, index) => ({
          name,
          open: () => {
            if (name === '-') return process.stdin;
            const stream = createReadStream(name, { highWaterMark: 256 * 1024 });
            bytes.track(index, () => stream.bytesRead);
            return stream;
          },
          rereadable: name !== '-',
        })),
        options,
      );
    });
  }

  program
    .command('export')
    .description('Write the stored records in the import format (NDJSON)')
    .option('--type <type>', `only this record type (repeatable): ${recordTypes.join(', ')}`, parseType)
    .option(
      '--out <dir>',
      'write one file per type (<type>.ndjson) into this directory instead of standard output',
    )
    .action(async (options: { type?: RecordType[]; out?: string }) => {
      const types = recordTypes.filter((type) => !options.type || options.type.includes(type));
      if (options.out) {
        checkOutputDirectory(options.out, 'The export directory');
        await mkdir(options.out, { recursive: true });
      }
      const files = new Map<string, WriteStream>();
      const target = (type: string): Writable => {
        if (!options.out) return process.stdout;
        let file = files.get(type);
        if (!file) {
          file = createWriteStream(join(options.out, `${type}.ndjson`));
          files.set(type, file);
        }
        return file;
      };
      const server = await runningServer({ command: 'export', types });
      const counts = server
        ? await exportThroughServer(server.conversation, target)
        : await withDatabase(async (handle) => {
            const { exportRecords } = await import('../domain/import/export-records.ts');
            return exportRecords(handle, types, async (type, lines) => {
              const stream = target(type);
              if (!stream.write(`${lines.join('\n')}\n`)) await once(stream, 'drain');
            });
          });
      for (const file of files.values()) {
        await new Promise<void>((resolve, reject) =>
          file.end((error?: Error | null) => (error ? reject(error) : resolve())),
        );
      }
      process.stderr.write(`${JSON.stringify({ exported: counts })}\n`);
    });
}
