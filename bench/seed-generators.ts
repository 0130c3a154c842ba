import { addStoryArticles } from '../seeds/articles.ts';
import { RowBatch } from '../seeds/bulk-load.ts';
import { addDeal, addFunding, addMoves } from '../seeds/events.ts';
import { organisationIdentity } from '../seeds/organisations.ts';
import { addOrganisationOwnerships } from '../seeds/ownership.ts';
import { addProfile } from '../seeds/people.ts';
import { createWorld, type SeedCounts, type World } from '../seeds/world.ts';

/**
 * What the seed's generators cost per item in a world of a given scale, without a database:
 * `npx tsx bench/seed-generators.ts <scale> [items, default 200000] [rounds, default 2]`. It first computes every
 * organisation's identity, as the seed's first phase does (so the lookups that follow find what the seed would have
 * kept), then times each generator over `items` items spread evenly over all of its kind, round after round. Run it at two
 * scales: a generator whose time per item grows with the scale makes the seed grow faster than its rows.
 */
const scale = Number(process.argv[2]);
const items = Number(process.argv[3] ?? '200000');
const rounds = Number(process.argv[4] ?? '2');
if (!Number.isFinite(scale) || scale <= 0 || !(items > 0) || !(rounds > 0)) {
  console.error('usage: npx tsx bench/seed-generators.ts <scale> [items] [rounds]');
  process.exit(2);
}

type Generator = [
  name: string,
  count: keyof SeedCounts,
  add: (world: World, index: number, batch: RowBatch) => void,
];
const generators: Generator[] = [
  ['profiles', 'profiles', addProfile],
  ['moves', 'profiles', addMoves],
  ['fundings', 'fundings', addFunding],
  ['deals', 'deals', addDeal],
  ['articles', 'stories', addStoryArticles],
  ['ownerships', 'organisationOwnerships', addOrganisationOwnerships],
];

const world = createWorld(scale, new Date('2026-01-01T00:00:00Z'));
const seconds = (since: number) => ((performance.now() - since) / 1000).toFixed(2);
let started = performance.now();
for (let index = 0; index < world.counts.organisations; index += 1) organisationIdentity(world, index);
console.log(`scale ${scale}: ${world.counts.organisations} organisation identities in ${seconds(started)} s`);

for (let round = 1; round <= rounds; round += 1) {
  for (const [name, count, add] of generators) {
    const total = world.counts[count];
    const n = Math.min(items, total);
    const stride = total / n;
    started = performance.now();
    let batch = new RowBatch();
    for (let k = 0; k < n; k += 1) {
      add(world, Math.floor(k * stride), batch);
      if ((k & 1023) === 1023) batch = new RowBatch();
    }
    const perItem = ((performance.now() - started) * 1000) / n;
    console.log(
      `scale ${scale}, round ${round}: ${name} ${n} in ${seconds(started)} s, ${perItem.toFixed(1)} µs each`,
    );
  }
}
