import postgres from 'postgres';

/** Real values taken from the benchmark database, rotated through request by request. */
export interface Samples {
  organisations: { reference: string; name: string }[];
  /** 3 to 6 character pieces of real organisation names. */
  nameFragments: string[];
  /** Filter combinations read off real organisations with recorded activity, so that most match something. */
  filterCombinations: { country: string; status: string; industry: string; minConfidence: number }[];
  profiles: string[];
  /** People who are the subject or the speaker of at least one statement. */
  profilesWithArticles: string[];
  /** People holding at least one recorded stake. */
  profilesWithStakes: string[];
  /** 3 to 6 character pieces of organisation and occupation names. */
  suggestionQueries: string[];
  /** Publication instants of real events: upper bounds for event pages. */
  eventInstants: string[];
  /** The most frequent normalised title among moves: the third chip of the saved search. */
  commonOccupation: { reference: string; name: string };
}

/** A small deterministic generator (mulberry32), so two runs sample the same fragments. */
function randomFrom(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A 3 to 6 character piece of `text` that is not mostly blank; null when the text is too short. */
function fragmentOf(text: string, random: () => number): string | null {
  for (let attempt = 0; attempt < 10; attempt += 1) {
    const length = 3 + Math.floor(random() * 4);
    if (text.length < length) return text.trim().length >= 3 ? text.trim() : null;
    const start = Math.floor(random() * (text.length - length + 1));
    const piece = text.slice(start, start + length);
    if (piece.trim().length >= 3) return piece;
  }
  return null;
}

/**
 * Samples the references and texts the scenarios rotate through. The order is a hash of the reference,
 * so a given dataset always yields the same samples.
 */
export async function sampleDatabase(databaseUrl: string, size = 1000): Promise<Samples> {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  const random = randomFrom(20_240_501);
  try {
    const organisations = await sql<{ reference: string; name: string }[]>`
      select reference, name from organisations order by md5(reference::text) limit ${size}`;
    const filters = await sql<{ country: string; status: string; industry: string; confidence: number }[]>`
      select ad.country, o.status::text as status, oi.industry_code as industry, o.confidence
      from organisations o
      join organisation_addresses ad on ad.organisation_reference = o.reference and ad.kind = 'company'
      join organisation_industries oi on oi.organisation_reference = o.reference and oi.is_primary
      where ad.country is not null and not o.is_fund and o.confidence >= 10
        and exists (select 1 from organisation_activity a where a.organisation_reference = o.reference)
      order by md5(o.reference::text) limit ${Math.ceil(size / 5)}`;
    const profiles = await sql<{ reference: string }[]>`
      select reference from profiles order by md5(reference::text) limit ${size}`;
    const withArticles = await sql<{ reference: string }[]>`
      select reference from profiles p
      where exists (select 1 from annotations a where a.subject_profile_reference = p.reference)
      order by md5(reference::text) limit ${Math.ceil(size / 2)}`;
    const withStakes = await sql<{ reference: string }[]>`
      select reference from (select distinct profile_reference as reference from profile_stakes) s
      order by md5(reference::text) limit ${Math.ceil(size / 2)}`;
    const occupations = await sql<{ name: string }[]>`select name from occupations order by name`;
    const instants = await sql<{ at: string }[]>`
      select to_char(publish_date at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as at
      from events order by md5(reference::text) limit ${Math.ceil(size / 2)}`;
    const [common] = await sql<{ reference: string; name: string }[]>`
      select o.reference, o.name from occupations o
      join events e on e.occupation_reference = o.reference and e.type = 'move'
      group by o.reference, o.name order by count(*) desc, o.reference limit 1`;
    if (organisations.length === 0 || !common) throw new Error(`${databaseUrl} holds no dataset to sample`);

    const nameFragments = organisations.flatMap((row) => fragmentOf(row.name, random) ?? []);
    const occupationFragments = occupations.flatMap((row) => fragmentOf(row.name, random) ?? []);
    const suggestionQueries = nameFragments
      .slice(0, 400)
      .flatMap((fragment, index) => [fragment, occupationFragments[index % occupationFragments.length]!]);
    const confidenceSteps = [5, 10, 20, 40];
    return {
      organisations: [...organisations],
      nameFragments,
      filterCombinations: filters.map((row) => ({
        country: row.country,
        status: row.status,
        // The industry group (4 digits): it matches the organisation's own code and its neighbours.
        industry: row.industry.slice(0, 4),
        minConfidence: confidenceSteps.filter((step) => step <= row.confidence).at(-1) ?? 5,
      })),
      profiles: profiles.map((row) => row.reference),
      profilesWithArticles: withArticles.map((row) => row.reference),
      profilesWithStakes: withStakes.map((row) => row.reference),
      suggestionQueries,
      eventInstants: instants.map((row) => row.at),
      commonOccupation: common,
    };
  } finally {
    await sql.end();
  }
}
