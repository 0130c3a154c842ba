import { describe, expect, it } from 'vitest';
import { addStoryArticles } from './articles.ts';
import { RowBatch } from './bulk-load.ts';
import { addClientSummaryEvents, addDeal, addFunding, addMoves, addPublicOffering } from './events.ts';
import { addOrganisation, type OrganisationStore } from './organisations.ts';
import { addOrganisationOwnerships, addProfileStake } from './ownership.ts';
import { addProfile } from './people.ts';
import { createWorld, PackedStrings, type World } from './world.ts';

type Add = (world: World, index: number, batch: RowBatch) => void;

const generators: [string, Add][] = [
  ['organisations', addOrganisation],
  ['profiles', addProfile],
  ['moves', addMoves],
  ['client summary events', addClientSummaryEvents],
  ['fundings', addFunding],
  ['deals', addDeal],
  ['public offerings', addPublicOffering],
  ['organisation ownerships', addOrganisationOwnerships],
  ['profile stakes', addProfileStake],
  ['articles', addStoryArticles],
];

function render(world: World, add: Add, from: number, to: number): string {
  const batch = new RowBatch();
  for (let index = from; index < to; index += 1) add(world, index, batch);
  return [...batch.chunks()].map((chunk) => `${chunk.name}\n${chunk.text}`).join('\n');
}

const anchor = new Date('2025-06-15T08:30:00Z');

describe('determinism', () => {
  it.each(generators)('%s: the same scale and day give the same rows', (_, add) => {
    const first = render(createWorld(0.5, anchor), add, 0, 60);
    const second = render(createWorld(0.5, new Date('2025-06-15T21:00:00Z')), add, 0, 60);
    expect(first.length).toBeGreaterThan(0);
    expect(second).toBe(first);
  });

  it.each(generators)('%s: chunk boundaries do not change the rows', (_, add) => {
    const world = createWorld(0.5, anchor);
    const whole = render(world, add, 0, 40);
    const parts = [
      render(createWorld(0.5, anchor), add, 0, 13),
      render(createWorld(0.5, anchor), add, 13, 40),
    ];
    // Per table, the rows of the two chunks concatenated equal the rows of the whole range.
    const byTable = (text: string) => {
      const tables = new Map<string, string[]>();
      for (const block of text.split(/\n(?=[a-z_]+\n)/)) {
        const [name, ...lines] = block.split('\n');
        if (!name) continue;
        tables.set(name!, [...(tables.get(name!) ?? []), ...lines.filter((line) => line.length > 0)]);
      }
      return tables;
    };
    const combined = new Map<string, string[]>();
    for (const part of parts) {
      for (const [name, lines] of byTable(part))
        combined.set(name, [...(combined.get(name) ?? []), ...lines]);
    }
    expect(combined).toEqual(byTable(whole));
  });

  it.each(generators)('%s: identities read back from the packed memo give the same rows', (_, add) => {
    const world = createWorld(0.5, anchor);
    const computed = render(world, add, 0, 40);
    // Without the identity objects, every organisation is read back from its packed form.
    const store = world.memos.get('organisation') as OrganisationStore;
    store.forgetWhole();
    expect(store.packedCount()).toBeGreaterThan(0);
    expect(render(world, add, 0, 40)).toBe(computed);
  });

  it('changes the data on another day only in its dates', () => {
    const today = render(createWorld(0.5, anchor), addOrganisation, 0, 20);
    const tomorrow = render(createWorld(0.5, new Date('2025-06-16T08:30:00Z')), addOrganisation, 0, 20);
    const withoutDates = (text: string) => text.replace(/\d{4}-\d{2}-\d{2}(T[\d:.]+Z)?/g, 'DATE');
    expect(withoutDates(tomorrow)).toBe(withoutDates(today));
  });

  it('dates nothing after the anchor day, in the whole demo dataset', () => {
    const world = createWorld(1, anchor);
    const counts: Record<string, number> = {
      organisations: world.counts.organisations,
      profiles: world.counts.profiles,
      moves: world.counts.profiles,
      'client summary events': world.counts.organisations,
      fundings: world.counts.fundings,
      deals: world.counts.deals,
      'public offerings': world.counts.publicOfferings,
      'organisation ownerships': world.counts.organisationOwnerships,
      'profile stakes': world.counts.profileStakes,
      articles: world.counts.stories,
    };
    const limit = '2025-06-15T00:00:00.000Z';
    let latest = '';
    let checked = 0;
    for (const [name, add] of generators) {
      for (let start = 0; start < counts[name]!; start += 500) {
        const batch = new RowBatch();
        for (let index = start; index < Math.min(counts[name]!, start + 500); index += 1)
          add(world, index, batch);
        for (const chunk of batch.chunks()) {
          for (const match of chunk.text.matchAll(/\d{4}-\d{2}-\d{2}(T[\d:.]+Z)?/g)) {
            const value = match[1] ? match[0] : `${match[0]}T00:00:00.000Z`;
            if (value > latest) latest = `${value} in ${chunk.name}`;
            checked += 1;
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(30_000);
    expect(latest <= limit, latest).toBe(true);
  });

  it('rejects scales below 0.01', () => {
    expect(() => createWorld(0.001)).toThrow(/at least 0.01/);
    expect(() => createWorld(Number.NaN)).toThrow();
  });
});

describe('packed strings', () => {
  it("keep each key's strings, multi-byte ones too, across the buffer's growth", () => {
    const packed = new PackedStrings(3_000);
    const valuesOf = (key: number) => [
      `株式会社 ${key} — Ünïcode`,
      `d${key}.example`,
      key % 7 === 0 ? '' : 'ABC',
    ];
    for (let key = 0; key < 3_000; key += 2) packed.set(key, valuesOf(key));
    packed.set(2_999, ['x'.repeat(2 << 20), 'last']);
    for (let key = 0; key < 2_998; key += 2) expect(packed.get(key)).toEqual(valuesOf(key));
    expect(packed.get(1)).toBeUndefined();
    expect(packed.get(2_999)?.[1]).toBe('last');
    expect(packed.get(3_000)).toBeUndefined();
    packed.set(3_000, ['out of range']);
    expect(packed.get(3_000)).toBeUndefined();
  });
});
