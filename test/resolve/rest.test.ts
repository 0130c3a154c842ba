import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/database.ts';
import { type Envelope, openTestApp, type TestApp } from '../support/test-app.ts';

interface RowWire {
  status: 'matched' | 'ambiguous' | 'none';
  reason: string | null;
  candidates: {
    reference: string;
    name: string;
    score: number;
    matched_on: { field: string; input: string; value: string | null; how: string }[];
  }[];
}

type ResolveAnswer = Envelope<
  RowWire[],
  { inputs: number; matched: number; ambiguous: number; none: number }
>;

let app: TestApp;
beforeAll(async () => {
  app = await openTestApp();
});
afterAll(() => app.close());

async function post(path: string, body: unknown, token?: string) {
  const response = await app.request(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    ...(token ? { token } : {}),
  });
  return {
    status: response.status,
    body: (await response.json()) as ResolveAnswer,
    headers: response.headers,
  };
}

describe('POST /v1/resolve/organisations', () => {
  it('answers 1,000 mixed inputs with one row each, in input order', async () => {
    const records = await queryRows<{ reference: string; name: string; domain: string | null }>(
      app.services.db,
      sql`select o.reference::text, o.name, (select d.domain from organisation_domains d
            where d.organisation_reference = o.reference order by d.domain limit 1) as domain
          from organisations o order by o.reference limit 400`,
    );
    // By domain, by name, empty, and a name no record is like, interleaved so that a reordering shows.
    const inputs = Array.from({ length: 1000 }, (_, index) => {
      const record = records[index % records.length]!;
      switch (index % 5) {
        case 0:
          return record.domain ? { website: `https://www.${record.domain}/` } : { name: record.name };
        case 1:
        case 2:
          return { name: record.name };
        case 3:
          return {};
        default:
          return { name: `Zzqx Wvvq ${index}` };
      }
    });
    const { status, body } = await post('/v1/resolve/organisations', { inputs, max_candidates: 10 });
    expect(status).toBe(200);
    expect(body.success).toHaveLength(1000);
    body.success.forEach((row, index) => {
      const record = records[index % records.length]!;
      if (index % 5 === 3)
        expect(row).toEqual({ status: 'none', reason: expect.any(String), candidates: [] });
      else if (index % 5 === 4) expect(row.status).toBe('none');
      else expect(row.candidates.map((candidate) => candidate.reference)).toContain(record.reference);
    });
    const counted = body.meta.matched + body.meta.ambiguous + body.meta.none;
    expect(body.meta.inputs).toBe(1000);
    expect(counted).toBe(1000);
  });

  it('explains each candidate in the wire’s field names', async () => {
    const [record] = await queryRows<{ reference: string; name: string }>(
      app.services.db,
      sql`select reference::text, name from organisations order by reference limit 1`,
    );
    const { status, body } = await post('/v1/resolve/organisations', {
      inputs: [{ name: record!.name.toLowerCase() }],
      min_score: 0,
    });
    expect(status).toBe(200);
    const candidate = body.success[0]!.candidates.find((c) => c.reference === record!.reference);
    expect(candidate!.matched_on[0]).toEqual({
      field: 'name',
      input: record!.name.toLowerCase(),
      value: record!.name,
      how: record!.name.toLowerCase() === record!.name ? 'exact' : 'normalised',
    });
    expect(candidate!.score).toBeGreaterThan(0);
    expect(candidate!.score).toBeLessThanOrEqual(1);
  });

  it('refuses an unknown field, too many inputs and an option out of range with 422 naming it', async () => {
    const unknown = await post('/v1/resolve/organisations', { inputs: [{ name: 'A' }, { phone: '1' }] });
    expect(unknown.status).toBe(422);
    expect(unknown.body.status.messages[0]).toMatch(/Unknown field `inputs\.1\.phone`/);
    const unknownTop = await post('/v1/resolve/organisations', { inputs: [{ name: 'A' }], limit: 3 });
    expect(unknownTop.status).toBe(422);
    expect(unknownTop.body.status.messages[0]).toMatch(/`limit`/);
    const many = await post('/v1/resolve/organisations', {
      inputs: Array.from({ length: 1001 }, () => ({ name: 'A' })),
    });
    expect(many.status).toBe(422);
    expect(many.body.status.messages.join(' ')).toMatch(/Too many inputs: `inputs` has at most 1000/);
    const option = await post('/v1/resolve/organisations', { inputs: [{ name: 'A' }], max_candidates: 50 });
    expect(option.status).toBe(422);
    expect(option.body.status.messages[0]).toMatch(/`max_candidates`/);
  });

  it('refuses text the database cannot hold (NUL, a lone surrogate) with 422 naming the input', async () => {
    const nul = await post('/v1/resolve/profiles', { inputs: [{ name: 'Ada' }, { email: 'a\u0000b' }] });
    expect(nul.status).toBe(422);
    expect(nul.body.status.messages[0]).toMatch(/inputs\.1\.email: text with NUL/);
    const surrogate = await post('/v1/resolve/organisations', '{"inputs":[{"name":"\\ud800x"}]}');
    expect(surrogate.status).toBe(422);
    expect(surrogate.body.status.messages[0]).toMatch(/inputs\.0\.name/);
  });

  it('refuses malformed JSON with 400 and another media type with 415', async () => {
    expect((await post('/v1/resolve/organisations', '{"inputs": [')).status).toBe(400);
    const response = await app.request('/v1/resolve/organisations', {
      method: 'POST',
      headers: { 'Content-Type': 'text/csv' },
      body: 'name\nAcme',
    });
    expect(response.status).toBe(415);
  });

  it('charges each input to the request budget', async () => {
    const before = await post('/v1/resolve/organisations', { inputs: [{ name: 'A' }] }, app.tokens.starter);
    const remaining = (headers: Headers) => Number(/;r=(\d+)/.exec(headers.get('RateLimit') ?? '')?.[1]);
    const left = remaining(before.headers);
    await post(
      '/v1/resolve/organisations',
      { inputs: Array.from({ length: 50 }, () => ({ name: 'A' })) },
      app.tokens.starter,
    );
    const after = await post('/v1/resolve/organisations', { inputs: [{ name: 'A' }] }, app.tokens.starter);
    expect(left).toBeGreaterThan(51);
    expect(left - remaining(after.headers)).toBe(51);
  });
});

describe('POST /v1/resolve/profiles', () => {
  it('matches a person by e-mail and refuses an organisation field it does not know', async () => {
    const [person] = await queryRows<{ reference: string; email: string }>(
      app.services.db,
      sql`select m.profile_reference::text as reference, m.value as email from profile_emails m
          where (select count(*) from profile_emails x where lower(x.value) = lower(m.value)) = 1
          order by m.reference limit 1`,
    );
    const { status, body } = await post('/v1/resolve/profiles', {
      inputs: [{ email: person!.email.toUpperCase() }, { first_name: '', last_name: '' }],
    });
    expect(status).toBe(200);
    expect(body.success[0]).toMatchObject({
      status: 'matched',
      candidates: [{ reference: person!.reference }],
    });
    expect(body.success[0]!.candidates[0]!.matched_on[0]).toMatchObject({
      field: 'email',
      how: 'normalised',
    });
    expect(body.success[1]).toMatchObject({ status: 'none', candidates: [] });
    const refused = await post('/v1/resolve/profiles', { inputs: [{ website: 'acme.com' }] });
    expect(refused.status).toBe(422);
    expect(refused.body.status.messages[0]).toMatch(/`inputs\.0\.website`.*linkedin_url/);
  });
});
