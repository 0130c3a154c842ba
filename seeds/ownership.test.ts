import { describe, expect, it } from 'vitest';
import { ownerRelationships } from '../src/domain/vocabulary/ownership.ts';
import { RowBatch } from './bulk-load.ts';
import { organisationIdentity } from './organisations.ts';
import {
  addProfileStake,
  type GeneratedOwnership,
  ownershipLabels,
  ownershipsOf,
  stakeBands,
} from './ownership.ts';
import { createWorld } from './world.ts';

const world = createWorld(1, new Date('2025-06-15'));
const links: GeneratedOwnership[] = [];
for (let i = 0; i < world.counts.organisationOwnerships; i += 1) links.push(...ownershipsOf(world, i));

describe('organisation ownership', () => {
  it('never makes an organisation own itself', () => {
    expect(links.filter((link) => link.ownerReference === link.ownedReference)).toEqual([]);
  });

  it('never repeats an owner and owned pair', () => {
    const pairs = new Set(links.map((link) => `${link.ownerReference}>${link.ownedReference}`));
    expect(pairs.size).toBe(links.length);
  });

  it('uses every relationship, and labels that agree with it', () => {
    expect(new Set(links.map((link) => link.relationship))).toEqual(new Set(ownerRelationships));
    for (const link of links) {
      if (link.relationship === 'parent') {
        expect([ownershipLabels.whollyOwned, ownershipLabels.majority]).toContain(link.ownershipLabel);
        expect(link.isControllingInterest).toBe(true);
      }
      if (link.relationship === 'minority_owner' || link.relationship === 'affiliate') {
        expect(link.isControllingInterest).toBe(false);
        expect(link.ownershipLabel).not.toBe(ownershipLabels.whollyOwned);
      }
    }
  });

  it('gives a joint venture two partners, at most one of them controlling', () => {
    const ventures = new Map<string, GeneratedOwnership[]>();
    for (const link of links.filter((l) => l.relationship === 'joint_venture_partner')) {
      ventures.set(link.ownedReference, [...(ventures.get(link.ownedReference) ?? []), link]);
    }
    expect(ventures.size).toBeGreaterThan(0);
    for (const partners of ventures.values()) {
      expect(partners.filter((p) => p.isControllingInterest).length).toBeLessThanOrEqual(1);
    }
    expect([...ventures.values()].some((partners) => partners.length === 2)).toBe(true);
  });

  it('has organisations that both own and are owned', () => {
    const owners = new Set(links.map((link) => link.ownerReference));
    const owned = new Set(links.map((link) => link.ownedReference));
    expect([...owners].filter((reference) => owned.has(reference)).length).toBeGreaterThan(10);
  });

  it('takes owners from the holding companies and funds', () => {
    const ownerIndexes = new Map<string, boolean>();
    for (let i = 0; i < world.counts.organisations; i += 1) {
      const identity = organisationIdentity(world, i);
      ownerIndexes.set(identity.reference, identity.isOwner);
    }
    expect(links.every((link) => ownerIndexes.get(link.ownerReference) === true)).toBe(true);
  });
});

describe('profile stakes', () => {
  it('covers every band, active and ended stakes, and control persons', () => {
    const batch = new RowBatch();
    for (let i = 0; i < 500; i += 1) addProfileStake(world, i, batch);
    const [chunk] = [...batch.chunks()];
    const rows = chunk!.text
      .trimEnd()
      .split('\n')
      .map((line) => line.split('\t'));
    const column = (name: string) => chunk!.columns.indexOf(name);
    expect(new Set(rows.map((row) => row[column('ownership_band')]))).toEqual(
      new Set(stakeBands.map(([band]) => band)),
    );
    const inactive = rows.filter((row) => row[column('is_active')] === 'f');
    expect(inactive.length).toBeGreaterThan(0);
    expect(inactive.every((row) => row[column('end_date')] !== '\\N')).toBe(true);
    const active = rows.filter((row) => row[column('is_active')] === 't');
    expect(active.every((row) => row[column('end_date')] === '\\N')).toBe(true);
    for (const row of inactive) {
      const start = row[column('start_date')];
      if (start !== '\\N') expect(start! < row[column('end_date')]!).toBe(true);
    }
    expect(new Set(rows.map((row) => row[column('is_control_person')]))).toEqual(new Set(['t', 'f']));
    expect(rows.some((row) => row[column('title_or_status')] === '\\N')).toBe(true);
  });
});
