import { createReadStream, readdirSync } from 'node:fs';
import { loadConfig } from './src/config.ts';
import { openDatabase } from './src/db/database.ts';
import { importRecords } from './src/domain/import/import-records.ts';
const handle = await openDatabase(loadConfig());
const dir = process.argv[2]!;
const files = readdirSync(dir).map((f) => `${dir}/${f}`);
const t0 = performance.now();
let lastPhase = '';
const summary = await importRecords(handle, files.map((name) => ({ name, open: () => createReadStream(name) })), {
  onProgress: (p) => { if (p.phase !== lastPhase) { console.error(((performance.now() - t0) / 1000).toFixed(2), p.phase, p.read, p.written); lastPhase = p.phase; } },
});
console.error('total', summary.seconds, summary.read, summary.written);
await handle.close();
