import Ajv2020 from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApp, type TestApp } from '../support/test-app.ts';

let app: TestApp;
let validate: (path: string, method: string, status: number, body: unknown) => string[];

beforeAll(async () => {
  app = await openTestApp();
  const document = await (await app.request('/v1/openapi.json', { token: null })).json();
  const ajv = new Ajv2020.default({ strict: false, allErrors: true, validateFormats: false });
  ajv.addSchema(document, 'openapi');
  validate = (path, method, status, body) => {
    const pointer = `/paths/${path.replaceAll('~', '~0').replaceAll('/', '~1')}/${method}/responses/${status}/content/application~1json/schema`;
    const check = ajv.getSchema(`openapi#${pointer}`);
    if (!check) return [`the document has no schema for ${method.toUpperCase()} ${path} ${status}`];
    return check(body) ? [] : (check.errors ?? []).map((error) => `${error.instancePath} ${error.message}`);
  };
});
afterAll(() => app.close());

async function sample(path: string, pick: (success: never) => string) {
  const { body } = await app.getJson<{ success: never }>(path);
  return pick(body.success);
}

describe('responses match the OpenAPI document the router serves', () => {
  it('for every endpoint, on success and on errors', async () => {
    const organisation = await sample(
      '/v1/organisations?limit=1',
      (rows: { reference: string }[]) => rows[0]!.reference,
    );
    const profile = await sample(
      '/v1/profiles?limit=1',
      (rows: { reference: string }[]) => rows[0]!.reference,
    );
    const event = await sample(
      '/v1/events?limit=1&eventType=move',
      (rows: { reference: string }[]) => rows[0]!.reference,
    );
    const article = await sample(
      `/v1/events/${event}`,
      (record: { data: { articles: { reference: string }[] } }) =>
        record.data.articles[0]?.reference ?? '00000000-0000-4000-8000-000000000000',
    );
    const cases: [string, string, string][] = [
      ['/v1/organisations', '/v1/organisations?limit=5&show_empty=true', 'get'],
      ['/v1/organisations/{organisationReference}', `/v1/organisations/${organisation}`, 'get'],
      ['/v1/organisations/{organisationReference}/people', `/v1/organisations/${organisation}/people`, 'get'],
      [
        '/v1/organisations/{organisationReference}/ownership',
        `/v1/organisations/${organisation}/ownership`,
        'get',
      ],
      ['/v1/profiles', '/v1/profiles?limit=5', 'get'],
      ['/v1/profiles/{profileReference}', `/v1/profiles/${profile}`, 'get'],
      ['/v1/profiles/{profileReference}/articles', `/v1/profiles/${profile}/articles`, 'get'],
      ['/v1/profiles/{profileReference}/ownership', `/v1/profiles/${profile}/ownership`, 'get'],
      ['/v1/articles/{articleReference}', `/v1/articles/${article}`, 'get'],
      ['/v1/events', '/v1/events?limit=20', 'get'],
      ['/v1/events/{eventReference}', `/v1/events/${event}`, 'get'],
      ['/v1/search/suggestions', '/v1/search/suggestions?query=ca', 'get'],
      [
        '/v1/organisations/{organisationReference}',
        '/v1/organisations/00000000-0000-4000-8000-000000000000',
        'get',
      ],
      ['/v1/organisations', '/v1/organisations?limit=zero', 'get'],
    ];
    const problems: string[] = [];
    let checked = 0;
    for (const [template, path, method] of cases) {
      const response = await app.request(path);
      const problemsHere = validate(template, method, response.status, await response.json());
      problems.push(...problemsHere.map((problem) => `${path} (${response.status}): ${problem}`));
      checked += 1;
    }
    const saved = await app.request('/v1/search/events', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        query: [{ fieldType: 'EventType', label: 'Deal', value: 'deal', operator: 'EQUAL' }],
      }),
    });
    problems.push(...validate('/v1/search/events', 'post', saved.status, await saved.json()));
    expect(saved.status).toBe(201);
    expect(checked).toBe(14);
    expect(problems).toEqual([]);
  });

  it('and the check refuses a body that does not match', () => {
    expect(
      validate('/v1/organisations', 'get', 200, { status: { code: 200 }, success: [{ name: 1 }] }),
    ).not.toEqual([]);
  });
});
