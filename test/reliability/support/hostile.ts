import fc from 'fast-check';

/** Numbers a client might send where an integer belongs: huge, negative, fractional, exotic spellings. */
export const hostileNumber: fc.Arbitrary<string> = fc.oneof(
  fc.integer({ min: -5, max: 250 }).map(String),
  fc.constantFrom(
    '0',
    '-0',
    '-1',
    '2147483647',
    '2147483648',
    '9007199254740993',
    '99999999999999999999999',
    '1e3',
    '1e400',
    '-1e400',
    '1.5',
    '.5',
    '0x10',
    '0b1',
    '007',
    '+5',
    ' 5',
    '5 ',
    'NaN',
    'Infinity',
    '-Infinity',
    '１２',
    '٣',
    '1_000',
    '1,000',
    'true',
    'null',
    '[]',
  ),
  fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map(String),
  fc.double().map(String),
);

/** Text aimed at the parser, the database and the pattern matcher. */
export const hostileText: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.string({ unit: 'grapheme', maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.constantFrom(
    '',
    ' ',
    '   ',
    '\t\n',
    '\u0000',
    'a\u0000b',
    '%00',
    '%',
    '_',
    '\\',
    '%%',
    '_%_',
    '\\%',
    '\\\\',
    '100%',
    'a_b',
    "'",
    '"',
    "' OR '1'='1",
    "'; DROP TABLE organisations; --",
    '1; select pg_sleep(10)',
    '$1',
    '$'.concat('{name}'),
    '[a-z]*',
    '.*',
    '(?:',
    '<script>alert(1)</script>',
    '../../etc/passwd',
    '\u202e\u0645\u0631\u062d\u0628\u0627',
    'Z\u0351\u0358\u0353a\u0352\u0329l\u0347\u0355go',
    '\ud83d\ude00\ud83c\udff3\ufe0f\u200d\ud83c\udf08',
    '\ud800',
    '\udfff',
    '\ufeff',
    'İı',
    'ß',
    'ﬁ',
    'Capital',
    'capital',
    'Group',
    'advis',
  ),
  fc
    .constantFrom('x', '%', '\u00e9', '\ud83d\ude00')
    .chain((unit) => fc.integer({ min: 100, max: 12_000 }).map((length) => unit.repeat(length))),
);

/** Identifiers where a UUID belongs: well-formed but unknown, almost-UUIDs, and junk. */
export const hostileUuid: fc.Arbitrary<string> = fc.oneof(
  fc.uuid(),
  fc.uuid().map((uuid) => uuid.toUpperCase()),
  fc.uuid().map((uuid) => `{${uuid}}`),
  fc.uuid().map((uuid) => uuid.replaceAll('-', '')),
  fc.uuid().map((uuid) => `${uuid} `),
  fc.uuid().map((uuid) => `${uuid}\u0000`),
  fc.uuid().map((uuid) => uuid.slice(0, -1)),
  fc.uuid().map((uuid) => `${uuid}0`),
  fc.uuid().map((uuid) => uuid.replace(/^./, 'g')),
  fc.uuid().map((uuid) => uuid.replace('-', '\u200b-')),
  fc.constantFrom(
    '00000000-0000-0000-0000-000000000000',
    'ffffffff-ffff-ffff-ffff-ffffffffffff',
    'not-a-uuid',
    '123',
    "' OR 1=1 --",
  ),
  hostileText,
);

/** The value of one query parameter: a valid one (from `valid`) most of the time is not the point; both appear. */
export function parameterValue(valid: readonly string[], kind: 'text' | 'number' | 'uuid' = 'text') {
  const hostile = kind === 'number' ? hostileNumber : kind === 'uuid' ? hostileUuid : hostileText;
  if (valid.length === 0) return hostile;
  return fc.oneof({ arbitrary: fc.constantFrom(...valid), weight: 3 }, { arbitrary: hostile, weight: 1 });
}

/**
 * `page` and `limit` values: mostly small (a large page of a list costs the database the most, and the run has
 * thousands of inputs to get through), sometimes large, often hostile.
 */
export const pagingValue: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.integer({ min: 1, max: 10 }).map(String), weight: 4 },
  { arbitrary: fc.integer({ min: 1, max: 300 }).map(String), weight: 1 },
  { arbitrary: hostileNumber, weight: 2 },
);

/** How one key=value pair is written into the query string. */
export type Encoding = 'component' | 'raw' | 'mangled';

/** Lone surrogates cannot be sent as UTF-8; a client sends the replacement character (or, mangled, raw bytes). */
export function wellFormed(text: string): string {
  return text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
}

function encode(original: string, encoding: Encoding): string {
  const text = wellFormed(original);
  if (encoding === 'raw') return text.replaceAll('#', '%23').replaceAll('&', '%26');
  if (encoding === 'mangled') {
    const junk = ['%zz', '%E0%A4%A', '%ED%A0%80', '%C0%AF', '%FF', '%'][text.length % 6];
    return `${encodeURIComponent(text)}${junk}`;
  }
  return encodeURIComponent(text);
}

export interface QueryPair {
  key: string;
  value: string;
  encoding: Encoding;
}

/**
 * A query string over the endpoint's parameters: each known parameter absent, present or repeated, with
 * valid and hostile values, plus now and then a parameter the endpoint does not know.
 */
export function queryPairs(parameters: Record<string, fc.Arbitrary<string>>): fc.Arbitrary<QueryPair[]> {
  const encoding = fc.constantFrom<Encoding>(
    'component',
    'component',
    'component',
    'component',
    'raw',
    'mangled',
  );
  // Each parameter is present one time in four (now and then twice), so that most requests are valid enough
  // to reach the database and most parameters are left at their defaults.
  const known = Object.entries(parameters).map(([key, value]) =>
    fc.oneof(
      { arbitrary: fc.constant(null), weight: 3 },
      {
        arbitrary: fc.array(fc.record({ key: fc.constant(key), value, encoding }), {
          minLength: 1,
          maxLength: 2,
        }),
        weight: 1,
      },
    ),
  );
  const stranger = fc.option(
    fc.array(fc.record({ key: hostileText, value: hostileText, encoding }), { maxLength: 2 }),
    {
      freq: 4,
    },
  );
  return fc
    .tuple(fc.tuple(...known), stranger)
    .map(([groups, extra]) => [...groups.flatMap((group) => group ?? []), ...(extra ?? [])])
    .chain((pairs) => fc.shuffledSubarray(pairs, { minLength: pairs.length, maxLength: pairs.length }));
}

/** A path segment carrying `text`, percent-encoded as a client would. */
export function pathSegment(text: string): string {
  return encodeURIComponent(wellFormed(text));
}

export function toQueryString(pairs: readonly QueryPair[]): string {
  if (pairs.length === 0) return '';
  return `?${pairs.map(({ key, value, encoding }) => `${encode(key, encoding)}=${encode(value, encoding)}`).join('&')}`;
}
