import countries from 'i18n-iso-countries';
import { invalidParameter } from '../errors.ts';

/**
 * Every spelling `resolveCountry` accepts, in the case it is listed in (any case is accepted): the alpha-2 and
 * alpha-3 codes and the English names. The OpenAPI document lists them.
 */
export function countrySpellings(): string[] {
  const names = Object.values(countries.getNames('en', { select: 'all' })).flat();
  const spellings = [
    ...Object.keys(countries.getAlpha2Codes()),
    ...Object.keys(countries.getAlpha3Codes()),
    ...names,
  ];
  // A name shared by two countries (`Congo`) names neither; the list keeps only what resolves.
  return [...new Set(spellings)].filter((spelling) => {
    try {
      resolveCountry(spelling);
      return true;
    } catch {
      return false;
    }
  });
}

/**
 * The ISO 3166-1 alpha-2 code (as stored on addresses) of a country given as an alpha-2 code, an
 * alpha-3 code or an English name (official or common, e.g. `United Kingdom`, `UK`), ignoring case.
 * An unrecognised country is an invalid parameter rather than an empty result, so a typo is not
 * mistaken for "no organisations there".
 */
export function resolveCountry(input: string): string {
  const text = input.trim();
  if (/^[A-Za-z]{2}$/.test(text) && countries.isValid(text.toUpperCase())) return text.toUpperCase();
  if (/^[A-Za-z]{3}$/.test(text)) {
    const code = countries.alpha3ToAlpha2(text.toUpperCase());
    if (code) return code;
  }
  const byName = text.length > 0 ? countries.getAlpha2Code(text, 'en') : undefined;
  if (byName) return byName;
  throw invalidParameter(
    `country \`${input}\` is not a known country: give an ISO 3166 alpha-2 code (GB), an alpha-3 code (GBR) or an English name (United Kingdom).`,
  );
}
