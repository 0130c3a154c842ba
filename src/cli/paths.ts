import { statSync } from 'node:fs';
import { dirname } from 'node:path';

// A path named on the command line is checked before any work starts, so that a typo is one sentence rather than
// a raw ENOENT or EISDIR from deep inside the command.

function kindOf(path: string): 'file' | 'directory' | 'other' | null {
  try {
    const stats = statSync(path);
    return stats.isFile() ? 'file' : stats.isDirectory() ? 'directory' : 'other';
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new Error(`${path} cannot be read: ${(error as Error).message}`);
  }
}

/** A file to read (`what`: "The import file"); a named pipe or a device reads too, `-` is standard input. */
export function checkInputFile(path: string, what: string): void {
  if (path === '-') return;
  const kind = kindOf(path);
  if (kind === null) throw new Error(`${what} ${path} does not exist.`);
  if (kind === 'directory') throw new Error(`${what} ${path} is a directory, not a file.`);
}

/** A file to write, created or replaced; its directory must exist. */
export function checkOutputFile(path: string, what: string): void {
  const kind = kindOf(path);
  if (kind === 'directory') throw new Error(`${what} ${path} is a directory, not a file.`);
  const parent = dirname(path);
  const parentKind = kindOf(parent);
  if (parentKind === null)
    throw new Error(`${what} ${path} is in a directory that does not exist (${parent}).`);
  if (parentKind !== 'directory')
    throw new Error(`${what} ${path} is in ${parent}, which is not a directory.`);
}

/** A directory to write into, created when missing; a file by that name is an error. */
export function checkOutputDirectory(path: string, what: string): void {
  const kind = kindOf(path);
  if (kind !== null && kind !== 'directory') throw new Error(`${what} ${path} is a file, not a directory.`);
}
