/**
 * CPU per nested-roles request through the whole app in this process (no HTTP), requests one at a time, for
 * profiling. Run it as production runs the server (graphql-js reads NODE_ENV as it loads):
 *
 *   NODE_ENV=production LOG_LEVEL=warn node [--cpu-prof] --import tsx bench/floor/in-process.ts [requests] [rounds]
 *
 * With `rounds`, the rounds alternate the schema's own executor (with its plan checks) and the compiled one.
 * `IN_PROCESS_READ=articles` sends the nested articles read (`graphql-nested`) instead.
 */
import postgres from 'postgres';
import { encodeCursor } from '../../src/graphql/keyset.ts';
import { compiledReads } from '../../src/graphql/plugins/use-compiled-reads.ts';
import { benchPlansFile, runCli } from '../dataset.ts';
import { nestedArticlesQuery, nestedRolesQuery } from '../graph-reads.ts';
import { openInProcessApp } from '../statements.ts';

const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/orgraph_bench_s100';
const requests = Number(process.argv[2] ?? 300);
const rounds = process.argv[3] === undefined ? undefined : Number(process.argv[3]);
const sql = postgres(databaseUrl, { max: 1 });
const keys = await sql<{ name: string; reference: string }[]>`
  select name, reference::text from organisations where not is_fund order by reference limit 1000`;
await sql.end();
const env = { DATABASE_URL: databaseUrl, PLANS_FILE: benchPlansFile };
const token = (
  await runCli(['token', 'create', '--plan', 'enterprise', '--label', 'in-process'], env)
).trim();
const app = await openInProcessApp(databaseUrl, () => token);
const send = async (index: number) => {
  const response = await app.fetch({
    method: 'POST',
    path: '/graphql',
    body: JSON.stringify({
      query: process.env.IN_PROCESS_READ === 'articles' ? nestedArticlesQuery : nestedRolesQuery,
      variables: { after: encodeCursor(keys[index % keys.length]) },
    }),
  });
  const text = await response.text();
  if (!response.ok || text.includes('"errors"')) throw new Error(text.slice(0, 500));
};
try {
  const measure = async (label: string) => {
    const before = process.cpuUsage();
    const started = performance.now();
    for (let i = 0; i < requests; i++) await send(100 + i);
    const cpu = process.cpuUsage(before);
    process.stdout.write(
      `${label}${requests} requests: ${((cpu.user + cpu.system) / 1000 / requests).toFixed(2)} ms CPU each, ${((performance.now() - started) / requests).toFixed(2)} ms wall each\n`,
    );
  };
  for (const compiled of [false, true]) {
    compiledReads.enabled = compiled;
    for (let i = 0; i < 50; i++) await send(i);
  }
  compiledReads.enabled = true;
  if (rounds === undefined) await measure('');
  for (let round = 0; round < (rounds ?? 0); round++) {
    compiledReads.enabled = round % 2 === 1;
    await measure(compiledReads.enabled ? 'compiled:  ' : 'checked:   ');
  }
} finally {
  await app.close();
  await runCli(['token', 'revoke', token], env).catch(() => {});
}
