import { distance } from 'fastest-levenshtein';

/**
 * The words of a name as the match keys of migration 0029 fold them (`orgraph_match_words`): lower case, accents
 * and ligatures spelled out, dots and apostrophes dropped (S.A. is `sa`), `&` and `+` as `and`, any other character
 * that is not a letter or digit a break. The database computes the keys it looks up with; this copy only decides how
 * a compared value is labelled and scored.
 */
export function matchWords(text: string): string[] {
  const folded = text
    .replace(/[&+]/g, ' and ')
    .replace(/[.'’`]/g, '')
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/æ/g, 'ae')
    .replace(/œ/g, 'oe')
    .replace(/ß/g, 'ss')
    .replace(/[øłđħı]/g, (c) => ({ ø: 'o', ł: 'l', đ: 'd', ħ: 'h', ı: 'i' })[c] ?? c);
  return folded.split(/[^\p{L}\p{N}]+/u).filter((word) => word !== '');
}

/** Legal forms and the word `and` in their languages, left out of an organisation's key (as in migration 0029). */
const organisationNoise = new Set([
  'inc',
  'incorporated',
  'ltd',
  'limited',
  'llc',
  'llp',
  'lp',
  'plc',
  'corp',
  'corporation',
  'co',
  'company',
  'gmbh',
  'mbh',
  'ag',
  'kg',
  'ohg',
  'ug',
  'se',
  'ev',
  'sa',
  'sas',
  'sarl',
  'sl',
  'srl',
  'spa',
  'bv',
  'nv',
  'ab',
  'publ',
  'pty',
  'pte',
  'pvt',
  'dac',
  'ltda',
  'cv',
  'rl',
  'sp',
  'zoo',
  'oo',
  'z',
  'eurl',
  'sasu',
  'sicav',
  'as',
  'asa',
  'oy',
  'oyj',
  'kk',
  '주식회사',
  'and',
  'und',
  'et',
  'e',
  'y',
  'en',
  'och',
  'the',
]);

/** An organisation's name as its key: folded words without legal forms, in order (`orgraph_organisation_key`). */
export function organisationKey(name: string): string {
  const words = matchWords(name);
  const core = words.filter((word) => !organisationNoise.has(word));
  return (core.length > 0 ? core : words).join(' ');
}

/** A person's name as its key: the folded words in order (`orgraph_person_key`). */
export function personKey(name: string): string {
  return matchWords(name).join(' ');
}

/** Whether two keys have the same words in any order. */
export function sameWords(a: string, b: string): boolean {
  return a.split(' ').sort().join(' ') === b.split(' ').sort().join(' ');
}

/** How alike two keys are, 0 to 1: one less the edit distance over the longer length. */
export function keySimilarity(a: string, b: string): number {
  if (a === b) return 1;
  const longer = Math.max(a.length, b.length);
  if (longer === 0) return 1;
  return 1 - distance(a, b) / longer;
}

/**
 * The similarity of two keys as words, 0 to 1: each word of the shorter key paired with its closest unpaired word of
 * the other (when at least 0.6 alike), weighted by length; an unpaired word on either side counts against. Keys are
 * sorted words, so a typo that moves a word's place would otherwise cost twice.
 */
export function wordSimilarity(a: string, b: string): number {
  if (a === b) return 1;
  const left = a.split(' ').filter(Boolean);
  const right = b.split(' ').filter(Boolean);
  if (left.length === 0 || right.length === 0) return 0;
  const [few, many] = left.length <= right.length ? [left, right] : [right, left];
  const unused = [...many];
  let matched = 0;
  let total = 0;
  for (const word of few) {
    let best = -1;
    let bestSimilarity = 0;
    unused.forEach((other, index) => {
      const similarity = keySimilarity(word, other);
      if (similarity > bestSimilarity) {
        bestSimilarity = similarity;
        best = index;
      }
    });
    if (best >= 0 && bestSimilarity >= 0.6) {
      const length = Math.max(word.length, unused[best]!.length);
      matched += bestSimilarity * length;
      total += length;
      unused.splice(best, 1);
    } else {
      total += word.length;
    }
  }
  for (const word of unused) total += word.length;
  return matched / total;
}

/**
 * The host a website, domain or e-mail address names, lower-cased, without scheme, `www.`, port, path, query or a
 * trailing dot; null when nothing like a host is left.
 */
export function hostOf(text: string): string | null {
  let value = text.trim().toLowerCase();
  const at = value.lastIndexOf('@');
  if (at >= 0 && !value.includes('/')) value = value.slice(at + 1);
  value = value.replace(/^[a-z][a-z0-9+.-]*:\/\//, '').replace(/^\/\//, '');
  value = value.split(/[/?#]/)[0] ?? '';
  value = value
    .replace(/^[^@]*@/, '')
    .replace(/:\d+$/, '')
    .replace(/\.$/, '');
  value = value.replace(/^www\d?\./, '');
  return /^[\p{L}\p{N}-]+(\.[\p{L}\p{N}-]+)+$/u.test(value) ? value : null;
}

/** The handle of a LinkedIn profile URL in any of its spellings, lower-cased (`orgraph_linkedin_handle`). */
export function linkedinHandle(url: string): string | null {
  const match = /linkedin\.com\/(?:in|pub)\/([^/?#\s]+)/i.exec(url);
  if (match) return decodeHandle(match[1]!).toLowerCase();
  // A bare handle, as some exports carry it.
  const bare = url.trim().replace(/^@/, '');
  return /^[\p{L}\p{N}][\p{L}\p{N}_-]{2,99}$/u.test(bare) ? bare.toLowerCase() : null;
}

function decodeHandle(handle: string): string {
  try {
    return decodeURIComponent(handle);
  } catch {
    return handle;
  }
}

/** A ticker as a symbol and, when the input names one, an exchange (MIC, name or a common prefix or suffix). */
export interface TickerInput {
  symbol: string;
  exchange: string | null;
}

/**
 * `AAPL`, `NASDAQ:AAPL`, `XNAS:AAPL`, `AAPL:XNAS`, `AAPL.L`, `AAPL US` or `AAPL (NYSE)`: the symbol upper-cased and
 * the exchange as written (compared later against the record's exchange code and name). Null when no symbol is left.
 */
export function parseTicker(text: string): TickerInput | null {
  const value = text.trim().toUpperCase();
  if (value === '') return null;
  let match = /^([A-Z0-9 ]+?)\s*[:/]\s*([A-Z0-9.-]+)$/.exec(value);
  if (match) {
    const [first, second] = [match[1]!.trim(), match[2]!];
    // The exchange is the part that looks like one: a MIC or a known name goes first (`NASDAQ:AAPL`).
    return looksLikeExchange(first)
      ? { symbol: second, exchange: first }
      : { symbol: first, exchange: second };
  }
  match = /^([A-Z0-9.-]+?)\s*\(([^)]+)\)$/.exec(value);
  if (match) return { symbol: match[1]!, exchange: match[2]!.trim() };
  match = /^([A-Z0-9-]+)\s+([A-Z]{2,4})$/.exec(value);
  if (match) return { symbol: match[1]!, exchange: match[2]! };
  match = /^([A-Z0-9-]+)\.([A-Z]{1,2})$/.exec(value);
  if (match) return { symbol: match[1]!, exchange: match[2]! };
  return /^[A-Z0-9.-]{1,12}$/.test(value) ? { symbol: value, exchange: null } : null;
}

const exchangeWords = new Set(['NASDAQ', 'NYSE', 'LSE', 'TSX', 'ASX', 'HKEX', 'SIX', 'XETRA', 'OTC', 'AMEX']);

function looksLikeExchange(text: string): boolean {
  return exchangeWords.has(text) || /^X[A-Z]{3}$/.test(text) || text.includes(' ');
}

/**
 * Suffixes and prefixes that name an exchange, by the MIC stored on tickers. Only the common ones: an exchange the
 * input spells otherwise is compared by its name.
 */
const exchangeAliases: Record<string, string[]> = {
  XNAS: ['NASDAQ', 'US', 'UW', 'UQ', 'O', 'OQ'],
  XNYS: ['NYSE', 'US', 'UN', 'N'],
  XLON: ['LSE', 'LN', 'L'],
  XTSE: ['TSX', 'CN', 'TO', 'CT'],
  XASX: ['ASX', 'AU', 'AX'],
  XETR: ['XETRA', 'GY', 'DE'],
  XFRA: ['FRA', 'GR', 'F'],
  XPAR: ['EPA', 'FP', 'PA'],
  XAMS: ['AEX', 'NA', 'AS'],
  XSWX: ['SIX', 'SW', 'SE'],
  XSTO: ['OMX', 'SS', 'ST'],
  XHKG: ['HKEX', 'HK'],
  XTKS: ['TSE', 'JP', 'T'],
  XWBO: ['VIE', 'AV', 'VI'],
  XMIL: ['BIT', 'IM', 'MI'],
  XMAD: ['BME', 'SM', 'MC'],
  XBRU: ['EBR', 'BB', 'BR'],
};

/** Whether an exchange as the input wrote it names the record's exchange (its MIC, its name or a common alias). */
export function sameExchange(written: string, code: string, name: string): boolean {
  const value = written.trim().toUpperCase();
  if (value === code.toUpperCase()) return true;
  if (matchWords(value).join(' ') === matchWords(name).join(' ')) return true;
  return exchangeAliases[code.toUpperCase()]?.includes(value) ?? false;
}
