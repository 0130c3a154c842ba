// The resolver's quality and speed (issue 48): `npm run bench -- --resolve [--scale 100] [--seeds 1,2,3]
// [--size 2000] [--rounds 20]`. Quality: labelled sets made from the dataset (bench/resolve-set.ts), one per seed,
// answered by the domain's matcher; the first seed is the one the thresholds were fitted on, the others check them.
// Speed: calls of 1,000 and 100 rows through the whole app in this process (REST, no port).
import { mkdir, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import postgres from 'postgres';
import type { Random } from '../seeds/random.ts';
import { loadPlans } from '../src/auth/plans.ts';
import { createToken } from '../src/auth/tokens.ts';
import { databaseOver, queryRows } from '../src/db/database.ts';
import { parseJson } from '../src/db/json-rows.ts';
import { matchThreshold, resolveOrganisations, resolveProfiles } from '../src/domain/resolve/index.ts';
import { organisationKey } from '../src/domain/resolve/normalise.ts';
import type { OrganisationInput, ProfileInput, ResolveRow } from '../src/domain/resolve/types.ts';
import { benchPlansFile, databaseUrlFor, ensureDataset } from './dataset.ts';
import { defaultDatabaseUrl } from './options.ts';
import {
  type Labelled,
  labelledSet,
  missingOrganisationInput,
  missingProfileInput,
  type OrganisationSample,
  organisationInput,
  type ProfileSample,
  profileInput,
} from './resolve-set.ts';
import { nearPersonNames, organisationTwins, profileTwins } from './resolve-twins.ts';
import { unusedStem } from './results-file.ts';
import { openInProcessApp } from './statements.ts';

const sortedKey = (key: string) => key.split(' ').sort().join(' ');

interface Quality {
  seed: number;
  inputs: number;
  withRecord: number;
  matched: number;
  matchedRight: number;
  precision: number;
  recall: number;
  noRecordAnsweredNone: number;
  /** Inputs another record fits as well as theirs (bench/resolve-twins.ts): left out of recall, answered apart. */
  twins: number;
  /** Of those, the share not `matched` (ambiguous or none), which is the right answer. */
  twinsNotMatched: number;
  /** Rows whose best candidate scored at least s: how many, and the share whose best candidate is right. */
  calibration: { atLeast: number; rows: number; right: number }[];
  /** By score band of the best candidate: rows and share right. */
  bands: { from: number; to: number; rows: number; right: number }[];
  /** Recall by perturbation (rows with a record). */
  byPerturbation: Map<string, { rows: number; matchedRight: number; wrong: number }>;
  /** The least threshold at which `matched` would be right 99 % of the time on this set. */
  fittedThreshold: number | null;
}

const thresholds = [0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99];
const bandEdges = [0, 0.2, 0.5, 0.7, 0.8, 0.9, 0.95, 0.99, 1.0001];

function measureQuality<Input>(
  seed: number,
  set: Labelled<Input>[],
  rows: ResolveRow[],
  twin: boolean[],
): Quality {
  let twins = 0;
  let twinsNotMatched = 0;
  let matched = 0;
  let matchedRight = 0;
  let noRecord = 0;
  let noRecordNone = 0;
  const byPerturbation = new Map<string, { rows: number; matchedRight: number; wrong: number }>();
  const scored: { score: number; right: boolean }[] = [];
  set.forEach((item, index) => {
    const row = rows[index]!;
    const top = row.candidates[0];
    const right = top !== undefined && top.reference === item.expected;
    if (top) scored.push({ score: top.score, right });
    if (row.status === 'matched') {
      matched += 1;
      if (right) matchedRight += 1;
    }
    if (item.expected === null) {
      noRecord += 1;
      if (row.status !== 'matched') noRecordNone += 1;
    } else if (twin[index]) {
      twins += 1;
      if (row.status !== 'matched') twinsNotMatched += 1;
    }
    const perturbation = twin[index] ? `${item.perturbation}, another record fits` : item.perturbation;
    const entry = byPerturbation.get(perturbation) ?? { rows: 0, matchedRight: 0, wrong: 0 };
    entry.rows += 1;
    if (row.status === 'matched' && right) entry.matchedRight += 1;
    if (row.status === 'matched' && !right) entry.wrong += 1;
    byPerturbation.set(perturbation, entry);
  });
  const withRecord = set.length - noRecord;
  // Recall counts the inputs with one record that fits them best; a twin matched to the right record was a guess.
  const matchedRightUnique = set.filter(
    (item, index) =>
      item.expected !== null &&
      !twin[index] &&
      rows[index]!.status === 'matched' &&
      rows[index]!.candidates[0]?.reference === item.expected,
  ).length;
  const sortedScores = [...scored].sort((a, b) => b.score - a.score);
  let fittedThreshold: number | null = null;
  let right = 0;
  sortedScores.forEach((entry, index) => {
    if (entry.right) right += 1;
    const next = sortedScores[index + 1];
    if ((!next || next.score < entry.score) && right / (index + 1) >= 0.99) fittedThreshold = entry.score;
  });
  return {
    seed,
    inputs: set.length,
    withRecord,
    matched,
    matchedRight,
    precision: matched === 0 ? 1 : matchedRight / matched,
    recall: withRecord - twins === 0 ? 1 : matchedRightUnique / (withRecord - twins),
    twins,
    twinsNotMatched: twins === 0 ? 1 : twinsNotMatched / twins,
    noRecordAnsweredNone: noRecord === 0 ? 1 : noRecordNone / noRecord,
    calibration: thresholds.map((atLeast) => {
      const above = scored.filter((entry) => entry.score >= atLeast);
      return { atLeast, rows: above.length, right: above.filter((entry) => entry.right).length };
    }),
    bands: bandEdges.slice(0, -1).map((from, index) => {
      const to = bandEdges[index + 1]!;
      const inBand = scored.filter((entry) => entry.score >= from && entry.score < to);
      return {
        from,
        to: Math.min(to, 1),
        rows: inBand.length,
        right: inBand.filter((entry) => entry.right).length,
      };
    }),
    byPerturbation,
    fittedThreshold,
  };
}

async function sampleOrganisations(db: Parameters<typeof queryRows>[0], seed: number, size: number) {
  const rows = await queryRows<{
    reference: string;
    name: string;
    country: string | null;
    city: string | null;
    domains: unknown;
    tickers: unknown;
    aliases: unknown;
  }>(
    db,
    sql`select o.reference::text, o.name, ad.country, ad.city,
        (select json_agg(d.domain order by d.domain) from organisation_domains d
          where d.organisation_reference = o.reference) as domains,
        (select json_agg(json_build_object('value', t.value, 'exchangeCode', t.exchange_code) order by t.value)
          from organisation_tickers t where t.organisation_reference = o.reference) as tickers,
        (select json_agg(json_build_object('name', a.name, 'former', a.end_date < current_date) order by a.name)
          from organisation_aliases a where a.organisation_reference = o.reference) as aliases
      from organisations o
      left join organisation_addresses ad on ad.organisation_reference = o.reference and ad.kind = 'company'
      order by md5(o.reference::text || ${String(seed)}) limit ${size}`,
  );
  return rows.map(
    (row): OrganisationSample => ({
      reference: row.reference,
      name: row.name,
      country: row.country,
      city: row.city,
      domains: (parseJson(row.domains) as string[] | null) ?? [],
      tickers: (parseJson(row.tickers) as OrganisationSample['tickers'] | null) ?? [],
      aliases: ((parseJson(row.aliases) as { name: string; former: boolean | null }[] | null) ?? []).map(
        (a) => ({
          name: a.name,
          former: a.former === true,
        }),
      ),
    }),
  );
}

async function sampleProfiles(db: Parameters<typeof queryRows>[0], seed: number, size: number) {
  const rows = await queryRows<ProfileSample & { emails: unknown }>(
    db,
    sql`select p.reference::text, p.first_name as "firstName", p.last_name as "lastName", p.full_name as "fullName",
        p.linkedin_url as "linkedinUrl",
        (select json_agg(m.value order by m.value) from profile_emails m where m.profile_reference = p.reference)
          as emails,
        (select o.name from experiences x join organisations o on o.reference = x.organisation_reference
          where x.profile_reference = p.reference and x.end_date is null order by x.start_date desc nulls last
          limit 1) as organisation,
        (select x.occupation_title from experiences x where x.profile_reference = p.reference and x.end_date is null
          order by x.start_date desc nulls last limit 1) as title
      from profiles p order by md5(p.reference::text || ${String(seed)}) limit ${size}`,
  );
  return rows.map((row) => ({ ...row, emails: (parseJson(row.emails) as string[] | null) ?? [] }));
}

async function inBatches<Input>(
  inputs: Input[],
  resolve: (batch: Input[]) => Promise<ResolveRow[]>,
): Promise<ResolveRow[]> {
  const rows: ResolveRow[] = [];
  for (let start = 0; start < inputs.length; start += 1000)
    rows.push(...(await resolve(inputs.slice(start, start + 1000))));
  return rows;
}

const percent = (value: number) => `${(value * 100).toFixed(1)} %`;
const share = (right: number, rows: number) => (rows === 0 ? '–' : (right / rows).toFixed(3));

function qualityTable(kind: string, qualities: Quality[]): string {
  const lines = [
    `### ${kind}`,
    '',
    `| seed | inputs | with a record | of which another record fits as well | matched | precision of matched | recall | no record → none/ambiguous | another fits → not matched | threshold fitted (99 %) |`,
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...qualities.map(
      (q) =>
        `| ${q.seed} | ${q.inputs} | ${q.withRecord} | ${q.twins} | ${q.matched} | ${q.precision.toFixed(4)} | ${q.recall.toFixed(4)} | ${q.noRecordAnsweredNone.toFixed(4)} | ${q.twinsNotMatched.toFixed(4)} | ${q.fittedThreshold?.toFixed(3) ?? '–'} |`,
    ),
    '',
    'Recall is over the inputs with a record that no other record fits as well (bench/resolve-twins.ts); the others are',
    'answered right when not `matched`.',
    '',
    'Calibration: of the rows whose best candidate scored at least s, the share whose best candidate is right.',
    '',
    `| s | ${qualities.map((q) => `seed ${q.seed} rows | right`).join(' | ')} |`,
    `| ---: | ${qualities.map(() => '---: | ---:').join(' | ')} |`,
    ...thresholds.map(
      (s, index) =>
        `| ${s} | ${qualities.map((q) => `${q.calibration[index]!.rows} | ${share(q.calibration[index]!.right, q.calibration[index]!.rows)}`).join(' | ')} |`,
    ),
    '',
    'By score band of the best candidate:',
    '',
    `| band | ${qualities.map((q) => `seed ${q.seed} rows | right`).join(' | ')} |`,
    `| --- | ${qualities.map(() => '---: | ---:').join(' | ')} |`,
    ...bandEdges
      .slice(0, -1)
      .map(
        (from, index) =>
          `| ${from.toFixed(2)}–${Math.min(bandEdges[index + 1]!, 1).toFixed(2)} | ${qualities.map((q) => `${q.bands[index]!.rows} | ${share(q.bands[index]!.right, q.bands[index]!.rows)}`).join(' | ')} |`,
      ),
    '',
    `By perturbation (seed ${qualities[0]!.seed}): rows, matched right, matched wrong.`,
    '',
    '| perturbation | rows | matched right | matched wrong |',
    '| --- | ---: | ---: | ---: |',
    ...[...qualities[0]!.byPerturbation.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(
        ([name, entry]) =>
          `| ${name} | ${entry.rows} | ${percent(entry.matchedRight / entry.rows)} | ${entry.wrong} |`,
      ),
    '',
  ];
  return lines.join('\n');
}

/** The rows a set got wrong, one JSON line each: the input, the record it is, the answer. */
async function writeMisses<Input>(
  directory: string,
  name: string,
  set: Labelled<Input>[],
  rows: ResolveRow[],
): Promise<void> {
  const lines = set.flatMap((item, index) => {
    const row = rows[index]!;
    const right = row.status === 'matched' && row.candidates[0]?.reference === item.expected;
    const fine = item.expected === null ? row.status !== 'matched' : right;
    return fine ? [] : [JSON.stringify({ ...item, status: row.status, candidates: row.candidates })];
  });
  await mkdir(directory, { recursive: true });
  await writeFile(join(directory, `${name}.ndjson`), lines.length > 0 ? `${lines.join('\n')}\n` : '');
}

/** One call of `POST /v1/resolve/organisations` (or `profiles`) through the app, timed to the last byte read. */
async function timedResolveCall(
  app: Awaited<ReturnType<typeof openInProcessApp>>,
  inputs: unknown[],
  kind: 'organisations' | 'profiles' = 'organisations',
): Promise<number> {
  const started = performance.now();
  const response = await app.fetch({
    method: 'POST',
    path: `/v1/resolve/${kind}`,
    body: JSON.stringify({ inputs }),
  });
  if (response.status !== 200)
    throw new Error(`resolve answered ${response.status}: ${await response.text()}`);
  await response.arrayBuffer();
  return performance.now() - started;
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

export async function runResolveBench(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      resolve: { type: 'boolean' },
      scale: { type: 'string', default: '100' },
      seeds: { type: 'string', default: '1,2,3' },
      size: { type: 'string', default: '2000' },
      rounds: { type: 'string', default: '20' },
      out: { type: 'string', default: 'bench/runs' },
      'skip-speed': { type: 'boolean', default: false },
      /**
       * `10,100`: only the speed of 100-row calls on two seeded scales, alternated call by call in this process, so
       * that both see the same load; a scale not yet seeded is refused, never seeded here.
       */
      growth: { type: 'string' },
      /** Write each seed's rows that are not right (a record missed or the wrong one matched) as NDJSON here. */
      misses: { type: 'string' },
    },
    strict: true,
  });
  if (values.growth)
    return runGrowth(values.growth.split(',').map(Number), Number(values.rounds), values.out);
  const scale = Number(values.scale);
  const seeds = values.seeds.split(',').map(Number);
  const size = Number(values.size);
  const rounds = Math.min(Math.max(Number(values.rounds), 1), 200);
  const dataset = await ensureDataset(process.env.DATABASE_URL || defaultDatabaseUrl, scale);
  console.log(`${dataset.databaseName}: ${dataset.organisations} organisations; seeds ${seeds.join(', ')}`);
  let token = '';
  const app = await openInProcessApp(dataset.databaseUrl, () => token);
  token = (
    await createToken(app.db, loadPlans(benchPlansFile), { plan: 'enterprise', label: 'bench resolve' })
  ).token;
  const report: string[] = [
    `# Resolve: quality and speed, scale ${scale}`,
    '',
    `${new Date().toISOString()}, \`npm run bench -- --resolve --scale ${scale} --seeds ${seeds.join(',')} --size ${size}\`, ` +
      `database ${dataset.databaseName} (${dataset.organisations} organisations), load average ${loadavg()[0]!.toFixed(1)}. ` +
      `Match threshold ${matchThreshold}; seed ${seeds[0]} is the one the weights and threshold were fitted on.`,
    '',
  ];
  // The whole-table reads of the labels go through a plain connection: the app's guarded pool takes a read that is
  // silent for seconds on a loaded machine for a lost server and replaces its connections under it.
  const plain = postgres(dataset.databaseUrl, { max: 1, onnotice: () => {} });
  const labels = databaseOver(plain);
  try {
    const names = await queryRows<{ name: string }>(
      labels,
      sql`select name from organisations union all select name from organisation_aliases`,
    );
    const takenOrganisation = new Set(names.map((row) => sortedKey(organisationKey(row.name))));
    const people = await queryRows<{ name: string }>(labels, sql`select full_name as name from profiles`);
    // A made-up name one typo from a real person's is drawn again, as an exact one is (bench/NOTES.md 69).
    const nearPerson = nearPersonNames(people.map((row) => row.name));
    const organisationTwinsOf = await organisationTwins(labels);
    const profileTwinsOf = await profileTwins(labels);

    const organisationQualities: Quality[] = [];
    const profileQualities: Quality[] = [];
    for (const seed of seeds) {
      const samples = await sampleOrganisations(app.db, seed, size);
      const set = labelledSet<OrganisationSample, OrganisationInput>(
        seed,
        samples,
        size,
        0.2,
        organisationInput,
        (random: Random) =>
          missingOrganisationInput(random, samples, (name) =>
            takenOrganisation.has(sortedKey(organisationKey(name))),
          ),
      );
      const rows = await inBatches(
        set.map((item) => item.input),
        (batch) => resolveOrganisations(app.db, batch),
      );
      organisationQualities.push(measureQuality(seed, set, rows, await organisationTwinsOf.of(set)));
      if (values.misses) await writeMisses(values.misses, `organisations-${seed}`, set, rows);
      const profileSamples = await sampleProfiles(app.db, seed, size);
      const profileSet = labelledSet<ProfileSample, ProfileInput>(
        seed,
        profileSamples,
        size,
        0.2,
        profileInput,
        (random: Random) => missingProfileInput(random, profileSamples, nearPerson),
      );
      const profileRows = await inBatches(
        profileSet.map((item) => item.input),
        (batch) => resolveProfiles(app.db, batch),
      );
      profileQualities.push(
        measureQuality(seed, profileSet, profileRows, await profileTwinsOf.of(profileSet)),
      );
      if (values.misses) await writeMisses(values.misses, `profiles-${seed}`, profileSet, profileRows);
      const q = organisationQualities.at(-1)!;
      const p = profileQualities.at(-1)!;
      console.log(
        `seed ${seed}: organisations precision ${q.precision.toFixed(4)} recall ${q.recall.toFixed(4)} no-record ${q.noRecordAnsweredNone.toFixed(4)} twins ${q.twins} not matched ${q.twinsNotMatched.toFixed(4)} fitted ${q.fittedThreshold}; ` +
          `people precision ${p.precision.toFixed(4)} recall ${p.recall.toFixed(4)} no-record ${p.noRecordAnsweredNone.toFixed(4)} twins ${p.twins} not matched ${p.twinsNotMatched.toFixed(4)} fitted ${p.fittedThreshold}`,
      );
    }
    report.push(
      '## Quality',
      '',
      qualityTable('Organisations', organisationQualities),
      qualityTable('People', profileQualities),
    );

    // Speed: the first seed's inputs, sent as the REST body, rotating through the set.
    if (values['skip-speed']) return;
    const samples = await sampleOrganisations(app.db, seeds[0]!, size);
    const set = labelledSet<OrganisationSample, OrganisationInput>(
      seeds[0]!,
      samples,
      Math.max(size, 1000),
      0.2,
      organisationInput,
      (random) =>
        missingOrganisationInput(random, samples, (name) =>
          takenOrganisation.has(sortedKey(organisationKey(name))),
        ),
    );
    const call = async (count: number, offset: number) => {
      const inputs = Array.from({ length: count }, (_, index) => set[(offset + index) % set.length]!.input);
      return timedResolveCall(app, inputs);
    };
    await call(100, 0);
    await call(1000, 0);
    const large: number[] = [];
    for (let round = 0; round < Math.max(3, Math.round(rounds / 4)); round += 1)
      large.push(await call(1000, round * 997));
    const small: number[] = [];
    for (let round = 0; round < rounds * 5; round += 1) small.push(await call(100, round * 101));
    small.sort((a, b) => a - b);
    const rowsPerSecond = (1000 * large.length) / (large.reduce((sum, ms) => sum + ms, 0) / 1000);
    report.push(
      '## Speed',
      '',
      `Through the whole app in one process (\`app.fetch\`, REST, no port), one call at a time, load average ${loadavg()[0]!.toFixed(1)}.`,
      '',
      '| measure | value |',
      '| --- | ---: |',
      `| rows/s, ${large.length} calls of 1,000 rows | ${rowsPerSecond.toFixed(0)} |`,
      `| 100-row call, p50 (${small.length} calls) | ${quantile(small, 0.5).toFixed(1)} ms |`,
      `| 100-row call, p99 | ${quantile(small, 0.99).toFixed(1)} ms |`,
      '',
    );
    console.log(report.slice(-4).join('\n'));
  } finally {
    await app.close();
    await plain.end();
    await mkdir(values.out, { recursive: true });
    const stem = await unusedStem(
      values.out,
      `${new Date().toISOString().slice(0, 10)}-resolve-scale${scale}`,
      ['.md'],
    );
    const file = join(values.out, `${stem}.md`);
    await writeFile(file, `${report.join('\n')}\n`);
    console.log(`wrote ${file}`);
  }
}

