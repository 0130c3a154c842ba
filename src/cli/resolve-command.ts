import { readFile, writeFile } from 'node:fs/promises';
import { extname } from 'node:path';
import cliProgress from 'cli-progress';
import { type Command, InvalidArgumentError } from 'commander';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import type { OrganisationInput, ProfileInput, ResolveRow } from '../domain/resolve/index.ts';
import {
  defaultMaxCandidates,
  defaultMinScore,
  maxMaxCandidates,
  maxResolveInputs,
} from '../domain/resolve/types.ts';
import type { AdminConversation } from './admin-client.ts';
import { finalAnswer } from './admin-client.ts';
import type { CommandStores } from './import-commands.ts';
import { checkInputFile, checkOutputFile } from './paths.ts';

// `orgraph resolve FILE`: a list resolved in calls of at most 1,000 rows through the domain matcher, written back
// with every column it had and four more. On the embedded store held by a server, each call goes through its socket.

type Kind = 'organisations' | 'profiles';
type Row = Record<string, unknown>;
type Input = OrganisationInput & ProfileInput;

/** Each kind's input columns, as the REST body names them, and the matcher's name for each. */
const inputColumns: Record<Kind, Record<string, keyof Input>> = {
  organisations: {
    name: 'name',
    domain: 'domain',
    website: 'website',
    ticker: 'ticker',
    country: 'country',
    city: 'city',
  },
  profiles: {
    name: 'name',
    first_name: 'firstName',
    last_name: 'lastName',
    linkedin_url: 'linkedinUrl',
    email: 'email',
    organisation: 'organisation',
    title: 'title',
  },
};
const columnOf: Record<string, string> = {
  firstName: 'first_name',
  lastName: 'last_name',
  linkedinUrl: 'linkedin_url',
};
const addedColumns = ['reference', 'status', 'score', 'matched_on'] as const;

export interface ResolveFileOptions {
  profiles: boolean;
  out?: string;
  minScore: number;
  maxCandidates: number;
}

/** Resolves one call's inputs, through the running server or on a store of its own. */
export type Resolver = (kind: Kind, inputs: Input[], options: ResolveFileOptions) => Promise<ResolveRow[]>;

function formatOf(path: string): 'csv' | 'ndjson' {
  const extension = extname(path).toLowerCase();
  if (extension === '.csv') return 'csv';
  if (extension === '.ndjson' || extension === '.jsonl') return 'ndjson';
  throw new Error(`The file ${path} must end in .csv, .ndjson or .jsonl, which says how it is written.`);
}

/** The file's rows and, for a CSV, its header's columns in order. */
export function readRows(text: string, format: 'csv' | 'ndjson'): { columns: string[]; rows: Row[] } {
  if (format === 'csv') {
    let columns: string[] = [];
    const rows = parse(text, {
      bom: true,
      skip_empty_lines: true,
      columns: (header: string[]) => {
        columns = header.map((column) => column.trim());
        return columns;
      },
    }) as Row[];
    return { columns, rows };
  }
  const rows = text.split('\n').flatMap((line, index) => {
    if (line.trim() === '') return [];
    let row: unknown;
    try {
      row = JSON.parse(line);
    } catch {
      throw new Error(`Line ${index + 1} is not JSON.`);
    }
    if (typeof row !== 'object' || row === null || Array.isArray(row))
      throw new Error(`Line ${index + 1} is not a JSON object.`);
    return [row as Row];
  });
  return { columns: [], rows };
}

/** A row's input fields, values as text; empty cells and other columns left out. `position` counts from 1. */
export function inputOf(kind: Kind, row: Row, position: number): Input {
  const clash = addedColumns.find((column) => column in row);
  if (clash)
    throw new Error(
      `Row ${position} has a column ${clash} already, which the answer would overwrite: rename it.`,
    );
  const input: Input = {};
  for (const [column, field] of Object.entries(inputColumns[kind])) {
    const value = row[column];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string' && typeof value !== 'number')
      throw new Error(
        `Row ${position}: ${column} must be text, not ${Array.isArray(value) ? 'a list' : typeof value}.`,
      );
    const text = String(value).trim();
    if (text !== '') input[field] = text;
  }
  return input;
}

/** The four columns added to a row: its best candidate, and what it matched on as `field:how` words. */
export function answerColumns(
  answer: ResolveRow,
): Record<(typeof addedColumns)[number], string | number | null> {
  const best = answer.candidates[0];
  return {
    reference: best?.reference ?? null,
    status: answer.status,
    score: best?.score ?? null,
    matched_on: best
      ? best.matchedOn
          .map((evidence) => `${columnOf[evidence.field] ?? evidence.field}:${evidence.how}`)
          .join(' ')
      : null,
  };
}

export function writeRows(
  format: 'csv' | 'ndjson',
  columns: string[],
  rows: Row[],
  answers: ResolveRow[],
): string {
  if (format === 'ndjson') {
    return rows
      .map((row, index) => `${JSON.stringify({ ...row, ...answerColumns(answers[index]!) })}\n`)
      .join('');
  }
  const header = [
    ...columns.filter((column) => !(addedColumns as readonly string[]).includes(column)),
    ...addedColumns,
  ];
  return stringify(
    rows.map((row, index) => ({ ...row, ...answerColumns(answers[index]!) })),
    { header: true, columns: header, cast: { number: (value) => String(value) } },
  );
}

