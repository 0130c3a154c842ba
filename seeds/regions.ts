/** Where generated organisations and people come from: a faker locale, a country and its market details. */

export type LocaleKey =
  | 'en'
  | 'en_GB'
  | 'en_CA'
  | 'en_AU'
  | 'en_IE'
  | 'en_IN'
  | 'en_ZA'
  | 'de'
  | 'de_AT'
  | 'de_CH'
  | 'fr'
  | 'fr_BE'
  | 'fr_CH'
  | 'es'
  | 'es_MX'
  | 'it'
  | 'nl'
  | 'sv'
  | 'pt_BR'
  | 'pl'
  | 'ja'
  | 'zh_CN'
  | 'ko';

export interface Exchange {
  name: string;
  code: string;
}

export interface Region {
  locale: LocaleKey;
  /** ISO 3166-1 alpha-2. */
  country: string;
  countryName: string;
  currency: string;
  /** Relative share of organisations and people. */
  weight: number;
  legalSuffixes: readonly string[];
  exchanges: readonly Exchange[];
  topLevelDomain: string;
  /** Listed tickers are numeric on these markets (Tokyo, Shanghai, Seoul). */
  numericTickers?: boolean;
  /** No states or provinces in addresses. */
  noStates?: boolean;
  /** Names are written family name first. */
  familyNameFirst?: boolean;
  /** City states, where the locale's city names would be wrong. */
  fixedCity?: string;
}

const nasdaq = { name: 'NASDAQ', code: 'XNAS' };
const nyse = { name: 'New York Stock Exchange', code: 'XNYS' };
const euronextParis = { name: 'Euronext Paris', code: 'XPAR' };
const six = { name: 'SIX Swiss Exchange', code: 'XSWX' };

