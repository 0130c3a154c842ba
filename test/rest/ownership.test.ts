import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/database.ts';
import type { Envelope } from '../support/test-app.ts';
import { openTestApp, type TestApp } from '../support/test-app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await openTestApp();
});
afterAll(async () => {
  await app.services.quotas?.close();
  await app.close();
});

const rows = <Row>(query: SQL) => queryRows<Row>(app.services.db, query);

interface Link {
  reference: string;
  name: string;
  ownership_label: string;
  is_controlling_interest: boolean;
  relationship_type: string;
}

interface Ownership {
  organisation: { reference: string; name: string };
  profile_owners: {
    reference: string;
    name: string;
    ownership_label: string;
    title_or_status: string | null;
    is_control_person: boolean;
  }[];
  org_owners: Link[];
  subsidiaries: Link[];
}

interface StakeItem {
  organisation: { reference: string; name: string };
  ownershipType: string;
  ownershipPercentage: string;
  titleOrStatus: string | null;
  isControlPerson: boolean;
  isActive: boolean;
  startDate: string | null;
  endDate: string | null;
}

async function ownershipOf(reference: string): Promise<Ownership> {
  const { status, body } = await app.getJson<Envelope<Ownership, null>>(
    `/v1/organisations/${reference}/ownership`,
  );
  expect(status, JSON.stringify(body.status)).toBe(200);
  expect(body.meta).toBeNull();
  return body.success;
}

describe('GET /v1/organisations/{organisationReference}/ownership', () => {
  it('lists owners and subsidiaries as stored, parent links reading subsidiary from the owner', async () => {
    const [owner] = await rows<{ reference: string; name: string }>(sql`
      select o.reference, o.name from organisations o
      where exists (select 1 from organisation_ownerships x where x.owner_reference = o.reference and x.relationship = 'parent')
        and exists (select 1 from organisation_ownerships x where x.owner_reference = o.reference and x.relationship <> 'parent')
      order by o.reference limit 1`);
    const ownership = await ownershipOf(owner!.reference);
    expect(ownership.organisation).toEqual(owner);

    const stored = await rows<{
      owned_reference: string;
      name: string;
      relationship: string;
      ownership_label: string;
      is_controlling_interest: boolean;
    }>(sql`
      select x.owned_reference, o.name, x.relationship, x.ownership_label, x.is_controlling_interest
      from organisation_ownerships x join organisations o on o.reference = x.owned_reference
      where x.owner_reference = ${owner!.reference}`);
    expect(ownership.subsidiaries).toHaveLength(stored.length);
    expect(ownership.subsidiaries).toEqual(
      expect.arrayContaining(
        stored.map((row) => ({
          reference: row.owned_reference,
          name: row.name,
          ownership_label: row.ownership_label,
          is_controlling_interest: row.is_controlling_interest,
          relationship_type: row.relationship === 'parent' ? 'subsidiary' : row.relationship,
        })),
      ),
    );
    expect(ownership.subsidiaries.some((link) => link.relationship_type === 'subsidiary')).toBe(true);
    expect(ownership.subsidiaries.some((link) => link.relationship_type !== 'subsidiary')).toBe(true);
    expect(ownership.subsidiaries.every((link) => link.relationship_type !== 'parent')).toBe(true);
  });

  it('is consistent both ways: X lists Y as a subsidiary exactly when Y lists X among its owners', async () => {
    const sample = await rows<{ reference: string }>(sql`
      select distinct owner_reference as reference from organisation_ownerships order by 1 limit 12`);
    for (const { reference } of sample) {
      const owner = await ownershipOf(reference);
      expect(owner.subsidiaries.length).toBeGreaterThan(0);
      for (const link of owner.subsidiaries) {
        const owned = await ownershipOf(link.reference);
        const back = owned.org_owners.filter((other) => other.reference === reference);
        expect(back.length).toBeGreaterThan(0);
        expect(back.map((other) => other.ownership_label)).toContain(link.ownership_label);
        const seenFromOwned = back.map((other) =>
          other.relationship_type === 'parent' ? 'subsidiary' : other.relationship_type,
        );
        expect(seenFromOwned).toContain(link.relationship_type);
        expect(owned.org_owners.every((other) => other.relationship_type !== 'subsidiary')).toBe(true);
      }
    }
    const owned = await rows<{ reference: string }>(sql`
      select distinct owned_reference as reference from organisation_ownerships order by 1 desc limit 12`);
    for (const { reference } of owned) {
      const ownership = await ownershipOf(reference);
      expect(ownership.org_owners.length).toBeGreaterThan(0);
      for (const link of ownership.org_owners) {
        const owner = await ownershipOf(link.reference);
        const forward = owner.subsidiaries.filter((other) => other.reference === reference);
        expect(forward.map((other) => other.is_controlling_interest)).toContain(link.is_controlling_interest);
        expect(forward.map((other) => other.relationship_type)).toContain(
          link.relationship_type === 'parent' ? 'subsidiary' : link.relationship_type,
        );
      }
    }
  });

  it('lists the active stakes of people, with the band label and the control flag', async () => {
    const [held] = await rows<{ organisation_reference: string }>(sql`
      select organisation_reference from profile_stakes group by 1
      having count(*) filter (where is_active) >= 2 and count(*) filter (where not is_active) >= 1 order by 1 limit 1`);
    const reference =
      held?.organisation_reference ??
      (
        await rows<{ organisation_reference: string }>(
          sql`select organisation_reference from profile_stakes where is_active limit 1`,
        )
      )[0]!.organisation_reference;
    const ownership = await ownershipOf(reference);
    const active = await rows<{
      profile_reference: string;
      full_name: string;
      ownership_band: string;
      title_or_status: string | null;
      is_control_person: boolean;
    }>(sql`
      select s.profile_reference, p.full_name, s.ownership_band, s.title_or_status, s.is_control_person
      from profile_stakes s join profiles p on p.reference = s.profile_reference
      where s.organisation_reference = ${reference} and s.is_active`);
    expect(ownership.profile_owners).toHaveLength(active.length);
    expect(ownership.profile_owners).toEqual(
      expect.arrayContaining(
        active.map((row) => ({
          reference: row.profile_reference,
          name: row.full_name,
          ownership_label: row.ownership_band,
          title_or_status: row.title_or_status,
          is_control_person: row.is_control_person,
        })),
      ),
    );
    const flags = ownership.profile_owners.map((owner) => owner.is_control_person);
    expect(flags).toEqual([...flags].sort((a, b) => Number(b) - Number(a)));
  });

  it('answers empty lists for an organisation nobody owns and that owns nothing', async () => {
    const [alone] = await rows<{ reference: string }>(sql`
      select o.reference from organisations o
      where not exists (select 1 from organisation_ownerships x where o.reference in (x.owner_reference, x.owned_reference))
        and not exists (select 1 from profile_stakes s where s.organisation_reference = o.reference and s.is_active)
      order by 1 limit 1`);
    const ownership = await ownershipOf(alone!.reference);
    expect(ownership).toMatchObject({ profile_owners: [], org_owners: [], subsidiaries: [] });
  });

  it('answers 404 for an unknown organisation and 422 for a malformed reference', async () => {
    const unknown = await app.getJson('/v1/organisations/6f1d3a52-0000-4000-8000-000000000000/ownership');
    expect(unknown.status).toBe(404);
    expect((await app.getJson('/v1/organisations/nope/ownership')).status).toBe(422);
  });

  it('is refused to a plan that does not cover ownership', async () => {
    const [any] = await rows<{ reference: string }>(
      sql`select owner_reference as reference from organisation_ownerships limit 1`,
    );
    const { status, body } = await app.getJson(
      `/v1/organisations/${any!.reference}/ownership`,
      app.tokens.starter,
    );
    expect(status).toBe(403);
    expect(body.status.messages[0]).toContain('ownership');
  });
});

