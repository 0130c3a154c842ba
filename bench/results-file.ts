import { access } from 'node:fs/promises';
import { join } from 'node:path';

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

/**
 * The first of `stem`, `stem-2`, `stem-3`… under which none of the files `stem + suffix` exists in `directory`:
 * a second run on the same day writes beside the first one's results instead of over them.
 */
export async function unusedStem(
  directory: string,
  stem: string,
  suffixes: readonly string[],
): Promise<string> {
  for (let n = 1; n < 1000; n += 1) {
    const candidate = n === 1 ? stem : `${stem}-${n}`;
    const taken = await Promise.all(
      suffixes.map((suffix) => exists(join(directory, `${candidate}${suffix}`))),
    );
    if (!taken.includes(true)) return candidate;
  }
  throw new Error(`${directory} holds a thousand results named ${stem}`);
}