export const regions: readonly Region[] = [
  {
    locale: 'en',
    country: 'US',
    countryName: 'United States',
    currency: 'USD',
    weight: 30,
    legalSuffixes: ['Inc.', 'LLC', 'Corp.', 'Holdings, Inc.', 'Co.'],
    exchanges: [nasdaq, nyse],
    topLevelDomain: 'com',
  },
  {
    locale: 'en_GB',
    country: 'GB',
    countryName: 'United Kingdom',
    currency: 'GBP',
    weight: 8,
    legalSuffixes: ['Ltd', 'plc', 'LLP', 'Limited'],
    exchanges: [{ name: 'London Stock Exchange', code: 'XLON' }],
    topLevelDomain: 'co.uk',
  },
  {
    locale: 'en_CA',
    country: 'CA',
    countryName: 'Canada',
    currency: 'CAD',
    weight: 3,
    legalSuffixes: ['Inc.', 'Ltd.', 'Corp.'],
    exchanges: [{ name: 'Toronto Stock Exchange', code: 'XTSE' }],
    topLevelDomain: 'ca',
  },
  {
    locale: 'en_AU',
    country: 'AU',
    countryName: 'Australia',
    currency: 'AUD',
    weight: 3,
    legalSuffixes: ['Pty Ltd', 'Limited'],
    exchanges: [{ name: 'Australian Securities Exchange', code: 'XASX' }],
    topLevelDomain: 'com.au',
  },
  {
    locale: 'en_IE',
    country: 'IE',
    countryName: 'Ireland',
    currency: 'EUR',
    weight: 1,
    legalSuffixes: ['Limited', 'DAC', 'plc'],
    exchanges: [{ name: 'Euronext Dublin', code: 'XMSM' }],
    topLevelDomain: 'ie',
    noStates: true,
  },
  {
    locale: 'en_IN',
    country: 'IN',
    countryName: 'India',
    currency: 'INR',
    weight: 3,
    legalSuffixes: ['Pvt Ltd', 'Limited'],
    exchanges: [{ name: 'National Stock Exchange of India', code: 'XNSE' }],
    topLevelDomain: 'in',
  },
  {
    locale: 'en_ZA',
    country: 'ZA',
    countryName: 'South Africa',
    currency: 'ZAR',
    weight: 1,
    legalSuffixes: ['(Pty) Ltd', 'Ltd'],
    exchanges: [{ name: 'Johannesburg Stock Exchange', code: 'XJSE' }],
    topLevelDomain: 'co.za',
  },
  {
    locale: 'de',
    country: 'DE',
    countryName: 'Germany',
    currency: 'EUR',
    weight: 8,
    legalSuffixes: ['GmbH', 'AG', 'GmbH & Co. KG', 'SE'],
    exchanges: [
      { name: 'Deutsche Börse Xetra', code: 'XETR' },
      { name: 'Börse Frankfurt', code: 'XFRA' },
    ],
    topLevelDomain: 'de',
  },
  {
    locale: 'de_AT',
    country: 'AT',
    countryName: 'Austria',
    currency: 'EUR',
    weight: 1.5,
    legalSuffixes: ['GmbH', 'AG'],
    exchanges: [{ name: 'Wiener Börse', code: 'XWBO' }],
    topLevelDomain: 'at',
  },
  {
    locale: 'de_CH',
    country: 'CH',
    countryName: 'Switzerland',
    currency: 'CHF',
    weight: 2,
    legalSuffixes: ['AG', 'GmbH', 'SA'],
    exchanges: [six],
    topLevelDomain: 'ch',
  },
  {
    locale: 'fr',
    country: 'FR',
    countryName: 'France',
    currency: 'EUR',
    weight: 7,
    legalSuffixes: ['SA', 'SAS', 'SARL'],
    exchanges: [euronextParis],
    topLevelDomain: 'fr',
  },
  {
    locale: 'fr_BE',
    country: 'BE',
    countryName: 'Belgium',
    currency: 'EUR',
    weight: 1.5,
    legalSuffixes: ['SA', 'SRL', 'NV'],
    exchanges: [{ name: 'Euronext Brussels', code: 'XBRU' }],
    topLevelDomain: 'be',
  },
  {
    locale: 'fr_CH',
    country: 'CH',
    countryName: 'Switzerland',
    currency: 'CHF',
    weight: 1,
    legalSuffixes: ['SA', 'Sàrl'],
    exchanges: [six],
    topLevelDomain: 'ch',
  },
  {
    locale: 'es',
    country: 'ES',
    countryName: 'Spain',
    currency: 'EUR',
    weight: 4,
    legalSuffixes: ['S.L.', 'S.A.'],
    exchanges: [{ name: 'Bolsa de Madrid', code: 'XMAD' }],
    topLevelDomain: 'es',
  },
  {
    locale: 'es_MX',
    country: 'MX',
    countryName: 'Mexico',
    currency: 'MXN',
    weight: 3,
    legalSuffixes: ['S.A. de C.V.', 'S. de R.L.'],
    exchanges: [{ name: 'Bolsa Mexicana de Valores', code: 'XMEX' }],
    topLevelDomain: 'com.mx',
  },
  {
    locale: 'it',
    country: 'IT',
    countryName: 'Italy',
    currency: 'EUR',
    weight: 3,
    legalSuffixes: ['S.p.A.', 'S.r.l.'],
    exchanges: [{ name: 'Borsa Italiana', code: 'XMIL' }],
    topLevelDomain: 'it',
  },
  {
    locale: 'nl',
    country: 'NL',
    countryName: 'Netherlands',
    currency: 'EUR',
    weight: 3,
    legalSuffixes: ['B.V.', 'N.V.'],
    exchanges: [{ name: 'Euronext Amsterdam', code: 'XAMS' }],
    topLevelDomain: 'nl',
  },
  {
    locale: 'sv',
    country: 'SE',
    countryName: 'Sweden',
    currency: 'SEK',
    weight: 2,
    legalSuffixes: ['AB', 'AB (publ)'],
    exchanges: [{ name: 'Nasdaq Stockholm', code: 'XSTO' }],
    topLevelDomain: 'se',
  },
  {
    locale: 'pt_BR',
    country: 'BR',
    countryName: 'Brazil',
    currency: 'BRL',
    weight: 2,
    legalSuffixes: ['Ltda.', 'S.A.'],
    exchanges: [{ name: 'B3', code: 'BVMF' }],
    topLevelDomain: 'com.br',
  },
  {
    locale: 'pl',
    country: 'PL',
    countryName: 'Poland',
    currency: 'PLN',
    weight: 1,
    legalSuffixes: ['sp. z o.o.', 'S.A.'],
    exchanges: [{ name: 'Warsaw Stock Exchange', code: 'XWAR' }],
    topLevelDomain: 'pl',
  },
  {
    locale: 'ja',
    country: 'JP',
    countryName: 'Japan',
    currency: 'JPY',
    weight: 5,
    legalSuffixes: [],
    exchanges: [{ name: 'Tokyo Stock Exchange', code: 'XTKS' }],
    topLevelDomain: 'co.jp',
    numericTickers: true,
    familyNameFirst: true,
  },
  {
    locale: 'zh_CN',
    country: 'CN',
    countryName: 'China',
    currency: 'CNY',
    weight: 5,
    legalSuffixes: [],
    exchanges: [
      { name: 'Shanghai Stock Exchange', code: 'XSHG' },
      { name: 'Shenzhen Stock Exchange', code: 'XSHE' },
    ],
    topLevelDomain: 'cn',
    numericTickers: true,
    familyNameFirst: true,
  },
  {
    locale: 'ko',
    country: 'KR',
    countryName: 'South Korea',
    currency: 'KRW',
    weight: 3,
    legalSuffixes: ['주식회사'],
    exchanges: [{ name: 'Korea Exchange', code: 'XKRX' }],
    topLevelDomain: 'co.kr',
    numericTickers: true,
    familyNameFirst: true,
  },
  {
    locale: 'en',
    country: 'SG',
    countryName: 'Singapore',
    currency: 'SGD',
    weight: 1.5,
    legalSuffixes: ['Pte. Ltd.'],
    exchanges: [{ name: 'Singapore Exchange', code: 'XSES' }],
    topLevelDomain: 'com.sg',
    noStates: true,
    fixedCity: 'Singapore',
  },
  {
    locale: 'en',
    country: 'HK',
    countryName: 'Hong Kong',
    currency: 'HKD',
    weight: 1,
    legalSuffixes: ['Limited'],
    exchanges: [{ name: 'Hong Kong Stock Exchange', code: 'XHKG' }],
    topLevelDomain: 'com.hk',
    numericTickers: true,
    noStates: true,
    fixedCity: 'Hong Kong',
  },
];

/** `regions` as weighted choices for `Random.weighted`. */
export const regionWeights: readonly (readonly [Region, number])[] = regions.map((region) => [
  region,
  region.weight,
]);

/** Secondary listings go to a handful of international venues. */
export const secondaryExchanges: readonly (Exchange & { currency: string })[] = [
  { name: 'OTC Markets', code: 'OTCM', currency: 'USD' },
  { name: 'NASDAQ', code: 'XNAS', currency: 'USD' },
  { name: 'London Stock Exchange', code: 'XLON', currency: 'GBP' },
  { name: 'Börse Frankfurt', code: 'XFRA', currency: 'EUR' },
];
