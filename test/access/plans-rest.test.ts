import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataArea } from '../../src/auth/plans.ts';
import { openTestApp, type PlanName, type TestApp } from '../support/test-app.ts';

let app: TestApp;

/** References from the seeded dataset, read with the enterprise token. */
const refs = { organisation: '', profile: '', article: '', event: '', moveWithArticles: '' };

interface Listed {
  reference: string;
  event_type?: string;
  data?: { articles?: { reference: string }[] };
}

beforeAll(async () => {
  app = await openTestApp();
  const list = async (path: string) => {
    const { status, body } = await app.getJson<{ success: Listed[] }>(path);
    expect(status, path).toBe(200);
    expect(body.success.length, path).toBeGreaterThan(0);
    return body.success;
  };
  refs.organisation = (await list('/v1/organisations?show_empty=true&limit=1'))[0]!.reference;
  refs.profile = (await list('/v1/profiles?limit=1'))[0]!.reference;
  refs.event = (await list('/v1/events?limit=1'))[0]!.reference;
  const moves = await list('/v1/events?eventType=move&limit=200');
  const move = moves.find((event) => (event.data?.articles?.length ?? 0) > 0);
  if (!move) throw new Error('no move event with articles in the first 200 moves of the dataset');
  refs.moveWithArticles = move.reference;
  refs.article = move.data!.articles![0]!.reference;
});
afterAll(async () => {
  await app.services.quotas?.close();
  await app.close();
});

interface Endpoint {
  name: string;
  area: DataArea;
  method?: 'POST';
  path: () => string;
  body?: unknown;
  status?: number;
}

const endpoints: Endpoint[] = [
  {
    name: 'POST /v1/search/events',
    area: 'searches',
    method: 'POST',
    path: () => '/v1/search/events',
    body: { query: [{ fieldType: 'EventType', label: 'Move', value: 'move', operator: 'EQUAL' }] },
    status: 201,
  },
  { name: 'GET /v1/search/suggestions', area: 'suggestions', path: () => '/v1/search/suggestions?query=a' },
  { name: 'GET /v1/organisations', area: 'organisations', path: () => '/v1/organisations?show_empty=true' },
  {
    name: 'GET /v1/organisations/{ref}',
    area: 'organisations',
    path: () => `/v1/organisations/${refs.organisation}`,
  },
  {
    name: 'GET /v1/organisations/{ref}/people',
    area: 'people',
    path: () => `/v1/organisations/${refs.organisation}/people`,
  },
  {
    name: 'GET /v1/organisations/{ref}/ownership',
    area: 'ownership',
    path: () => `/v1/organisations/${refs.organisation}/ownership`,
  },
  { name: 'GET /v1/profiles', area: 'people', path: () => '/v1/profiles' },
  { name: 'GET /v1/profiles/{ref}', area: 'people', path: () => `/v1/profiles/${refs.profile}` },
  {
    name: 'GET /v1/profiles/{ref}/articles',
    area: 'articles',
    path: () => `/v1/profiles/${refs.profile}/articles`,
  },
  {
    name: 'GET /v1/profiles/{ref}/ownership',
    area: 'ownership',
    path: () => `/v1/profiles/${refs.profile}/ownership`,
  },
  { name: 'GET /v1/articles/{ref}', area: 'articles', path: () => `/v1/articles/${refs.article}` },
  { name: 'GET /v1/events/{ref}', area: 'events', path: () => `/v1/events/${refs.event}` },
  { name: 'GET /v1/events', area: 'events', path: () => '/v1/events' },
];

const covered: Record<PlanName, DataArea[]> = {
  starter: ['organisations', 'people', 'suggestions'],
  professional: ['organisations', 'people', 'suggestions', 'events', 'searches', 'ownership'],
  enterprise: ['organisations', 'people', 'suggestions', 'events', 'searches', 'ownership', 'articles'],
};

const matrix = (['starter', 'professional', 'enterprise'] as const).flatMap((plan) =>
  endpoints.map((endpoint) => ({ plan, endpoint, allowed: covered[plan].includes(endpoint.area) })),
);

async function call(endpoint: Endpoint, token: string) {
  const response = await app.request(endpoint.path(), {
    token,
    ...(endpoint.method
      ? {
          method: endpoint.method,
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(endpoint.body),
        }
      : {}),
  });
  return { status: response.status, body: await response.json() };
}

describe('REST coverage by plan', () => {
  it('ships the plan catalogue the matrix below assumes', () => {
    for (const plan of ['starter', 'professional', 'enterprise'] as const) {
      expect(app.services.plans.get(plan)?.covers).toEqual(covered[plan]);
    }
  });

  it.each(
    matrix.map((row) => [row.plan, row.allowed ? 'answers' : 'refuses', row.endpoint.name, row] as const),
  )('%s %s %s', async (plan, _verb, _name, { endpoint, allowed }) => {
    const { status, body } = await call(endpoint, app.tokens[plan]);
    if (allowed) {
      const expected = endpoint.status ?? 200;
      expect(status).toBe(expected);
      expect(body.status).toEqual({ code: expected, messages: [] });
      expect(body.success).not.toBeNull();
    } else {
      expect(status).toBe(403);
      expect(body).toEqual({
        status: {
          code: 403,
          messages: [
            `Your plan (${plan}) does not cover ${endpoint.area}; it covers ${covered[plan].join(', ')}.`,
          ],
        },
        success: null,
        meta: null,
        correlation_id: expect.any(String),
      });
    }
  });
});

describe('records embedded in another follow the coverage of their own kind', () => {
  it("empties a move event's articles for a plan without articles", async () => {
    const path = `/v1/events/${refs.moveWithArticles}`;
    const enterprise = await app.getJson<{ success: Listed }>(path, app.tokens.enterprise);
    const professional = await app.getJson<{ success: Listed }>(path, app.tokens.professional);
    expect(enterprise.body.success.data?.articles?.map((article) => article.reference)).toContain(
      refs.article,
    );
    expect(professional.status).toBe(200);
    expect(professional.body.success.reference).toBe(refs.moveWithArticles);
    expect(professional.body.success.data?.articles).toEqual([]);
  });

  it('does the same in the event list', async () => {
    const professional = await app.getJson<{ success: Listed[] }>(
      '/v1/events?eventType=move&limit=200',
      app.tokens.professional,
    );
    const move = professional.body.success.find((event) => event.reference === refs.moveWithArticles);
    expect(move?.data?.articles).toEqual([]);
  });
});
