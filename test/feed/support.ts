import { afterAll } from 'vitest';
import { createScratchDatabase } from '../reliability/support/scratch-postgres.ts';

/**
 * On PostgreSQL the feed tests run on a database of their own, seeded with the demo dataset: the feed reads only
 * what transactions that have ended wrote, so the long transactions of other test files running at the same time
 * on the shared test database would hold it back. The settings to open the app (and CLI processes) with.
 */
export async function feedDatabase(
  label: string,
): Promise<{ env: NodeJS.ProcessEnv; url: string | undefined }> {
  if (!process.env.DATABASE_URL) return { env: {}, url: undefined };
  const scratch = await createScratchDatabase(label, { seedScale: 1 });
  afterAll(() => scratch.drop());
  return { env: { DATABASE_URL: scratch.url }, url: scratch.url };
}
