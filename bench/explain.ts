import { loadConfig } from '../src/config.ts';
import { captureStatements, type SentStatement } from '../src/db/database.ts';
import { benchPlansFile, databaseUrlFor, runCli } from './dataset.ts';
import { defaultDatabaseUrl } from './options.ts';
import { sampleDatabase } from './samples.ts';
import { createScenarios } from './scenarios.ts';
import { openInProcessApp, saveEventSearch } from './statements.ts';

/**
 * Where a scenario's database time goes at one scale: `npx tsx bench/explain.ts <scale> <scenario,...> [samples]`
 * sends the scenario's first requests (default 3) through the in-process app, as the bench's instrumented pass does,
 * timing each (the first run after a restart shows a cold cache), and runs each SQL statement they sent through Drizzle again under `EXPLAIN (ANALYZE, BUFFERS)`: its time, the
 * pages it found in shared buffers and read from outside them, its rows and its plan's top nodes. Run it on two
 * scales to see which statements grow. Statements sent straight through the driver (the prepared single-record
 * reads, the token lookup) are not shown. `--plans` prints each whole plan.
 */
const args = process.argv.slice(2);
const printPlans = args.includes('--plans');
const [scaleText, names, samplesText] = args.filter((arg) => !arg.startsWith('--'));
const scale = Number(scaleText);
if (!Number.isFinite(scale) || !names) {
  console.error('usage: npx tsx bench/explain.ts <scale> <scenario,...> [samples] [--plans]');
  process.exit(2);
}
const sampleCount = Number(samplesText ?? '3');
const databaseUrl = databaseUrlFor(process.env.DATABASE_URL || defaultDatabaseUrl, scale);
const env = { DATABASE_URL: databaseUrl, PLANS_FILE: benchPlansFile };
const config = loadConfig({ ...process.env, ...env });

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Shared Hit Blocks': number;
  'Shared Read Blocks': number;
  Plans?: PlanNode[];
}

/** The plan's nodes that read a relation, with their rows: the part that grows with the data. */
function scans(node: PlanNode): string[] {
  const here = node['Relation Name']
    ? [
        `${node['Node Type']} ${node['Index Name'] ?? node['Relation Name']} ×${node['Actual Rows'] * node['Actual Loops']}`,
      ]
    : [];
  return [...here, ...(node.Plans ?? []).flatMap(scans)];
}

const token = (await runCli(['token', 'create', '--plan', 'enterprise', '--label', 'explain'], env)).trim();
const app = await openInProcessApp(databaseUrl, () => token);
try {
  const samples = await sampleDatabase(databaseUrl);
  const queryId = await saveEventSearch(app, samples);
  const wanted = names.split(',');
  const scenarios = createScenarios({ samples, queryId }).filter((scenario) =>
    wanted.includes(scenario.name),
  );
  if (scenarios.length !== wanted.length) throw new Error(`unknown scenario among ${names}`);
  console.log(
    `scale ${scale} (${databaseUrl.replace(/^.*\//, '')}), count budget ${config.countTimeoutMs} ms`,
  );
  for (const scenario of scenarios) {
    for (let index = 0; index < sampleCount; index += 1) {
      const request = scenario.request(index);
      const started = performance.now();
      const { sent } = await captureStatements(async () => (await app.fetch(request)).text());
      const took = (performance.now() - started).toFixed(1);
      console.log(`\n${scenario.name} #${index}: ${request.method} ${request.path} (answered in ${took} ms)`);
      for (const statement of sent.filter(explainable)) await explain(statement);
    }
  }
} finally {
  await app.close();
  await runCli(['token', 'revoke', token], env).catch(() => {});
}

function explainable(statement: SentStatement): boolean {
  return /^\s*(select|with)\b/i.test(statement.query);
}

async function explain(statement: SentStatement): Promise<void> {
  const rows = await app.sql.begin(async (tx) => {
    await tx.unsafe('set local statement_timeout = 120000');
    return tx.unsafe<{ 'QUERY PLAN': [{ Plan: PlanNode; 'Execution Time': number }] }[]>(
      `explain (analyze, buffers, format json) ${statement.query}`,
      statement.params as never[],
    );
  });
  const [result] = rows[0]!['QUERY PLAN'];
  const plan = result.Plan;
  const head = statement.query.replace(/\s+/g, ' ').slice(0, 90);
  console.log(
    `  ${result['Execution Time'].toFixed(1)} ms · hit ${plan['Shared Hit Blocks']} read ${plan['Shared Read Blocks']}` +
      ` · ${plan['Actual Rows']} rows · ${head}`,
  );
  console.log(`    ${scans(plan).join('; ')}`);
  if (printPlans) {
    const text = await app.sql.unsafe<{ 'QUERY PLAN': string }[]>(
      `explain (analyze, buffers) ${statement.query}`,
      statement.params as never[],
    );
    for (const line of text) console.log(`    ${line['QUERY PLAN']}`);
  }
}
