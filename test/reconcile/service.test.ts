import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/database.ts';
import { createLogger, useLogger } from '../../src/http/observability/logger.ts';
import { openTestApp, type TestApp } from '../support/test-app.ts';

/** The JSON Schemas published with the Reconciliation Service API 0.2, transcribed beside this file. */
const ajv = new Ajv({ strict: false, allErrors: true });
const schema = (name: string) =>
  JSON.parse(readFileSync(new URL(`./schemas/${name}.json`, import.meta.url), 'utf8'));
ajv.addSchema(schema('type'));
const validators = {
  manifest: ajv.compile(schema('manifest')),
  results: ajv.compile(schema('reconciliation-result-batch')),
  entities: ajv.compile(schema('suggest-entities-response')),
  properties: ajv.compile(schema('suggest-properties-response')),
};

function expectValid(validate: ValidateFunction, body: unknown) {
  const valid = validate(body);
  expect(validate.errors ?? []).toEqual([]);
  expect(valid).toBe(true);
}

describe('the transcribed schemas', () => {
  it('refuse what the specification refuses: a candidate without a score, a feature valued as text', () => {
    expect(validators.results({ q0: { result: [{ id: 'a', name: 'A' }] } })).toBe(false);
    expect(
      validators.results({
        q0: { result: [{ id: 'a', name: 'A', score: 1, features: [{ id: 'f', value: 'x' }] }] },
      }),
    ).toBe(false);
    expect(
      validators.manifest({ versions: ['0.1'], name: 'n', identifierSpace: 'i', schemaSpace: 's' }),
    ).toBe(false);
    expect(validators.entities({ result: [{ name: 'no id' }] })).toBe(false);
  });
});

let app: TestApp;
let organisation: { reference: string; name: string; domain: string; country: string };
let person: { reference: string; fullName: string; linkedinUrl: string };

beforeAll(async () => {
  app = await openTestApp();
  const rows = <Row>(query: ReturnType<typeof sql>) => queryRows<Row>(app.services.db, query);
  [organisation] = (await rows<typeof organisation>(sql`
    select o.reference::text, o.name, d.domain, ad.country from organisations o
      join lateral (select domain from organisation_domains where organisation_reference = o.reference
        order by is_valid desc, confidence_score desc, domain limit 1) d on true
      join organisation_addresses ad on ad.organisation_reference = o.reference and ad.kind = 'company'
      where ad.country is not null and not exists (
        select from organisations x where x.reference <> o.reference
          and orgraph_organisation_key(x.name) = orgraph_organisation_key(o.name))
      and not exists (select from organisation_aliases a where orgraph_organisation_key(a.name) = orgraph_organisation_key(o.name)
          and a.organisation_reference <> o.reference)
      order by o.reference limit 1`)) as [typeof organisation];
  [person] = (await rows<typeof person>(sql`
    select p.reference::text, p.full_name as "fullName", p.linkedin_url as "linkedinUrl" from profiles p
      where p.linkedin_url like '%linkedin.com/in/%'
        and (select count(*) from profiles x where orgraph_person_key(x.full_name) = orgraph_person_key(p.full_name)) = 1
      order by p.reference limit 1`)) as [typeof person];
});
afterAll(() => app.close());

/** A batch POSTed as OpenRefine sends it: a form field `queries`, the token in the path. */
async function reconcile(queries: unknown, token = app.tokens.starter) {
  const response = await app.request(`/reconcile/${token}`, {
    method: 'POST',
    token: null,
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ queries: JSON.stringify(queries) }).toString(),
  });
  return { response, body: await response.json() };
}

