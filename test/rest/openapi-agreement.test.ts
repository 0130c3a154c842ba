/**
 * Where the OpenAPI document and the server once disagreed (a schema-driven fuzzer found each): the document
 * declares only refusals the server makes, and the server answers what the document allows. See docs/rest.md.
 */
import { randomUUID } from 'node:crypto';
import Ajv2020 from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Envelope, openTestApp, type TestApp } from '../support/test-app.ts';

// biome-ignore lint/suspicious/noExplicitAny: the document is read as plain JSON.
type Json = any;

let app: TestApp;
let document: Json;
let ajv: InstanceType<typeof Ajv2020.default>;

beforeAll(async () => {
  app = await openTestApp();
  document = await (await app.request('/v1/openapi.json', { token: null })).json();
  ajv = new Ajv2020.default({ strict: false, allErrors: true, validateFormats: false });
  ajv.addSchema(document, 'openapi');
});
afterAll(async () => {
  await app.services.quotas?.close();
  await app.close();
});

const resolve = (schema: Json): Json =>
  schema?.$ref ? document.components.schemas[schema.$ref.split('/').pop()] : schema;

function parameters(name: string): { path: string; schema: Json; description: string }[] {
  const found = [];
  for (const [path, item] of Object.entries(document.paths as Record<string, Json>)) {
    for (const parameter of item.get?.parameters ?? []) {
      if (parameter.name === name) {
        found.push({ path, schema: resolve(parameter.schema), description: parameter.description });
      }
    }
  }
  return found;
}

describe('limit: capped, so the document declares no maximum', () => {
  it('states the cap on every list and the server answers a far larger limit with a page of the cap', async () => {
    const limits = parameters('limit');
    expect(limits.map(({ path }) => path).sort()).toEqual([
      '/v1/events',
      '/v1/organisations',
      '/v1/profiles',
      '/v1/profiles/{profileReference}/articles',
      '/v1/search/suggestions',
      '/v1/searches/{queryId}/feed',
      '/v1/webhooks',
      '/v1/webhooks/{webhookId}/deliveries',
    ]);
    for (const { path, schema, description } of limits) {
      expect(schema.maximum, path).toBeUndefined();
      expect(schema.exclusiveMaximum, path).toBeUndefined();
      expect(schema).toMatchObject({ type: 'integer', minimum: 1 });
      const cap = path === '/v1/events' ? 200 : 100;
      expect(description, path).toContain(`capped to ${cap}, not refused`);
      if (path.includes('{')) continue;
      const query = path === '/v1/search/suggestions' ? '&query=capital' : '';
      const { status, body } = await app.getJson<Envelope<unknown[], { rows_per_page: number }>>(
        `${path}?limit=9007199254740992${query}`,
      );
      expect(status, path).toBe(200);
      expect(body.meta.rows_per_page, path).toBe(cap);
    }
  });
});

describe("a move's organisation", () => {
  it('is declared as an object or null, without an allOf that no null can pass', async () => {
    const schema = document.components.schemas.MoveOrganisation;
    expect(schema.allOf).toBeUndefined();
    const validate = ajv.getSchema('openapi#/components/schemas/Event');
    expect(validate).toBeDefined();
    const { body } = await app.getJson<Envelope<{ reference: string }[]>>(
      '/v1/events?eventType=move&limit=1',
    );
    const move = (await app.getJson<Envelope<Json>>(`/v1/events/${body.success[0]!.reference}`)).body.success;
    expect(move.data.organisation).toMatchObject({ reference: expect.any(String) });
    expect(validate!(move), ajv.errorsText(validate!.errors)).toBe(true);
    const withoutOrganisation = { ...move, data: { ...move.data, organisation: null } };
    expect(validate!(withoutOrganisation), ajv.errorsText(validate!.errors)).toBe(true);
    const broken = { ...move, data: { ...move.data, organisation: { name: 'no reference' } } };
    expect(validate!(broken)).toBe(false);
  });
});

describe('parameters that narrow on their own', () => {
  it('describe what each alone means instead of a 422', () => {
    const [scoreMin] = parameters('score_min');
    const [scoreDimension] = parameters('score_dimension');
    expect(scoreMin?.description).toContain('without it, on any dimension');
    expect(scoreDimension?.description).toContain('without `score_min`');
    const [before] = parameters('published_before');
    expect(before?.description).toContain('holds no event: the page is empty');
  });
});

