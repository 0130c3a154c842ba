import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoExamples } from '../../src/rest/demo-examples.ts';
import { type Envelope, openTestApp, type TestApp } from '../support/test-app.ts';

interface Parameter {
  name: string;
  in: 'path' | 'query';
  example?: unknown;
  schema?: { example?: unknown };
}
interface Operation {
  operationId: string;
  parameters?: Parameter[];
}
type Document = { paths: Record<string, Record<string, Operation>> };

let app: TestApp;
let document: Document;

beforeAll(async () => {
  app = await openTestApp();
  document = (await app.getJson<Document>('/v1/openapi.json')).body;
});
afterAll(async () => {
  await app.services.quotas?.close();
  await app.close();
});

const exampleOf = (parameter: Parameter) => parameter.example ?? parameter.schema?.example;

/**
 * Every GET operation whose path has references of the demo dataset, with the path filled from the document's own
 * examples. A saved search's feed and a webhook's deliveries are left out: their ids exist only once a client made them.
 */
function exampledPaths(): { operationId: string; path: string }[] {
  return Object.entries(document.paths).flatMap(([template, operations]) => {
    const get = operations.get;
    if (!get || !template.includes('{') || /\{(queryId|webhookId|deliveryId)\}/.test(template)) return [];
    const path = template.replace(/\{(\w+)\}/g, (_whole, name: string) => {
      const parameter = get.parameters?.find(
        (candidate) => candidate.in === 'path' && candidate.name === name,
      );
      return String(parameter ? exampleOf(parameter) : `{${name}}`);
    });
    return [{ operationId: get.operationId, path }];
  });
}

describe('the OpenAPI examples are records of the demo dataset', () => {
  it('gives every path reference an example', () => {
    const paths = exampledPaths();
    expect(paths.map((entry) => entry.operationId).sort()).toEqual([
      'getArticle',
      'getEvent',
      'getOrganisation',
      'getOrganisationOwnership',
      'getProfile',
      'listOrganisationPeople',
      'listProfileArticles',
      'listProfileOwnership',
    ]);
    for (const { path } of paths) expect(path).not.toContain('{');
  });

  it('answers each path as it stands in the document, with the record it names', async () => {
    for (const { operationId, path } of exampledPaths()) {
      const { status, body } = await app.getJson<Envelope<unknown>>(path);
      expect(status, `${operationId} ${path}`).toBe(200);
      expect(body.success, operationId).not.toBeNull();
    }
    const organisation = await app.getJson<Envelope<{ name: string }>>(
      `/v1/organisations/${demoExamples.organisation.reference}`,
    );
    expect(organisation.body.success.name).toBe(demoExamples.organisation.name);
    const profile = await app.getJson<Envelope<{ names: { fullName: string } }>>(
      `/v1/profiles/${demoExamples.profile.reference}`,
    );
    expect(profile.body.success.names.fullName).toBe(demoExamples.profile.name);
  });

  it('narrows the lists to the examples of their reference filters', async () => {
    const people = await app.getJson<Envelope<unknown[]>>(
      `/v1/profiles?organisationReference=${demoExamples.organisation.reference}`,
    );
    expect(people.status).toBe(200);
    expect(people.body.success.length).toBeGreaterThan(0);
    const events = await app.getJson<Envelope<unknown[]>>(
      `/v1/events?organisationReference=${demoExamples.organisation.reference}`,
    );
    expect(events.status).toBe(200);
    expect(events.body.success.length).toBeGreaterThan(0);
  });
});