describe('GET /v1/profiles/{profileReference}/ownership', () => {
  it('lists every stake, active first, then the latest start first', async () => {
    const [holder] = await rows<{ profile_reference: string }>(sql`
      select profile_reference from profile_stakes group by 1
      having count(*) filter (where is_active) >= 1 and count(*) filter (where not is_active) >= 1
      order by count(*) desc, 1 limit 1`);
    expect(holder).toBeDefined();
    const { status, body } = await app.getJson<Envelope<StakeItem[], null>>(
      `/v1/profiles/${holder!.profile_reference}/ownership`,
    );
    expect(status).toBe(200);
    expect(body.meta).toBeNull();
    const stakes = await rows<{
      organisation_reference: string;
      name: string;
      ownership_type: string;
      ownership_band: string;
      title_or_status: string | null;
      is_control_person: boolean;
      is_active: boolean;
      start_date: string | null;
      end_date: string | null;
    }>(sql`
      select s.organisation_reference, o.name, s.ownership_type, s.ownership_band, s.title_or_status, s.is_control_person,
             s.is_active, s.start_date::text, s.end_date::text
      from profile_stakes s join organisations o on o.reference = s.organisation_reference
      where s.profile_reference = ${holder!.profile_reference}`);
    expect(body.success).toHaveLength(stakes.length);
    expect(body.success).toEqual(
      expect.arrayContaining(
        stakes.map((row) => ({
          organisation: { reference: row.organisation_reference, name: row.name },
          ownershipType: row.ownership_type,
          ownershipPercentage: row.ownership_band,
          titleOrStatus: row.title_or_status,
          isControlPerson: row.is_control_person,
          isActive: row.is_active,
          startDate: row.start_date,
          endDate: row.end_date,
        })),
      ),
    );
    const active = body.success.map((item) => item.isActive);
    expect(active).toEqual([...active].sort((a, b) => Number(b) - Number(a)));
    for (const group of [true, false]) {
      const starts = body.success
        .filter((item) => item.isActive === group && item.startDate)
        .map((item) => item.startDate!);
      expect(starts).toEqual([...starts].sort().reverse());
    }
    expect(body.success.every((item) => !/^\d+(\.\d+)?$/.test(item.ownershipPercentage))).toBe(true);
  });

  it('answers 200 with an empty array for an unknown reference or a person without stakes', async () => {
    const unknown = await app.getJson<Envelope<StakeItem[], null>>(
      '/v1/profiles/6f1d3a52-0000-4000-8000-000000000000/ownership',
    );
    expect(unknown.status).toBe(200);
    expect(unknown.body.success).toEqual([]);
    expect(unknown.body.meta).toBeNull();
    const [none] = await rows<{ reference: string }>(sql`
      select p.reference from profiles p where not exists (select 1 from profile_stakes s where s.profile_reference = p.reference) limit 1`);
    expect((await app.getJson(`/v1/profiles/${none!.reference}/ownership`)).body.success).toEqual([]);
  });

  it('answers 422 for a malformed reference and 403 to a plan without ownership', async () => {
    const malformed = await app.getJson('/v1/profiles/jane-doe/ownership');
    expect(malformed.status).toBe(422);
    expect(malformed.body.status.messages[0]).toContain('profileReference');
    const forbidden = await app.getJson(
      '/v1/profiles/6f1d3a52-0000-4000-8000-000000000000/ownership',
      app.tokens.starter,
    );
    expect(forbidden.status).toBe(403);
  });
});