/** A seeded bench database's URL and size; throws when the scale was never seeded, rather than seeding it. */
async function seededDataset(scale: number): Promise<{ url: string; organisations: number }> {
  const url = databaseUrlFor(process.env.DATABASE_URL || defaultDatabaseUrl, scale);
  const client = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const [row] = await client<
      { organisations: number }[]
    >`select organisations from bench_dataset where scale = ${scale}`;
    if (!row) throw new Error(`scale ${scale} is not seeded (${url}); run the bench at that scale first`);
    return { url, organisations: row.organisations };
  } finally {
    await client.end();
  }
}

/** A person's input as the REST body spells it. */
function profileWireInput(input: ProfileInput): Record<string, string> {
  const wire = {
    name: input.name,
    first_name: input.firstName,
    last_name: input.lastName,
    linkedin_url: input.linkedinUrl,
    email: input.email,
    organisation: input.organisation,
    title: input.title,
  };
  return Object.fromEntries(
    Object.entries(wire).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
}

/**
 * The p50 of a 100-row call at each scale, for organisations and for people, the calls alternated between the scales
 * (and the kinds) so that the machine's load falls on all alike; each scale's inputs are seed 1's labelled sets drawn
 * from its own records.
 */
async function runGrowth(scales: number[], rounds: number, out: string): Promise<void> {
  const kinds = ['organisations', 'profiles'] as const;
  const sides: {
    scale: number;
    organisations: number;
    app: Awaited<ReturnType<typeof openInProcessApp>>;
    sets: Record<(typeof kinds)[number], Labelled<unknown>[]>;
    times: Record<(typeof kinds)[number], number[]>;
  }[] = [];
  for (const scale of scales) {
    const dataset = await seededDataset(scale);
    let token = '';
    const app = await openInProcessApp(dataset.url, () => token);
    token = (
      await createToken(app.db, loadPlans(benchPlansFile), { plan: 'enterprise', label: 'bench resolve' })
    ).token;
    const samples = await sampleOrganisations(app.db, 1, 2000);
    const organisations = labelledSet<OrganisationSample, OrganisationInput>(
      1,
      samples,
      2000,
      0.2,
      organisationInput,
      (random) => missingOrganisationInput(random, samples, () => false),
    );
    const profileSamples = await sampleProfiles(app.db, 1, 2000);
    const profiles = labelledSet<ProfileSample, ProfileInput>(
      1,
      profileSamples,
      2000,
      0.2,
      profileInput,
      (random) => missingProfileInput(random, profileSamples, () => false),
    );
    sides.push({
      scale,
      organisations: dataset.organisations,
      app,
      sets: {
        organisations: organisations as Labelled<unknown>[],
        profiles: profiles.map((item) => ({ ...item, input: profileWireInput(item.input) })),
      },
      times: { organisations: [] as number[], profiles: [] as number[] },
    });
  }
  try {
    const count = Math.min(Math.max(rounds, 1), 200) * 5;
    for (let round = -1; round < count; round += 1) {
      for (const kind of kinds) {
        for (const side of sides) {
          const set = side.sets[kind];
          const inputs = Array.from(
            { length: 100 },
            (_, index) => set[(Math.max(round, 0) * 101 + index) % set.length]!.input,
          );
          const elapsed = await timedResolveCall(side.app, inputs, kind);
          // The first round warms each side's caches and is not counted.
          if (round >= 0) side.times[kind].push(elapsed);
        }
      }
    }
  } finally {
    for (const side of sides) await side.app.close();
  }
  const sorted = (times: number[]) => [...times].sort((a, b) => a - b);
  const lines = [
    `# Resolve: a 100-row call at scales ${scales.join(' and ')}`,
    '',
    `${new Date().toISOString()}, \`npm run bench -- --resolve --growth ${scales.join(',')} --rounds ${rounds}\`, calls alternated between the scales and kinds, load average ${loadavg()[0]!.toFixed(1)}.`,
    '',
    '| kind | scale | organisations | calls | p50 | p99 |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
    ...kinds.flatMap((kind) =>
      sides.map(
        (side) =>
          `| ${kind} | ${side.scale} | ${side.organisations} | ${side.times[kind].length} | ${quantile(sorted(side.times[kind]), 0.5).toFixed(1)} ms | ${quantile(sorted(side.times[kind]), 0.99).toFixed(1)} ms |`,
      ),
    ),
    '',
    ...kinds.map((kind) => {
      const p50 = sides.map((side) => quantile(sorted(side.times[kind]), 0.5));
      return `${kind}: p50 at scale ${scales.at(-1)} over scale ${scales[0]}: ${(p50.at(-1)! / p50[0]!).toFixed(2)}×`;
    }),
    '',
  ];
  console.log(lines.join('\n'));
  await mkdir(out, { recursive: true });
  const stem = await unusedStem(out, `${new Date().toISOString().slice(0, 10)}-resolve-growth`, ['.md']);
  await writeFile(join(out, `${stem}.md`), `${lines.join('\n')}\n`);
}
