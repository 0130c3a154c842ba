import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/database.ts';
import { openTestApp, type TestApp } from '../support/test-app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await openTestApp();
});
afterAll(() => app.close());

interface Row {
  status: string;
  reason: string | null;
  candidates: {
    score: number;
    matchedOn: { field: string; how: string }[];
    organisation: { reference: string; name: string; people: { totalCount: number } };
  }[];
}

describe('resolveOrganisations', () => {
  it('answers each input in order with Organisation nodes the query reads on from', async () => {
    const records = await queryRows<{ reference: string; name: string }>(
      app.services.db,
      sql`select reference::text, name from organisations order by reference limit 3`,
    );
    const { status, body } = await app.graphql<{ resolveOrganisations: Row[] }>(
      `query Resolve($inputs: [OrganisationResolveInput!]!) {
        resolveOrganisations(inputs: $inputs, maxCandidates: 5) {
          status reason
          candidates { score matchedOn { field how } organisation { reference name } }
        }
      }`,
      {
        inputs: [
          { name: records[0]!.name },
          {},
          { name: records[1]!.name.toUpperCase() },
          { name: records[2]!.name },
        ],
      },
    );
    expect(status).toBe(200);
    expect(body.errors).toBeUndefined();
    const rows = body.data!.resolveOrganisations;
    expect(rows).toHaveLength(4);
    expect(rows[1]).toMatchObject({ status: 'NONE', candidates: [] });
    expect(rows[1]!.reason).toMatch(/no name/);
    for (const [row, record] of [
      [rows[0]!, records[0]!],
      [rows[2]!, records[1]!],
      [rows[3]!, records[2]!],
    ] as const) {
      expect(row.candidates.map((candidate) => candidate.organisation.reference)).toContain(record.reference);
      expect(row.candidates[0]!.matchedOn[0]!.field).toBe('name');
    }
  });

  it('refuses more than 1,000 inputs with a clear error', async () => {
    const { body } = await app.graphql(
      'query Resolve($inputs: [OrganisationResolveInput!]!) { resolveOrganisations(inputs: $inputs) { status } }',
      { inputs: Array.from({ length: 1001 }, () => ({ name: 'A' })) },
    );
    expect(body.errors?.[0]?.message).toMatch(/at most 1000 inputs/);
  });
});

describe('resolveProfiles', () => {
  it('answers with Profile nodes', async () => {
    const [person] = await queryRows<{ reference: string; fullName: string }>(
      app.services.db,
      sql`select reference::text, full_name as "fullName" from profiles order by reference limit 1`,
    );
    const { body } = await app.graphql<{
      resolveProfiles: { status: string; candidates: { profile: { reference: string } }[] }[];
    }>(
      `query Resolve($inputs: [ProfileResolveInput!]!) {
        resolveProfiles(inputs: $inputs) { status candidates { score profile { reference } } }
      }`,
      { inputs: [{ name: person!.fullName }] },
    );
    expect(body.errors).toBeUndefined();
    expect(body.data!.resolveProfiles[0]!.candidates.map((c) => c.profile.reference)).toContain(
      person!.reference,
    );
  });
});
