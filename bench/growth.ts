import { readFile } from 'node:fs/promises';
import { renderGrowth, type ScaleResult } from './report.ts';

/**
 * The growth tables from result files of separate runs, e.g. a scale-100 and a scale-1000 run made apart:
 * `npx tsx bench/growth.ts bench/runs/<date>-scale100.json bench/runs/<date>-scale1000.json`.
 */
const files = process.argv.slice(2);
if (files.length < 2) {
  console.error('usage: npx tsx bench/growth.ts <result.json> <result.json> [...]');
  process.exit(2);
}
const results = await Promise.all(
  files.map(async (file) => JSON.parse(await readFile(file, 'utf8')) as ScaleResult),
);
console.log(renderGrowth(results));