/** A missing file, a directory or an unknown format, each said in one sentence before any work. */
function checkFiles(file: string, options: ResolveFileOptions): void {
  checkInputFile(file, 'The file');
  formatOf(file);
  if (options.out) checkOutputFile(options.out, 'The output file');
}

export async function resolveFile(
  file: string,
  options: ResolveFileOptions,
  resolver: Resolver,
): Promise<void> {
  checkFiles(file, options);
  const format = formatOf(file);
  const kind: Kind = options.profiles ? 'profiles' : 'organisations';
  const { columns, rows } = readRows(await readFile(file, 'utf8'), format);
  // Every row is read before the first call, so that a bad row stops the command before any work.
  const inputs = rows.map((row, index) => inputOf(kind, row, index + 1));
  const bar = process.stderr.isTTY
    ? new cliProgress.SingleBar(
        { stream: process.stderr, format: ' resolving {bar} {value}/{total} rows · {eta_formatted} left' },
        cliProgress.Presets.shades_classic,
      )
    : null;
  bar?.start(rows.length, 0);
  const answers: ResolveRow[] = [];
  try {
    for (let start = 0; start < rows.length; start += maxResolveInputs) {
      const call = inputs.slice(start, start + maxResolveInputs);
      const resolved = await resolver(kind, call, options);
      if (resolved.length !== call.length)
        throw new Error(`A call of ${call.length} rows was answered with ${resolved.length}.`);
      answers.push(...resolved);
      bar?.update(answers.length);
    }
  } finally {
    bar?.stop();
  }
  const output = writeRows(format, columns, rows, answers);
  if (options.out) await writeFile(options.out, output);
  else process.stdout.write(output);
  const count = (status: string) => answers.filter((answer) => answer.status === status).length;
  if (options.out || process.stderr.isTTY)
    console.error(
      `${rows.length} rows: ${count('matched')} matched, ${count('ambiguous')} ambiguous, ${count('none')} none.`,
    );
}

/** One call through the running server: the inputs go as a payload, the rows come back as one. */
async function resolveThroughServer(conversation: AdminConversation, inputs: Input[]): Promise<ResolveRow[]> {
  await conversation.send({ inputs: true }, Buffer.from(JSON.stringify(inputs)));
  let rows: ResolveRow[] | null = null;
  await finalAnswer(conversation, ({ message, payload }) => {
    if (message.rows === true && payload) rows = JSON.parse(payload.toString('utf8')) as ResolveRow[];
  });
  if (!rows) throw new Error('The running orgraph server answered without the rows.');
  return rows;
}

function parseMinScore(value: string): number {
  const score = Number(value);
  if (value.trim() === '' || !Number.isFinite(score) || score < 0 || score > 1)
    throw new InvalidArgumentError('min-score must be a number from 0 to 1.');
  return score;
}

function parseMaxCandidates(value: string): number {
  const count = Number(value);
  if (!/^\d+$/.test(value.trim()) || count < 1 || count > maxMaxCandidates)
    throw new InvalidArgumentError(`max-candidates must be a whole number from 1 to ${maxMaxCandidates}.`);
  return count;
}

export function registerResolveCommand(program: Command, stores: CommandStores): void {
  program
    .command('resolve <file>')
    .description(
      'Match the rows of a CSV or NDJSON file to organisations (or people) and write it back with reference, status, score and matched_on',
    )
    .option('--profiles', 'match people instead of organisations', false)
    .option('--out <file>', 'write here instead of standard output')
    .option(
      '--min-score <n>',
      'leave out candidates scoring below this, 0 to 1',
      parseMinScore,
      defaultMinScore,
    )
    .option(
      '--max-candidates <n>',
      `consider at most this many candidates a row, 1 to ${maxMaxCandidates}`,
      parseMaxCandidates,
      defaultMaxCandidates,
    )
    .action(async (file: string, options: ResolveFileOptions) => {
      checkFiles(file, options);
      const request = {
        command: 'resolve',
        kind: options.profiles ? 'profiles' : 'organisations',
        minScore: options.minScore,
        maxCandidates: options.maxCandidates,
      } as const;
      let opened = await stores.runningServer(request);
      if (!opened) {
        const { resolveOrganisations, resolveProfiles } = await import('../domain/resolve/index.ts');
        await stores.withDatabase((handle) =>
          resolveFile(file, options, (kind, inputs) =>
            (kind === 'profiles' ? resolveProfiles : resolveOrganisations)(handle.db, inputs, options),
          ),
        );
        return;
      }
      try {
        await resolveFile(file, options, async (_kind, inputs) => {
          const server = opened ?? (await stores.runningServer(request));
          opened = null;
          if (!server) throw new Error('The running orgraph server stopped before the file was resolved.');
          return resolveThroughServer(server.conversation, inputs);
        });
      } finally {
        // A file without rows never used the connection opened to find the server.
        opened?.conversation.socket.destroy();
      }
    });
}
