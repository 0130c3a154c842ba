/**
 * Lints the committed `schema.graphql` with @graphql-eslint's `schema-recommended` and `schema-relay` rules
 * (`scripts/graphql-tools/eslint.config.js`, where each rule's options are set and docs/decisions.md says why).
 * Run by `npm run lint`; exits non-zero on any problem, warnings included. Without the tools
 * (`npm run tools:setup`) it skips with the reason, or fails under ORGRAPH_TEST_REQUIRE_SERVICES=1 (CI).
 */
import { join } from 'node:path';
import { graphqlToolsMissing, repositoryRoot, runGraphqlTool, toolsFolder } from './graphql-tools.ts';

const check = '@graphql-eslint schema-recommended + schema-relay';
const missing = graphqlToolsMissing();
if (missing) {
  const required = process.env.ORGRAPH_TEST_REQUIRE_SERVICES === '1';
  process.stdout.write(`${required ? 'FAIL' : 'skip'} ${check}: ${missing}\n`);
  process.exit(required ? 1 : 0);
}
const started = performance.now();
const result = runGraphqlTool('eslint/bin/eslint.js', [
  '--config',
  join(toolsFolder, 'eslint.config.js'),
  '--max-warnings',
  '0',
  // A schema and configuration that passed in this checkout are not linted again (CI's second `npm test`).
  '--cache',
  '--cache-strategy',
  'content',
  '--cache-location',
  join(repositoryRoot, 'node_modules/.cache/orgraph/eslint-graphql/'),
  join(repositoryRoot, 'schema.graphql'),
]);
const ok = result.status === 0;
const seconds = ((performance.now() - started) / 1000).toFixed(1);
process.stdout.write(`${ok ? 'ok  ' : 'FAIL'} ${check} (${seconds} s)\n`);
if (!ok) process.stdout.write(`${result.stdout}${result.stderr}${result.error ?? ''}\n`);
process.exit(ok ? 0 : 1);
