import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApp, type TestApp } from '../support/test-app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await openTestApp();
});
afterAll(() => app.close());

const activityQueries = [
  '?activity_type=funding&activity_period=week',
  '?activity_type=funding',
  '?activity_period=year&show_empty=true',
];

describe('activity filters need a plan covering events', () => {
  it.each(activityQueries)('REST refuses a starter token 403 on /v1/organisations%s', async (query) => {
    const { status, body } = await app.getJson(`/v1/organisations${query}`, app.tokens.starter);
    expect(status).toBe(403);
    expect(body.success).toBeNull();
    expect(body.status.messages[0]).toMatch(/starter.*events.*activity/);
  });

  it.each(activityQueries)('REST answers a professional token on /v1/organisations%s', async (query) => {
    const { status } = await app.getJson(`/v1/organisations${query}`, app.tokens.professional);
    expect(status).toBe(200);
  });

  it('leaves the rest of the list open to a starter token, default activity scope included', async () => {
    for (const query of ['', '?show_empty=true&name=a']) {
      const { status } = await app.getJson(`/v1/organisations${query}`, app.tokens.starter);
      expect(status).toBe(200);
    }
  });

  const graphQuery = `query($filter: OrganisationFilter) {
    organisations(first: 5, filter: $filter) { edges { node { reference } } }
  }`;

  it('the graph refuses the same filters to a starter token with FORBIDDEN', async () => {
    for (const filter of [{ activityTypes: ['FUNDING'] }, { activityPeriod: 'WEEK', showEmpty: true }]) {
      const { body } = await app.graphql(graphQuery, { filter }, app.tokens.starter);
      expect(body.data).toEqual({ organisations: null });
      expect(body.errors?.map((error) => [error.path, error.extensions?.code])).toEqual([
        [['organisations'], 'FORBIDDEN'],
      ]);
      expect(body.errors?.[0]?.message).toMatch(/starter.*events/);
    }
    const open = await app.graphql(graphQuery, { filter: { activityTypes: [] } }, app.tokens.starter);
    expect(open.body.errors).toBeUndefined();
  });

  it('the graph answers them to a professional token', async () => {
    const { body } = await app.graphql(
      graphQuery,
      { filter: { activityTypes: ['FUNDING'], activityPeriod: 'YEAR' } },
      app.tokens.professional,
    );
    expect(body.errors).toBeUndefined();
    expect(Array.isArray((body.data as { organisations: { edges: unknown[] } }).organisations.edges)).toBe(
      true,
    );
  });
});