const post = async (path: string, body: unknown) =>
  app.request(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('chips: the document states every rule the server checks', () => {
  const run = randomUUID();
  const organisation = '8477db4a-3568-43d9-bca0-7825fa907725';
  const condition = (fieldType: string, value: string, extra: Record<string, unknown> = {}) => ({
    fieldType,
    label: `agreement ${run}`,
    value,
    operator: 'EQUAL',
    ...extra,
  });
  const join = (value: string, extra: Record<string, unknown> = {}) => ({
    fieldType: 'Operator',
    label: value,
    value,
    ...extra,
  });
  const deal = condition('DealType', 'merger');
  const cases: [string, unknown[], boolean][] = [
    ['one condition', [deal], true],
    ['condition, join, condition', [deal, join('OR'), condition('Organisation', organisation)], true],
    ['an unsupported field type', [condition('AAA', 'x')], true],
    [
      'operator and join in any case, with spaces',
      [deal, join(' and '), condition('EventType', 'deal', { operator: ' equal ' })],
      true,
    ],
    [
      '99 chips',
      Array.from({ length: 99 }, (_, i) => (i % 2 ? join('OR') : condition('DealType', `d${i}`))),
      true,
    ],
    ['a join alone', [join('OR')], false],
    ['ending on a join', [deal, join('OR')], false],
    ['two conditions in a row', [deal, deal], false],
    ['two joins in a row', [deal, join('OR'), join('AND'), deal], false],
    ['no chip', [], false],
    ['101 chips', Array.from({ length: 101 }, (_, i) => (i % 2 ? join('OR') : deal)), false],
    ['a blank value', [condition('DealType', ' \t')], false],
    ['a blank field type', [condition('\u00a0', 'x')], false],
    ['an Organisation value that is no UUID', [condition('Organisation', 'acme')], false],
    ['an unknown operator', [condition('DealType', 'merger', { operator: 'LIKE' })], false],
    ['a join with an operator', [deal, join('OR', { operator: 'EQUAL' }), deal], false],
    ['a join that is neither AND nor OR', [deal, join('XOR'), deal], false],
    ['a label with NUL', [condition('DealType', 'merger', { label: 'a\u0000b' })], false],
  ];

  it.each(cases)('%s: the document and the server agree', async (_, query, valid) => {
    const validate = ajv.getSchema('openapi#/components/schemas/SaveEventSearchBody')!;
    expect(validate({ query }), ajv.errorsText(validate.errors)).toBe(valid);
    const response = await post('/v1/search/events', { query });
    expect(response.status).toBe(valid ? 201 : 400);
  });
});

describe('a webhook URL: the document allows only what the server accepts', () => {
  it.each([
    ['https://hooks.example.com/orgraph', true],
    ['https://a-b.example:8443/x?token=abc&b=%20', true],
    ['https://A.Example.COM/path/~!$&()*+,;=:@%20', true],
    ['https://localhost/hook', false],
    ['https://hooks.LocalHost:8443/', false],
    ['https://10.1.2.3/hook', false],
    ['https://127.1/hook', false],
    ['http://example.com/hook', false],
    ['https://user:secret@example.com/', false],
    ['https://xn--a.example/', false],
    ['000000', false],
  ])('%s', async (url, allowed) => {
    const schema = document.paths['/v1/webhooks'].post.requestBody.content['application/json'].schema;
    const pattern = new RegExp(schema.properties.url.pattern);
    expect(pattern.test(url)).toBe(allowed);
    if (!allowed) return;
    // Strictly configured, as in production: no private destinations.
    app.services.config.webhookAllowPrivate = false;
    try {
      const saved = await post('/v1/search/events', {
        query: [{ fieldType: 'DealType', label: 'hook', value: `hook-${randomUUID()}`, operator: 'EQUAL' }],
      });
      const { success } = (await saved.json()) as Envelope<{ queryId: string }>;
      const response = await post('/v1/webhooks', { queryId: success.queryId, url });
      expect(response.status, url).toBe(201);
    } finally {
      app.services.config.webhookAllowPrivate = true;
    }
  });
});

describe('country and industry: the document lists the values the server answers', () => {
  it('lists codes and names a client may send, and leaves out what the server refuses', async () => {
    const [country] = parameters('country');
    const [industry] = parameters('industry');
    expect(country?.schema.enum).toEqual(expect.arrayContaining(['GB', 'GBR', 'United Kingdom', 'Germany']));
    expect(country?.schema.enum).not.toContain('Atlantis');
    expect(industry?.schema.enum).toEqual(expect.arrayContaining(['45', '4510', '451020', '45102010']));
    expect(industry?.schema.enum).not.toContain('99');
    for (const query of ['country=GB', 'country=GBR', 'country=United%20Kingdom', 'industry=45102010']) {
      expect((await app.request(`/v1/organisations?${query}&show_empty=true`)).status, query).toBe(200);
    }
    for (const query of ['country=Atlantis', 'industry=99']) {
      expect((await app.request(`/v1/organisations?${query}`)).status, query).toBe(422);
    }
  });
});

describe('a feed cursor', () => {
  it('is declared by its form; one of that form the feed did not issue is unknown (404), not malformed', async () => {
    const [after] = parameters('after');
    const pattern = new RegExp(after!.schema.pattern);
    const saved = await post('/v1/search/events', {
      query: [{ fieldType: 'DealType', label: 'feed', value: `feed-${randomUUID()}`, operator: 'EQUAL' }],
    });
    const { queryId } = ((await saved.json()) as Envelope<{ queryId: string }>).success;
    const { body } = await app.getJson<Envelope<unknown[], { cursor: string }>>(
      `/v1/searches/${queryId}/feed`,
    );
    expect(pattern.test(body.meta.cursor)).toBe(true);
    const unknown = `AAAA.${'0'.repeat(24)}`;
    expect(pattern.test(unknown)).toBe(true);
    expect((await app.request(`/v1/searches/${queryId}/feed?after=${unknown}`)).status).toBe(404);
    expect(pattern.test('0'.repeat(200))).toBe(false);
    expect((await app.request(`/v1/searches/${queryId}/feed?after=${'0'.repeat(200)}`)).status).toBe(422);
  });
});

describe('text filters', () => {
  it('declare that NUL is refused, as the server refuses it', async () => {
    for (const [name, path] of [
      ['name', '/v1/organisations'],
      ['search', '/v1/profiles'],
      ['query', '/v1/search/suggestions'],
    ] as const) {
      const [parameter] = parameters(name).filter((found) => found.path === path);
      expect(new RegExp(parameter!.schema.pattern).test('a\u0000b'), name).toBe(false);
      expect((await app.request(`${path}?${name}=a%00b`)).status, name).toBe(422);
    }
  });
});