describe('the service manifest', () => {
  it('is valid, and its addresses carry the path token so that suggest and preview reach the service', async () => {
    const token = app.tokens.starter;
    const response = await app.request(`/reconcile/${token}`, { token: null });
    expect(response.status).toBe(200);
    const manifest = await response.json();
    expectValid(validators.manifest, manifest);
    expect(manifest.versions).toEqual(['0.2']);
    expect(manifest.defaultTypes.map((type: { id: string }) => type.id)).toEqual(['Organisation', 'Profile']);
    expect(manifest.suggest.entity.service_url).toBe(`http://orgraph.test/reconcile/${token}`);
    expect(manifest.preview.url).toBe(`http://orgraph.test/reconcile/${token}/preview?id={{id}}`);
    expect(manifest.batchSize).toBe(1000);
  });

  it('never writes the path token to the request log', async () => {
    const written: string[] = [];
    const previous = useLogger(
      createLogger({ level: 'info', destination: { write: (line: string) => written.push(line) } }),
    );
    try {
      await app.request(`/reconcile/${app.tokens.starter}/suggest/property?prefix=e`, { token: null });
      await app.request(`/reconcile/${app.tokens.starter}/preview?id=00000000-0000-4000-8000-000000000000`, {
        token: null,
      });
    } finally {
      useLogger(previous);
    }
    const lines = written.map((line) => JSON.parse(line) as { path?: string; route?: string });
    const paths = lines.filter((line) => line.path).map((line) => line.path);
    expect(paths).toEqual([
      '/reconcile/orgr_[redacted]/suggest/property',
      '/reconcile/orgr_[redacted]/preview',
    ]);
    expect(written.join('\n')).not.toContain(app.tokens.starter);
  });

  it('is open at the header form, and a wrong path token is told at once with 401', async () => {
    const slashed = await app.request(`/reconcile/${app.tokens.starter}/`, { token: null });
    expect((await slashed.json()).preview.url).toBe(
      `http://orgraph.test/reconcile/${app.tokens.starter}/preview?id={{id}}`,
    );
    const open = await app.request('/reconcile', { token: null });
    expect(open.status).toBe(200);
    expectValid(validators.manifest, await open.json());
    const wrong = await app.request(`/reconcile/orgr_${'x'.repeat(49)}`, { token: null });
    expect(wrong.status).toBe(401);
  });

  it('answers a page on any origin (CORS), as the specification requires', async () => {
    const response = await app.request('/reconcile', {
      token: null,
      headers: { Origin: 'https://refine.example' },
    });
    expect(response.headers.get('Access-Control-Allow-Origin')).toBe('*');
    const preflight = await app.request('/reconcile', {
      method: 'OPTIONS',
      token: null,
      headers: { Origin: 'https://refine.example', 'Access-Control-Request-Method': 'POST' },
    });
    expect(preflight.status).toBe(204);
  });
});

describe('reconciliation queries', () => {
  it('answers each query by its key with scored candidates, match and features from matched_on, valid against the schema', async () => {
    const handle = person.linkedinUrl.split('/in/')[1]!;
    const { response, body } = await reconcile({
      q0: { query: organisation.name.toUpperCase(), properties: [{ pid: 'domain', v: organisation.domain }] },
      q1: {
        query: person.fullName,
        type: 'Profile',
        properties: [{ pid: 'linkedin_url', v: `linkedin.com/in/${handle}/` }],
      },
      q2: { query: 'Qxzvvy Wplmk Zzqt' },
      q3: { query: '' },
    });
    expect(response.status).toBe(200);
    expectValid(validators.results, body);
    expect(Object.keys(body)).toEqual(['q0', 'q1', 'q2', 'q3']);
    const [best] = body.q0.result;
    expect(best).toMatchObject({
      id: organisation.reference,
      name: organisation.name,
      match: true,
      type: [{ id: 'Organisation', name: 'Organisation' }],
    });
    expect(best.score).toBeGreaterThanOrEqual(0.8);
    expect(best.score).toBeLessThanOrEqual(1);
    expect(best.features).toEqual([
      { id: 'name_normalised', value: true },
      { id: 'domain_exact', value: true },
    ]);
    expect(best.description).toContain(`name normalised: “${organisation.name}”`);
    expect(body.q1.result[0]).toMatchObject({ id: person.reference, match: true, type: [{ id: 'Profile' }] });
    expect(body.q1.result[0].features).toContainEqual({ id: 'linkedin_url_normalised', value: true });
    expect(body.q2.result.every((candidate: { match: boolean }) => !candidate.match)).toBe(true);
    expect(body.q3).toEqual({ result: [] });
  });

  it('says which fields disagree, as false features', async () => {
    const { body } = await reconcile({
      q0: {
        query: organisation.name,
        properties: [{ pid: 'country', v: organisation.country === 'NZ' ? 'FI' : 'NZ' }],
      },
    });
    expectValid(validators.results, body);
    const [best] = body.q0.result;
    expect(best.id).toBe(organisation.reference);
    expect(best.features).toContainEqual({ id: 'country_disagrees', value: false });
  });

  it('takes the batch as a GET parameter and as JSON too, and keeps to each query’s limit', async () => {
    const queries = { a: { query: organisation.name.slice(0, 4), limit: 1 } };
    const viaGet = await app.request(`/reconcile?queries=${encodeURIComponent(JSON.stringify(queries))}`);
    expect(viaGet.status).toBe(200);
    const got = await viaGet.json();
    expectValid(validators.results, got);
    expect(got.a.result.length).toBeLessThanOrEqual(1);
    const viaJson = await app.request('/reconcile', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ queries }),
    });
    expect(await viaJson.json()).toEqual(got);
  });

  it('answers every key as given, whatever it is called', async () => {
    const { body } = await reconcile(
      JSON.parse(`{"__proto__": {"query": ${JSON.stringify(organisation.name)}}, "1": {"query": ""}}`),
    );
    expect(Object.keys(body).sort()).toEqual(['1', '__proto__']);
    expect(Object.getOwnPropertyDescriptor(body, '__proto__')?.value.result[0].id).toBe(
      organisation.reference,
    );
  });

  it('counts every query toward the plan’s requests', async () => {
    const remaining = (response: Response) =>
      Number(/r=(\d+)/.exec(response.headers.get('RateLimit') ?? '')?.[1]);
    const queries = Object.fromEntries(
      Array.from({ length: 5 }, (_, i) => [`q${i}`, { query: `name ${i}` }]),
    );
    const first = await reconcile(queries, app.tokens.professional);
    const second = await reconcile(queries, app.tokens.professional);
    expect(remaining(first.response) - remaining(second.response)).toBe(5);
  });

  it('refuses what it cannot answer, naming the query and field', async () => {
    const cases: [unknown, number, RegExp][] = [
      [
        { q0: { query: 'x', properties: [{ pid: 'shoe_size', v: '9' }] } },
        422,
        /queries\.q0\.properties\.0\.pid.*shoe_size/,
      ],
      [{ q0: { query: 'x', type: 'Planet' } }, 422, /queries\.q0\.type.*Planet/],
      [{ q0: { query: 'x', limit: 0 } }, 422, /queries\.q0\.limit/],
      [{ q0: { query: 'x', colour: 'red' } }, 422, /queries\.q0/],
      [{ q0: {} }, 422, /queries\.q0: give a query text/],
      [{ q0: { query: 'x', properties: [{ pid: 'name', v: 'y' }] } }, 422, /name is given twice/],
      [
        { q0: { query: 'x', properties: [{ pid: 'domain', v: ['a.com', 'b.com'] }] } },
        422,
        /one value for domain/,
      ],
      [
        Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`q${i}`, { query: 'x' }])),
        413,
        /at most 1000/,
      ],
      [[{ query: 'x' }], 422, /keyed by query id/],
    ];
    for (const [queries, status, message] of cases) {
      const { response, body } = await reconcile(queries, app.tokens.enterprise);
      expect(response.status, JSON.stringify(queries).slice(0, 80)).toBe(status);
      expect(body.status.messages.join(' ')).toMatch(message);
    }
    const jsonp = await app.request('/reconcile?queries=%7B%7D&callback=f');
    expect(jsonp.status).toBe(422);
    const noToken = await app.request('/reconcile', {
      method: 'POST',
      token: null,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'queries=%7B%7D',
    });
    expect(noToken.status).toBe(401);
    const put = await app.request('/reconcile/suggest/entity', { method: 'PUT', token: null });
    expect(put.status).toBe(405);
    expect(put.headers.get('Allow')).toBe('GET');
    const text = await app.request('/reconcile', {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain' },
      body: 'x',
    });
    expect(text.status).toBe(415);
  });
});

