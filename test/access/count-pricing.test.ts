import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countStatements } from '../../src/db/database.ts';
import { openTestApp, type TestApp } from '../support/test-app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await openTestApp();
});
afterAll(() => app.close());

/** `aliases` aliased organisation lists of one row each, filtered by `nameOf(i)`, with or without their count. */
function aliasedCounts(aliases: number, nameOf: (index: number) => string, withCount: boolean): string {
  const fields = Array.from(
    { length: aliases },
    (_, index) =>
      `a${index}: organisations(first: 1, filter: { name: "${nameOf(index)}", showEmpty: true }) { edges { cursor }${withCount ? ' totalCount { value }' : ''} }`,
  );
  return `{ ${fields.join(' ')} }`;
}

/** Statements the operation sent and the points it was charged. */
async function run(query: string): Promise<{ statements: number; points: number }> {
  const { result, statements } = await countStatements(() => app.graphql(query));
  expect(result.status).toBe(200);
  expect(result.body.errors).toBeUndefined();
  const cost = result.body.extensions?.cost as { requested: number };
  return { statements, points: cost.requested };
}

/** What adding the counts to an operation adds: statements and points. */
async function countsOf(aliases: number, nameOf: (index: number) => string) {
  const without = await run(aliasedCounts(aliases, nameOf, false));
  const withCounts = await run(aliasedCounts(aliases, nameOf, true));
  return {
    statements: withCounts.statements - without.statements,
    points: withCounts.points - without.points,
  };
}

describe('the price of a count', () => {
  it('follows the statements it causes: each count run is charged its time limit in points', async () => {
    const countTimeoutMs = app.services.config.countTimeoutMs;
    // Fresh filters each run, so that no count is answered from the cache of recent counts.
    const run = randomUUID().slice(0, 8);
    const one = await countsOf(1, () => `e${run}`);
    expect(one.statements).toBeGreaterThanOrEqual(1);
    expect(one.points).toBe(countTimeoutMs);

    const distinct = await countsOf(30, (index) => `e${run}${index}`);
    const countsRun = distinct.statements / one.statements;
    expect(countsRun).toBe(30);
    // Points per statement a count sends: at least the time limit's milliseconds per count (today 1 point each).
    expect(distinct.points / distinct.statements).toBeGreaterThanOrEqual(countTimeoutMs / one.statements);
    expect(distinct.points).toBe(30 * countTimeoutMs);
  });

  it('computes and charges the same count once per operation, however many aliases ask for it', async () => {
    const name = `e${randomUUID().slice(0, 8)}`;
    const one = await countsOf(1, () => `${name}x`);
    const same = await countsOf(30, () => name);
    expect(same.statements).toBe(one.statements);
    expect(same.points).toBe(app.services.config.countTimeoutMs);
  });

  it('refuses a starter operation of 30 different counts before any SQL runs', async () => {
    const run = randomUUID().slice(0, 8);
    const query = aliasedCounts(30, (index) => `e${run}${index}`, true);
    const { result, statements } = await countStatements(() =>
      app.graphql(query, undefined, app.tokens.starter),
    );
    expect(result.body.errors?.[0]?.extensions?.code).toBe('QUERY_LIMIT_EXCEEDED');
    expect(result.body.data).toBeUndefined();
    const baseline = await countStatements(() =>
      app.graphql('{ __typename }', undefined, app.tokens.starter),
    );
    expect(statements).toBe(baseline.statements);
  });
});
