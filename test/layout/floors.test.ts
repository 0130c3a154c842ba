import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const src = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');

/**
 * The floors of `src/`, top to bottom: a file may import its own folder and any folder on a lower floor. The
 * leaves (configuration, reference data, package paths) import nothing of the service; the typed client is a
 * package of its own and imports nothing of it either.
 */
const floors: readonly (readonly string[])[] = [
  ['cli'],
  ['server'],
  ['graphql', 'rest', 'reconcile'],
  ['http'],
  ['auth'],
  ['domain'],
  ['db'],
  ['reference', 'config.ts', 'package-files.ts'],
];
const floorOf = new Map(floors.flatMap((names, level) => names.map((name) => [name, level] as const)));

/** The transports stand on the request kit, access and the domain only: never on storage or on each other. */
const transportMayImport = new Set(['http', 'auth', 'domain']);

/** The closed sets of the domain's vocabulary, which storage reads to declare its enum types; they import nothing. */
const vocabulary = 'domain/vocabulary/';

const topOf = (path: string) => path.split('/')[0]!;

/** Why `from` may not import `to` (both `src/`-relative), or null when it may. */
function breach(from: string, to: string): string | null {
  const [fromTop, toTop] = [topOf(from), topOf(to)];
  // The demo dataset's generator lives beside src/ and is the CLI's to run.
  if (to.startsWith('../seeds/')) return topOf(from) === 'cli' ? null : 'only the CLI runs the seed';
  if (toTop.startsWith('..')) return 'outside src';
  if (from.startsWith(vocabulary)) return 'the vocabulary imports nothing';
  if (fromTop === toTop) return null;
  if (fromTop === 'client' || toTop === 'client') return 'the client is a package of its own';
  if (fromTop === 'db' && to.startsWith(vocabulary)) return null;
  if (['graphql', 'rest', 'reconcile'].includes(fromTop) && !transportMayImport.has(toTop)) {
    return 'a transport imports only http, auth and domain';
  }
  const [fromFloor, toFloor] = [floorOf.get(fromTop), floorOf.get(toTop)];
  if (fromFloor === undefined || toFloor === undefined) return 'a folder with no floor';
  return toFloor <= fromFloor ? 'looks up' : null;
}

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** The `src/`-relative paths a file imports: static, dynamic and type-only imports alike. */
function importsOf(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return importedFiles
    .map((imported) => imported.fileName)
    .filter((name) => name.startsWith('.'))
    .map((name) => relative(src, resolve(dirname(file), name)).replaceAll('\\', '/'));
}

describe('the floors of src/', () => {
  const files = sourceFiles(src);

  it('reads every source file and its imports', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(importsOf(join(src, 'server/app.ts'))).toEqual(
      expect.arrayContaining(['rest/router.ts', 'graphql/yoga.ts', 'http/errors.ts']),
    );
  });

  it('has every import look down: cli → server → graphql | rest | reconcile → http → auth → domain → db', () => {
    const breaches = files.flatMap((file) => {
      const from = relative(src, file).replaceAll('\\', '/');
      return importsOf(file).flatMap((to) => {
        const why = breach(from, to);
        return why ? [`${from} -> ${to}: ${why}`] : [];
      });
    });
    expect(breaches).toEqual([]);
  });

  it('names each kind of breach', () => {
    expect(breach('graphql/refs.ts', 'db/schema/articles.ts')).toBe(
      'a transport imports only http, auth and domain',
    );
    expect(breach('rest/router.ts', 'server/app.ts')).toBe('a transport imports only http, auth and domain');
    expect(breach('rest/router.ts', 'graphql/yoga.ts')).toBe(
      'a transport imports only http, auth and domain',
    );
    expect(breach('http/context.ts', 'rest/errors.ts')).toBe('looks up');
    expect(breach('domain/errors.ts', 'http/errors.ts')).toBe('looks up');
    expect(breach('db/database.ts', 'domain/errors.ts')).toBe('looks up');
    expect(breach('domain/vocabulary/events.ts', 'db/schema/events.ts')).toBe(
      'the vocabulary imports nothing',
    );
    expect(breach('server/app.ts', 'client/index.ts')).toBe('the client is a package of its own');
    expect(breach('db/schema/events.ts', 'domain/vocabulary/events.ts')).toBeNull();
    expect(breach('rest/routes/events.ts', 'domain/events/find-events.ts')).toBeNull();
    expect(breach('cli/main.ts', 'server/listen.ts')).toBeNull();
    expect(breach('cli/main.ts', '../seeds/seed-database.ts')).toBeNull();
    expect(breach('domain/activity.ts', '../seeds/seed-database.ts')).toBe('only the CLI runs the seed');
  });
});
