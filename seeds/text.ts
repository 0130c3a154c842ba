import type { Random } from './random.ts';

/** Lower-case ASCII letters and digits only: "Müller & Söhne GmbH" → "mullersohnegmbh". */
export function asciiSlug(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/[^a-z0-9]+/g, '');
}

/** Lower-case ASCII words joined by hyphens, for URLs. */
export function urlSlug(text: string, maxLength = 60): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug.slice(0, maxLength).replace(/-+$/g, '');
}

const syllables = [
  'sun',
  'tai',
  'hua',
  'kai',
  'min',
  'jin',
  'long',
  'won',
  'sei',
  'ko',
  'ya',
  'ma',
  'ri',
  'shin',
  'hwa',
  'dong',
  'xin',
  'feng',
  'yu',
  'an',
  'zhi',
  'hana',
  'mirai',
  'sora',
  'kumo',
  'tian',
  'bao',
  'yong',
];

/** A pronounceable Latin-script word for names that have none (CJK names), e.g. "taixinlong". */
export function latinWord(random: Random, parts = 3): string {
  let word = '';
  for (let i = 0; i < parts; i += 1) word += random.pick(syllables);
  return word;
}

export function capitalise(word: string): string {
  return word.length === 0 ? word : word[0]!.toUpperCase() + word.slice(1);
}

const currencySymbols: Record<string, string> = {
  USD: '$',
  GBP: '£',
  EUR: '€',
  JPY: '¥',
  CNY: 'CN¥',
  KRW: '₩',
  INR: '₹',
  CAD: 'C$',
  AUD: 'A$',
  CHF: 'CHF ',
  SEK: 'SEK ',
  BRL: 'R$',
  MXN: 'MX$',
  PLN: 'PLN ',
  ZAR: 'R',
  SGD: 'S$',
  HKD: 'HK$',
};

/** Rough conversion rates to US dollars, enough for `value_usd` to be plausible. */
export const usdPerUnit: Record<string, number> = {
  USD: 1,
  GBP: 1.27,
  EUR: 1.08,
  JPY: 0.0067,
  CNY: 0.14,
  KRW: 0.00073,
  INR: 0.012,
  CAD: 0.73,
  AUD: 0.66,
  CHF: 1.12,
  SEK: 0.095,
  BRL: 0.19,
  MXN: 0.055,
  PLN: 0.25,
  ZAR: 0.054,
  SGD: 0.74,
  HKD: 0.128,
};

/** "$12.5M", "€1.2bn", "¥850M". */
export function formatMoney(value: number, currency: string): string {
  const symbol = currencySymbols[currency] ?? `${currency} `;
  if (value >= 1e9) return `${symbol}${trimNumber(value / 1e9)}bn`;
  if (value >= 1e6) return `${symbol}${trimNumber(value / 1e6)}M`;
  if (value >= 1e3) return `${symbol}${trimNumber(value / 1e3)}k`;
  return `${symbol}${trimNumber(value)}`;
}

/** "$18.50", "¥1,240.00": a share price. */
export function formatPrice(value: number, currency: string): string {
  const symbol = currencySymbols[currency] ?? `${currency} `;
  return `${symbol}${value.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

function trimNumber(value: number): string {
  return value >= 100 ? value.toFixed(0) : value.toFixed(1).replace(/\.0$/, '');
}

/** Rounds to two significant figures, as reported amounts usually are. */
export function roundAmount(value: number): number {
  if (value <= 0) return 0;
  const magnitude = 10 ** (Math.floor(Math.log10(value)) - 1);
  return Math.round(value / magnitude) * magnitude;
}

const monthNames = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** "14 March 2025". */
export function longDate(date: Date): string {
  return `${date.getUTCDate()} ${monthNames[date.getUTCMonth()]} ${date.getUTCFullYear()}`;
}

export function ordinalRoman(n: number): string {
  return ['', 'I', 'II', 'III', 'IV', 'V', 'VI', 'VII', 'VIII', 'IX', 'X'][n] ?? String(n);
}
