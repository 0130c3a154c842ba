import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** The package's root directory, found by its own name, so the sources and the compiled build agree. */
const packageRoot = dirname(createRequire(import.meta.url).resolve('orgraph/package.json'));

/** A file shipped with the package but not compiled (migrations, the default plan catalogue). */
export function packageFile(...segments: string[]): string {
  return join(packageRoot, ...segments);
}
