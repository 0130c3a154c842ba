/**
 * What a schema fetch without a token costs (src/graphql/schema-fetch.ts), in-process on the real schema, and how
 * many terminal lines a request takes in development before and after the one-line format. bench/NOTES.md 64.
 *
 *   npx tsx bench/schema-fetch.ts
 */
import { execute, getIntrospectionQuery, parse } from 'graphql';
import { schema } from '../src/graphql/schema.ts';
import { answerSize, createSchemaFetch } from '../src/graphql/schema-fetch.ts';
import { createLogger } from '../src/http/observability/logger.ts';

const query = getIntrospectionQuery({
  descriptions: true,
  inputValueDeprecation: true,
  schemaDescription: true,
});

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Median milliseconds of `run` over `times` calls, after `warm` calls not counted. */
function time(run: () => unknown, times: number, warm = 5): number {
  for (let i = 0; i < warm; i += 1) run();
  const samples: number[] = [];
  for (let i = 0; i < times; i += 1) {
    const started = performance.now();
    run();
    samples.push(performance.now() - started);
  }
  return median(samples);
}

const document = parse(query);
const fetched = createSchemaFetch(schema)({ query });
const answerBytes = fetched.kind === 'answered' ? fetched.result.length : 0;
const cachedFetch = createSchemaFetch(schema);
cachedFetch({ query });
const rows: [string, number][] = [
  ['values counted in the answer (answerSize)', answerSize(schema, document, {})],
  ['answer bytes', answerBytes],
  ['counting the answer, ms (median of 50)', time(() => answerSize(schema, document, {}), 50)],
  [
    'execute + JSON.stringify alone, ms (median of 50)',
    time(() => JSON.stringify(execute({ schema, document })), 50),
  ],
  [
    'first answer: parse, validate, count, execute, ms (median of 20)',
    time(() => createSchemaFetch(schema)({ query }), 20),
  ],
  ['cached answer, ms (median of 1000)', time(() => cachedFetch({ query }), 1000)],
];

// Terminal lines per request: pino-pretty as it was configured before (every field on a line of its own), and now.
const record = {
  method: 'POST',
  route: '/graphql',
  path: '/graphql',
  status: 200,
  durationMs: 12.34,
  correlationId: 'b3c1e7a2-5f0d-4c8e-9a61-0d2f7e4b8c19',
  tokenId: 1,
  plan: 'enterprise',
};
const linesOf = (write: (sink: { write(text: string): void }) => void): number => {
  let text = '';
  write({ write: (chunk) => (text += chunk) });
  return text.trimEnd().split('\n').length;
};
const { prettyFactory } = (await import('pino-pretty')).default;
const before = prettyFactory({
  colorize: false,
  translateTime: 'SYS:HH:MM:ss.l',
  ignore: 'pid,hostname,service',
});
rows.push([
  'development log lines per request, before',
  linesOf((sink) => sink.write(before({ level: 30, time: Date.now(), ...record, msg: 'request' }))),
]);
rows.push([
  'development log lines per request, after',
  linesOf((sink) => createLogger({ level: 'info', pretty: true, destination: sink }).info(record, 'request')),
]);

for (const [what, value] of rows) {
  console.log(
    `${String(what).padEnd(66)} ${typeof value === 'number' && !Number.isInteger(value) ? value.toFixed(3) : value}`,
  );
}
