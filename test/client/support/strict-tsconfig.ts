import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Writes `dir/tsconfig.json` for checking a generated client's program the way its users would: `--strict`,
 * bundler resolution, no emit, no ambient types. `allowImportingTsExtensions` for programs that import `.ts` files.
 */
export function writeStrictTsconfig(
  dir: string,
  files: string[],
  options: { allowImportingTsExtensions?: boolean } = {},
): string {
  const path = join(dir, 'tsconfig.json');
  writeFileSync(
    path,
    JSON.stringify({
      compilerOptions: {
        target: 'ES2023',
        lib: ['ES2023', 'DOM', 'DOM.Iterable'],
        module: 'ESNext',
        moduleResolution: 'Bundler',
        ...options,
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        types: [],
      },
      files,
    }),
  );
  return path;
}
