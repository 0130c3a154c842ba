import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { suggestName } from '../../src/rest/operation-guard.ts';
import { type Envelope, openTestApp, type TestApp } from '../support/test-app.ts';

let app: TestApp;
let refs: { organisation: string; profile: string; event: string; article: string };

beforeAll(async () => {
  app = await openTestApp();
  const first = async (path: string) =>
    (await app.getJson<Envelope<{ reference: string }[]>>(path)).body.success[0]!.reference;
  const event = await first('/v1/events?eventType=move&limit=1');
  const moved = await app.getJson<Envelope<{ data: { articles: { reference: string }[] } }>>(
    `/v1/events/${event}`,
  );
  refs = {
    organisation: await first('/v1/organisations?limit=1'),
    profile: await first('/v1/profiles?limit=1'),
    event,
    article: moved.body.success.data.articles[0]?.reference ?? '00000000-0000-4000-8000-000000000000',
  };
});
afterAll(async () => {
  await app.services.quotas?.close();
  await app.close();
});

const envelopeOf = async (response: Response) => (await response.json()) as Envelope<null, null>;

describe('an unsupported method on a known path', () => {
  it.each([
    ['DELETE', '/v1/organisations', 'GET, HEAD'],
    ['POST', '/v1/profiles/3f0c2a9e-5b7d-4c1e-9a2b-6d8e0f1a2b3c', 'GET, HEAD'],
    ['PUT', '/v1/events', 'GET, HEAD'],
    ['GET', '/v1/search/events', 'POST'],
    ['PATCH', '/v1/openapi.json', 'GET, HEAD'],
  ])('%s %s is 405 with Allow: %s and the envelope, with or without a token', async (method, path, allow) => {
    for (const token of [null, undefined]) {
      const response = await app.request(path, { method, token });
      expect(response.status).toBe(405);
      expect(response.headers.get('Allow')).toBe(allow);
      expect(response.headers.get('X-Correlation-ID')).toBeTruthy();
      const body = await envelopeOf(response);
      expect(body.status.code).toBe(405);
      expect(body.status.messages).toEqual([
        `${method} is not served on ${path}; use ${allow.replace(', ', ' or ')}.`,
      ]);
      expect(body.success).toBeNull();
      expect(body.meta).toBeNull();
    }
  });

  it('leaves unknown paths 404 and served methods alone', async () => {
    expect((await app.request('/v1/nowhere', { method: 'DELETE' })).status).toBe(404);
    expect((await app.request('/v1/organisations?limit=1')).status).toBe(200);
    expect((await app.request('/v1/organisations?limit=1', { token: null })).status).toBe(401);
  });
});

describe('unknown query parameters', () => {
  it('are refused with 422, each named, with the closest known name', async () => {
    const response = await app.request('/v1/events?pubished_after=2024-01-01&limt=5&zzz=1');
    expect(response.status).toBe(422);
    const body = await envelopeOf(response);
    expect(body.status.messages).toEqual([
      'Unknown query parameter `pubished_after`: did you mean published_after?',
      'Unknown query parameter `limt`: did you mean limit?',
      'Unknown query parameter `zzz`: accepted are eventType, queryId, organisationReference, profileReference, published_after, published_before, page, limit.',
    ]);
  });

  it('are refused on all thirteen endpoints', async () => {
    const { organisation, profile, event, article } = refs;
    const gets = [
      '/v1/organisations',
      `/v1/organisations/${organisation}`,
      `/v1/organisations/${organisation}/people`,
      `/v1/organisations/${organisation}/ownership`,
      '/v1/profiles',
      `/v1/profiles/${profile}`,
      `/v1/profiles/${profile}/articles`,
      `/v1/profiles/${profile}/ownership`,
      `/v1/articles/${article}`,
      `/v1/events/${event}`,
      '/v1/events',
      '/v1/search/suggestions?query=ca',
    ];
    for (const path of gets) {
      const response = await app.request(`${path}${path.includes('?') ? '&' : '?'}verifed=true`);
      expect(response.status, path).toBe(422);
      const [message] = (await envelopeOf(response)).status.messages;
      expect(message, path).toMatch(/^Unknown query parameter `verifed`: /);
    }
    const saved = await app.request('/v1/search/events?debug=1', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        query: [{ fieldType: 'EventType', label: 'Deal', value: 'deal', operator: 'EQUAL' }],
      }),
    });
    expect(saved.status).toBe(422);
    expect((await envelopeOf(saved)).status.messages).toEqual([
      'Unknown query parameter `debug`: this endpoint takes none.',
    ]);
  });

  it('suggests only a name that is close', () => {
    const known = ['published_after', 'published_before', 'limit', 'page'];
    expect(suggestName('published_afer', known)).toBe('published_after');
    expect(suggestName('PAGE', known)).toBe('page');
    expect(suggestName('colour', known)).toBeUndefined();
  });
});

describe('paging bounds', () => {
  it('caps a limit too large for a number like any large limit', async () => {
    for (const limit of ['9007199254740992', '100000000000000000000000000000', '201']) {
      const { status, body } = await app.getJson<Envelope<unknown[], { rows_per_page: number }>>(
        `/v1/events?limit=${limit}`,
      );
      expect(status, limit).toBe(200);
      expect(body.meta.rows_per_page).toBe(200);
    }
    const organisations = await app.getJson<Envelope<unknown[], { rows_per_page: number }>>(
      '/v1/organisations?limit=9007199254740992',
    );
    expect(organisations.body.meta.rows_per_page).toBe(100);
  });

  it('refuses a limit that is not a positive integer', async () => {
    for (const limit of ['0', '-1', '1.5', 'ten', '']) {
      expect((await app.request(`/v1/events?limit=${limit}`)).status, limit).toBe(422);
    }
  });

  it('answers a page past the last with an empty list, and refuses one past the bound', async () => {
    const past = await app.getJson<Envelope<unknown[], { page: number; total: number }>>(
      '/v1/organisations?page=999999&limit=100',
    );
    expect(past.status).toBe(200);
    expect(past.body.success).toEqual([]);
    expect(past.body.meta.page).toBe(999999);
    expect((await app.request('/v1/organisations?page=1000001')).status).toBe(422);
  });
});
