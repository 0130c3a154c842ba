import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { importJsonSchemas } from '../src/domain/import/json-schemas.ts';

/** Writes schemas/import/<type>.json from the importer's own definitions (a test checks they are current). */
const directory = join(import.meta.dirname, '..', 'schemas', 'import');
await mkdir(directory, { recursive: true });
for (const [type, schema] of Object.entries(importJsonSchemas())) {
  await writeFile(join(directory, `${type}.json`), `${JSON.stringify(schema, null, 2)}\n`);
}
console.error(`Wrote the import schemas to ${directory}`);
