/**
 * Where the OpenAPI document and the server once disagreed (a schema-driven fuzzer found each): the document
 * declares only refusals the server makes, and the server answers what the document allows. See docs/rest.md.
 */
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
