/**
 * Requests generated from `/v1/openapi.json` itself (fast-check over each GET operation's parameter schemas):
 * a schema-valid request never gets a 4xx other than 401/403/404, a request with one parameter outside its
 * schema gets a 4xx in the envelope, and every response matches its declared status, content type, headers
 * and schema. Bounded in count and in time.
 */
import Ajv2020 from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApp, type TestApp } from '../support/test-app.ts';

// biome-ignore lint/suspicious/noExplicitAny: the document is read as plain JSON.
type Json = any;

const runs = Number(process.env.OPENAPI_FUZZ_RUNS ?? 150);
const timeLimitMs = 90_000;

let app: TestApp;
let document: Json;
let ajv: InstanceType<typeof Ajv2020.default>;
let refs: Record<string, string[]>;

beforeAll(async () => {
  app = await openTestApp();
  document = await (await app.request('/v1/openapi.json', { token: null })).json();
  ajv = new Ajv2020.default({ strict: false, allErrors: true, validateFormats: false });
  ajv.addSchema(document, 'openapi');
  const sample = async (path: string) =>
    ((await app.getJson<{ success: { reference: string }[] }>(path)).body.success ?? []).map(
      (row) => row.reference,
    );
  const events = await sample('/v1/events?eventType=move&limit=20');
  const articles: string[] = [];
  for (const event of events.slice(0, 5)) {
    const { body } = await app.getJson<{ success: { data: { articles: { reference: string }[] } } }>(
      `/v1/events/${event}`,
    );
    articles.push(...body.success.data.articles.map((article) => article.reference));
  }
  refs = {
    organisationReference: await sample('/v1/organisations?limit=5'),
    profileReference: await sample('/v1/profiles?limit=5'),
    eventReference: events.slice(0, 5),
    articleReference: articles.slice(0, 5),
    queryId: [],
  };
});
afterAll(async () => {
  await app.services.quotas?.close();
  await app.close();
});

const pointer = (...parts: string[]) =>
  parts.map((part) => part.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');

/** A value inside a parameter's schema, as query text. */
function validValue(name: string, schema: Json): fc.Arbitrary<string> {
  if (schema.format === 'uuid' || name.endsWith('Reference') || name === 'queryId') {
    const known = refs[name] ?? [];
    return known.length ? fc.oneof(fc.constantFrom(...known), fc.uuid()) : fc.uuid();
  }
  if (schema.enum) return fc.constantFrom(...schema.enum.map(String));
  if (schema.type === 'boolean') return fc.constantFrom('true', 'false');
  if (schema.type === 'integer') {
    const min = schema.minimum ?? 0;
    const max = Math.min(schema.maximum ?? min + 1000, min + 1000);
    return fc.integer({ min, max }).map(String);
  }
  if (schema.type === 'array') {
    return fc
      .uniqueArray(fc.constantFrom(...schema.items.enum), { minLength: 1, maxLength: schema.maxItems })
      .map((items) => items.join(','));
  }
  if (schema.anyOf)
    return fc
      .date({ min: new Date('2000-01-01'), max: new Date('2030-01-01'), noInvalidDate: true })
      .map((d) => d.toISOString());
  if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern));
  return fc
    .string({
      unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz ABC'),
      minLength: 1,
      maxLength: Math.min(schema.maxLength ?? 20, 20),
    })
    .filter((text) => text.trim().length > 0);
}

/** A value outside a parameter's schema, or undefined when every text is inside it. */
function invalidValue(name: string, schema: Json): fc.Arbitrary<string> | undefined {
  if (schema.format === 'uuid' || name.endsWith('Reference') || name === 'queryId')
    return fc.constant('not-a-uuid');
  if (schema.enum) return fc.constant('zz-not-in-the-set');
  if (schema.type === 'boolean') return fc.constantFrom('yes', '1', 'TRUE');
  if (schema.type === 'integer') {
    const outside = [String((schema.minimum ?? 0) - 1), 'ten', '1.5'];
    if (schema.maximum !== undefined && schema.maximum < Number.MAX_SAFE_INTEGER)
      outside.push(String(schema.maximum + 1));
    return fc.constantFrom(...outside);
  }
  if (schema.type === 'array') return fc.constant(`${schema.items.enum[0]},nonsense`);
  if (schema.anyOf) return fc.constantFrom('yesterday', '2024-13-45');
  if (schema.maxLength !== undefined) return fc.constant('x'.repeat(schema.maxLength + 1));
  return undefined;
}

interface Operation {
  template: string;
  parameters: { name: string; in: string; required?: boolean; schema: Json }[];
}

function getOperations(): Operation[] {
  return Object.entries(document.paths as Record<string, Json>)
    .filter(([, item]) => item.get)
    .map(([template, item]) => ({
      template,
      // A parameter's schema may be a component (the capped `limit`): read through the reference.
      parameters: (item.get.parameters ?? []).map((parameter: Json) => ({
        ...parameter,
        schema: parameter.schema?.$ref
          ? document.components.schemas[parameter.schema.$ref.split('/').pop()]
          : parameter.schema,
      })),
    }));
}

