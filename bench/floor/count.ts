/**
 * What one nested request costs inside this process, counted rather than timed: field executions,
 * `isTypeOf` calls, `DataLoader.load` calls, promises created, SQL statements, and the answer's size; then the CPU
 * The first page of the list, so that two runs count the same request (its CPU is `in-process.ts`'s, without
 * these counters in the way):
 *
 *   NODE_ENV=production LOG_LEVEL=warn DATABASE_URL=…_s10 node --import tsx bench/floor/count.ts [roles|articles]
 *
 * `COMPILED_READS=0` runs the request on the schema's own executor, with its plan checks, rather than compiled.
 */
import { createHook } from 'node:async_hooks';
import DataLoader from 'dataloader';
import { defaultFieldResolver, isObjectType } from 'graphql';
import { countStatements } from '../../src/db/database.ts';
import { compiledReads } from '../../src/graphql/plugins/use-compiled-reads.ts';
import { schema, schemaWithoutPlanChecks } from '../../src/graphql/schema.ts';
import { benchPlansFile, runCli } from '../dataset.ts';
import { nestedArticlesQuery, nestedRolesQuery } from '../graph-reads.ts';
import { openInProcessApp } from '../statements.ts';

const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/orgraph_bench_s10';
const query = process.argv[2] === 'articles' ? nestedArticlesQuery : nestedRolesQuery;

const counts = { fields: 0, isTypeOf: 0, loads: 0, promises: 0 };
let counting = false;
compiledReads.enabled = process.env.COMPILED_READS !== '0';
// graphql-js executes every field, with the default resolver where the field has none; graphql-jit reads such a
// field as a property in its compiled code, so on the schema it compiles only the resolvers of fields are counted.
for (const type of [schema, schemaWithoutPlanChecks].flatMap((each) => Object.values(each.getTypeMap()))) {
  if (!isObjectType(type) || type.name.startsWith('__')) continue;
  for (const field of Object.values(type.getFields())) {
    if (!field.resolve && schemaWithoutPlanChecks.getType(type.name) === type) continue;
    const resolve = field.resolve ?? defaultFieldResolver;
    field.resolve = (source, args, context, info) => {
      if (counting) counts.fields += 1;
      return resolve(source, args, context, info);
    };
  }
  const isTypeOf = type.isTypeOf;
  if (isTypeOf) {
    type.isTypeOf = (value, context, info) => {
      if (counting) counts.isTypeOf += 1;
      return isTypeOf(value, context, info);
    };
  }
}
const load = DataLoader.prototype.load;
DataLoader.prototype.load = function (this: DataLoader<unknown, unknown>, key: unknown) {
  if (counting) counts.loads += 1;
  return load.call(this, key);
};
const promises = createHook({
  init(_id, type) {
    if (counting && type === 'PROMISE') counts.promises += 1;
  },
});

const env = { DATABASE_URL: databaseUrl, PLANS_FILE: benchPlansFile };
const token = (await runCli(['token', 'create', '--plan', 'enterprise', '--label', 'count'], env)).trim();
const app = await openInProcessApp(databaseUrl, () => token);
const send = async () => {
  const response = await app.fetch({ method: 'POST', path: '/graphql', body: JSON.stringify({ query }) });
  const text = await response.text();
  if (!response.ok || text.includes('"errors"')) throw new Error(text.slice(0, 500));
  return text;
};
try {
  for (let i = 0; i < 20; i++) await send();
  promises.enable();
  counting = true;
  const { result: text, statements } = await countStatements(send);
  counting = false;
  promises.disable();
  const answer = JSON.parse(text) as {
    data: { organisations: { edges: { node: Record<string, { profile: { experiences: unknown[] } }[]> }[] } };
  };
  const roles = answer.data.organisations.edges.flatMap(({ node }) =>
    ['currentExecutives', 'currentProfessionals', 'alumni'].flatMap((list) => node[list] ?? []),
  );
  const experiences = roles.reduce((sum, role) => sum + (role.profile.experiences?.length ?? 0), 0);
  process.stdout.write(
    `${answer.data.organisations.edges.length} organisations, ${roles.length} roles, ${experiences} experiences, ${(text.length / 1024).toFixed(0)} KB\n` +
      `field executions ${counts.fields}, isTypeOf ${counts.isTypeOf}, DataLoader.load ${counts.loads}, promises ${counts.promises}, statements ${statements}\n`,
  );
} finally {
  await app.close();
  await runCli(['token', 'revoke', token], env).catch(() => {});
}
