import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countStatements } from '../../src/db/database.ts';
import { openTestApp, type TestApp } from '../support/test-app.ts';
import {
  createTestToken,
  type Instance,
  openInstance,
  testCountCost,
  tinyQuota,
  writeTinyPlansFile,
} from './instances.ts';

let base: TestApp;
beforeAll(async () => {
  base = await openTestApp();
});
afterAll(() => base.close());

/** A one-row page of the organisations named like `name`, every status included: a count per new name. */
const listPath = (name: string, page = 1) =>
  `/v1/organisations?name=${name}&show_empty=true&limit=1&page=${page}`;

/** The cost points the token has left, as the graph reports them (`{ __typename }` costs none). */
async function pointsLeft(app: Instance, token: string): Promise<number> {
  const { body } = await app.graphql('{ __typename }', {}, token);
  const cost = body.extensions?.cost as { remaining: number } | undefined;
  if (!cost) throw new Error(`no cost reported: ${JSON.stringify(body)}`);
  return cost.remaining;
}

/** Statements the lists sent (asked all at once, as a burst of a client would) and the points they were charged. */
async function list(app: Instance, token: string, paths: string[]) {
  const before = await pointsLeft(app, token);
  const { result, statements } = await countStatements(() =>
    Promise.all(paths.map((path) => app.request(path, { token }))),
  );
  for (const response of result) expect(response.status).toBe(200);
  const bodies = await Promise.all(result.map((response) => response.json()));
  for (const body of bodies) expect(body.meta.total).toBe(0);
  return { statements, points: before - (await pointsLeft(app, token)) };
}

describe("the price of a REST list's total (shipped plans)", () => {
  let app: Instance;
  let token = '';
  beforeAll(async () => {
    app = openInstance(base);
    token = await createTestToken(base, 'starter');
  });
  afterAll(() => app.close());

  it('charges each count its time limit in cost points, so counts cost what GraphQL counts cost per statement', async () => {
    const countTimeoutMs = app.services.config.countTimeoutMs;
    expect(testCountCost).toBe(countTimeoutMs);
    // Fresh names each run, so that no count is answered from the cache of recent counts.
    const run = randomUUID().slice(0, 8);
    const counted = await list(app, token, [listPath(`e${run}`)]);
    // The next page of the same list: its total is the count just made, and it is not charged again.
    const paged = await list(app, token, [listPath(`e${run}`, 2)]);
    expect(counted.points).toBe(countTimeoutMs);
    expect(paged.points).toBe(0);
    const perCount = counted.statements - paged.statements;
    expect(perCount).toBeGreaterThanOrEqual(1);

    const distinct = await list(
      app,
      token,
      Array.from({ length: 30 }, (_, index) => listPath(`e${run}${index}`)),
    );
    const countStatementsSent = distinct.statements - 30 * paged.statements;
    expect(countStatementsSent / perCount).toBe(30);
    expect(distinct.points).toBe(30 * countTimeoutMs);
    // Points per statement a count sends: the time limit's milliseconds per count, as in the graph.
    expect(distinct.points / countStatementsSent).toBeGreaterThanOrEqual(countTimeoutMs / perCount);
  });

  it('charges and runs the same count once however often, and in whatever order of parameters, it is asked', async () => {
    const name = `e${randomUUID().slice(0, 8)}`;
    const first = await list(app, token, [listPath(name)]);
    const repeated = await list(app, token, [
      ...Array.from({ length: 29 }, (_, index) => listPath(name, index + 2)),
      `/v1/organisations?page=31&limit=5&show_empty=true&name=${name}`,
    ]);
    expect(first.points).toBe(app.services.config.countTimeoutMs);
    expect(repeated.points).toBe(0);
    const pageOnly = await list(app, token, [listPath(name, 40)]);
    expect(repeated.statements).toBe(30 * pageOnly.statements);
  });
});

describe('a spent cost budget on REST lists (tiny plans)', () => {
  let app: Instance;
  beforeAll(() => {
    app = openInstance(base, { PLANS_FILE: writeTinyPlansFile() });
  });
  afterAll(() => app.close());

  it('answers 429 with Retry-After before counting once the points are spent, while counted lists still page', async () => {
    const token = await createTestToken(base, 'starter');
    // The baseline below asks with a token of its own: the five requests of the plan are this test's.
    const other = await createTestToken(base, 'starter');
    const run = randomUUID().slice(0, 8);
    for (const name of [`a${run}`, `b${run}`]) {
      const response = await app.request(listPath(name), { token });
      expect(response.status).toBe(200);
    }

    const { result: refused, statements } = await countStatements(() =>
      app.request(listPath(`c${run}`), { token }),
    );
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get('Retry-After'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(tinyQuota.windowSeconds);
    expect(await refused.json()).toEqual({
      status: {
        code: 429,
        messages: [
          `Counting this list's total costs ${testCountCost} points and 40 of the ${tinyQuota.costPoints} points ` +
            `per 60 s of plan starter are left; retry in ${retryAfter} s, or page on through a list already counted.`,
        ],
      },
      success: null,
      meta: null,
      correlation_id: expect.any(String),
    });
    // Nothing was read but the token: the same as a request that reads nothing.
    const { statements: nothingRead } = await countStatements(() =>
      app.request('/v1/nowhere', { token: other }),
    );
    expect(statements).toBe(nothingRead);

    // A list counted a moment ago pages on without a charge; the 40 points are still there.
    const next = await app.request(listPath(`a${run}`, 2), { token });
    expect(next.status).toBe(200);
    expect((await app.graphql('{ __typename }', {}, token)).body.extensions?.cost).toMatchObject({
      remaining: 40,
    });
  });
});