/** A request built from chosen values: path parameters substituted, the rest as the query. */
function url(operation: Operation, values: Record<string, string>): string {
  const query = new URLSearchParams();
  let path = operation.template;
  for (const parameter of operation.parameters) {
    const value = values[parameter.name];
    if (value === undefined) continue;
    if (parameter.in === 'path') path = path.replace(`{${parameter.name}}`, encodeURIComponent(value));
    else query.set(parameter.name, value);
  }
  const search = query.toString();
  return search ? `${path}?${search}` : path;
}

/** Problems of a response against the operation's declared status, content type, headers and schema. */
async function check(template: string, response: Response): Promise<string[]> {
  const base = `paths/${pointer(template)}/get/responses/${response.status}`;
  const responses = document.paths[template].get.responses as Record<string, Json>;
  const declared = responses[String(response.status)] ? ajv.getSchema(`openapi#/${base}`) : undefined;
  if (!declared) return [`status ${response.status} is not declared`];
  const problems: string[] = [];
  if (!(response.headers.get('Content-Type') ?? '').startsWith('application/json')) {
    problems.push(`content type ${response.headers.get('Content-Type')}`);
  }
  const responseObject = declared.schema as Json;
  for (const [name, header] of Object.entries((responseObject.headers ?? {}) as Record<string, Json>)) {
    const definition = header.$ref ? document.components.headers[header.$ref.split('/').pop()] : header;
    const value = response.headers.get(name);
    if (value === null) {
      if (definition.required) problems.push(`header ${name} missing`);
      continue;
    }
    const typed = definition.schema.type === 'integer' ? Number(value) : value;
    if (!ajv.validate(definition.schema, typed)) problems.push(`header ${name}: ${ajv.errorsText()}`);
  }
  const body = await response.json();
  const validate = ajv.getSchema(`openapi#/${base}/content/application~1json/schema`);
  if (validate && !validate(body)) {
    problems.push(
      ...(validate.errors ?? []).slice(0, 3).map((error) => `${error.instancePath} ${error.message}`),
    );
  }
  return problems;
}

describe('requests generated from the OpenAPI document', () => {
  it(
    'schema-valid requests get no 4xx but 401/403/404, and every response matches the document',
    async () => {
      const cases = fc.constantFrom(...getOperations()).chain((operation) => {
        // Every parameter, each on its own: the document states every rule the server checks.
        const chosen = operation.parameters;
        const record: Record<string, fc.Arbitrary<string>> = {};
        for (const parameter of chosen) record[parameter.name] = validValue(parameter.name, parameter.schema);
        const required = chosen.filter((p) => p.required).map((p) => p.name);
        return fc.record(record, { requiredKeys: required }).map((values) => ({ operation, values }));
      });
      const statuses: Record<number, number> = {};
      await fc.assert(
        fc.asyncProperty(cases, async ({ operation, values }) => {
          const path = url(operation, values as Record<string, string>);
          const response = await app.request(path);
          statuses[response.status] = (statuses[response.status] ?? 0) + 1;
          expect(
            response.status < 400 || [401, 403, 404].includes(response.status),
            `${path} → ${response.status}`,
          ).toBe(true);
          expect(await check(operation.template, response), path).toEqual([]);
        }),
        { numRuns: runs, interruptAfterTimeLimit: timeLimitMs, markInterruptAsFailure: false },
      );
      expect(statuses[200] ?? 0).toBeGreaterThan(runs / 4);
    },
    timeLimitMs + 30_000,
  );

  it(
    'a request with one parameter outside its schema gets a 4xx in the envelope, as declared',
    async () => {
      const cases = fc.constantFrom(...getOperations()).chain((operation) => {
        const breakable = operation.parameters
          .map((parameter) => ({ parameter, invalid: invalidValue(parameter.name, parameter.schema) }))
          .filter((entry) => entry.invalid !== undefined);
        return fc.constantFrom(...breakable).chain(({ parameter, invalid }) => {
          const others: Record<string, fc.Arbitrary<string>> = {};
          for (const other of operation.parameters) {
            if (other.name === parameter.name) continue;
            if (other.required) others[other.name] = validValue(other.name, other.schema);
          }
          return fc
            .record({ broken: invalid!, others: fc.record(others) })
            .map(({ broken, others: rest }) => ({
              operation,
              values: { ...rest, [parameter.name]: broken },
            }));
        });
      });
      await fc.assert(
        fc.asyncProperty(cases, async ({ operation, values }) => {
          const path = url(operation, values as Record<string, string>);
          const response = await app.request(path);
          expect(response.status >= 400 && response.status < 500, `${path} → ${response.status}`).toBe(true);
          expect(await check(operation.template, response.clone()), path).toEqual([]);
          const body = await response.json();
          expect(body.status.code).toBe(response.status);
          expect(body.status.messages.length).toBeGreaterThan(0);
          expect(body.success).toBeNull();
        }),
        { numRuns: runs, interruptAfterTimeLimit: timeLimitMs, markInterruptAsFailure: false },
      );
    },
    timeLimitMs + 30_000,
  );
});
