import { sql } from 'drizzle-orm';
import { loadConfig } from '../src/config.ts';
import { openDatabase, queryRows } from '../src/db/database.ts';
import { countOrganisations, findOrganisations } from '../src/domain/organisations/find-organisations.ts';
import { databaseUrlFor } from './dataset.ts';
import { defaultDatabaseUrl } from './options.ts';

/**
 * How quickly new activity reaches the default organisation list on a bench database:
 * `npx tsx bench/activity.ts 1000 [batch, default 1000]`. Through the server's own connection settings (the request statement timeout),
 * it writes one event for an organisation without activity and, as an import would, one statement of `batch`
 * events for as many such organisations; times each write and until the list shows them; then deletes them again,
 * timing that too, and checks the list is back where it was. Leaves the data as it found it.
 */
const scale = Number(process.argv[2] ?? '100');
const batch = Number(process.argv[3] ?? '1000');
const url = databaseUrlFor(process.env.DATABASE_URL || defaultDatabaseUrl, scale);
const handle = await openDatabase(loadConfig({ ...process.env, DATABASE_URL: url }));
const db = handle.db;
const ms = (since: number) => `${(performance.now() - since).toFixed(1)} ms`;

try {
  const before = await countOrganisations(db, {}, { timeoutMs: 200 });
  const quiet = await queryRows<{ reference: string; name: string }>(
    db,
    sql`select reference, name from organisations where not has_activity and confidence >= 5 and not is_fund
        order by reference limit ${batch + 1}`,
  );
  const [one, ...many] = quiet;
  if (!one) throw new Error('no organisation without activity');
  console.log(`scale ${scale}: default list total ${before.value} (estimate: ${before.isEstimate})`);

  const written: string[] = [];
  let started = performance.now();
  const [first] = await queryRows<{ reference: string }>(
    db,
    sql`insert into events (reference, type, summary, publish_date, organisation_reference)
    values (gen_random_uuid(), 'funding', 'bench activity check', now(), ${one.reference}) returning reference`,
  );
  written.push(first!.reference);
  const write = ms(started);
  const listed = await findOrganisations(db, { name: one.name }, { limit: 50 });
  const shown = listed.some((row) => row.reference === one.reference);
  console.log(
    `one event: insert ${write}; in the default list right after: ${shown} (list read ${ms(started)} after the write began)`,
  );

  started = performance.now();
  const inserted = await queryRows<{ reference: string }>(
    db,
    sql`insert into events (reference, type, summary, publish_date, organisation_reference)
    select gen_random_uuid(), 'funding', 'bench activity check', now(), r
      from unnest(${`{${many.map((row) => row.reference).join(',')}}`}::uuid[]) as r returning reference`,
  );
  written.push(...inserted.map((row) => row.reference));
  console.log(`${many.length} events in one statement: ${ms(started)}`);
  const after = await countOrganisations(db, {}, { timeoutMs: 200 });
  console.log(
    `default list total ${after.value} (+${after.value - before.value}, estimate: ${after.isEstimate})`,
  );

  started = performance.now();
  await db.execute(sql`delete from events where reference = any(${`{${written.join(',')}}`}::uuid[])`);
  console.log(`deleting them again: ${ms(started)}`);
  const restored = await countOrganisations(db, {}, { timeoutMs: 200 });
  console.log(`default list total ${restored.value} (back: ${restored.value === before.value})`);
} finally {
  await handle.close();
}