describe('suggest and preview', () => {
  it('suggests organisations by name, valid against the schema, with a cursor for more', async () => {
    const prefix = organisation.name.slice(0, Math.min(organisation.name.length, 6));
    const response = await app.request(
      `/reconcile/${app.tokens.starter}/suggest/entity?prefix=${encodeURIComponent(prefix)}`,
      {
        token: null,
      },
    );
    expect(response.status).toBe(200);
    const body = await response.json();
    expectValid(validators.entities, body);
    expect(body.result.length).toBeGreaterThan(0);
    for (const entity of body.result) expect(entity.name.toLowerCase()).toContain(prefix.toLowerCase());
    const exact = await (
      await app.request(`/reconcile/suggest/entity?prefix=${encodeURIComponent(organisation.name)}`)
    ).json();
    expect(exact.result[0]).toMatchObject({ id: organisation.reference, name: organisation.name });
    const next = await (
      await app.request(`/reconcile/suggest/entity?prefix=${encodeURIComponent(prefix)}&cursor=1`)
    ).json();
    expect(next.result[0]).toEqual(body.result[1]);
    const bad = await app.request('/reconcile/suggest/entity?prefix=a&cursor=-1');
    expect(bad.status).toBe(422);
  });

  it('suggests the properties a query may carry', async () => {
    const body = await (await app.request('/reconcile/suggest/property?prefix=link')).json();
    expectValid(validators.properties, body);
    expect(body.result.map((property: { id: string }) => property.id)).toEqual(['linkedin_url']);
  });

  it('previews an organisation and a person as a self-contained card, and 404 for an unknown id', async () => {
    const card = await app.request(`/reconcile/${app.tokens.starter}/preview?id=${organisation.reference}`, {
      token: null,
    });
    expect(card.status).toBe(200);
    expect(card.headers.get('Content-Type')).toMatch(/^text\/html/);
    expect(card.headers.get('Content-Security-Policy')).toContain("default-src 'none'");
    const html = await card.text();
    expect(html).toContain(organisation.domain);
    expect(html).not.toMatch(/\s(src|href)=|<script|<link/i);
    const personCard = await (await app.request(`/reconcile/preview?id=${person.reference}`)).text();
    expect(personCard).toContain('Person');
    const unknown = await app.request('/reconcile/preview?id=00000000-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(404);
    const notAnId = await app.request('/reconcile/preview?id=acme');
    expect(notAnId.status).toBe(404);
  });
});
