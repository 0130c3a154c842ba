import { ensureDataset } from './dataset.ts';
import { defaultDatabaseUrl } from './options.ts';

/**
 * Prepares the bench's databases without measuring: `npx tsx bench/prepare.ts 1000` migrates and seeds
 * `<base>_s1000` exactly as `npm run bench -- --scales 1000` would (recording it in `bench_dataset`, so the bench
 * uses it as it is). For the large scales, which take long to seed: run it in the background, then bench.
 */
const scales = process.argv.slice(2).map(Number);
if (scales.length === 0 || scales.some((scale) => !Number.isFinite(scale) || scale <= 0)) {
  console.error(
    'usage: npx tsx bench/prepare.ts <scale> [<scale> ...]   (DATABASE_URL names the base database)',
  );
  process.exit(2);
}
for (const scale of scales) {
  const info = await ensureDataset(process.env.DATABASE_URL || defaultDatabaseUrl, scale);
  const seeded = info.seededNow ? `seeded in ${info.seedSeconds?.toFixed(1)} s` : 'already seeded';
  console.log(`${info.databaseName}: scale ${scale}, ${info.organisations} organisations, ${seeded}`);
}
