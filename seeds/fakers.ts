import {
  base,
  de,
  de_AT,
  de_CH,
  en,
  en_AU,
  en_CA,
  en_GB,
  en_IE,
  en_IN,
  en_ZA,
  es,
  es_MX,
  Faker,
  fr,
  fr_BE,
  fr_CH,
  it,
  ja,
  ko,
  type LocaleDefinition,
  nl,
  pl,
  pt_BR,
  type Randomizer,
  sv,
  zh_CN,
} from '@faker-js/faker';
import type { Random } from './random.ts';
import type { LocaleKey } from './regions.ts';

const localeDefinitions: Record<LocaleKey, LocaleDefinition> = {
  en,
  en_GB,
  en_CA,
  en_AU,
  en_IE,
  en_IN,
  en_ZA,
  de,
  de_AT,
  de_CH,
  fr,
  fr_BE,
  fr_CH,
  es,
  es_MX,
  it,
  nl,
  sv,
  pt_BR,
  pl,
  ja,
  zh_CN,
  ko,
};

/**
 * Every faker instance draws from whichever `Random` the caller handed to `fakerFor`, so faker output is part
 * of the record's own seeded stream and never of a global state.
 */
class DelegatingRandomizer implements Randomizer {
  current: Random | undefined;

  /** An arrow function: faker calls it detached from the object. */
  next = (): number => {
    if (!this.current) throw new Error('fakerFor() must be called before using a faker');
    return this.current.next();
  };

  seed(): void {
    throw new Error('The seed generator never reseeds faker; pass a Random to fakerFor() instead');
  }
}

const randomizer = new DelegatingRandomizer();
const fakers = new Map<LocaleKey, Faker>();

/** The faker of a locale, drawing from `random` until the next call. */
export function fakerFor(locale: LocaleKey, random: Random): Faker {
  randomizer.current = random;
  let faker = fakers.get(locale);
  if (!faker) {
    const definition = localeDefinitions[locale];
    faker = new Faker({ locale: locale === 'en' ? [en, base] : [definition, en, base], randomizer });
    fakers.set(locale, faker);
  }
  return faker;
}

export interface NamePool {
  first: readonly string[];
  last: readonly string[];
  /** How often a surname is double ("Gómez Molina", "Stokes-White"), and how the two are joined. */
  doubleSurname: number;
  joiner: string;
}

const namePools = new Map<LocaleKey, NamePool>();

function namesIn(definition: unknown): string[] {
  if (Array.isArray(definition)) return definition.filter((name): name is string => typeof name === 'string');
  if (definition && typeof definition === 'object')
    return [...new Set(Object.values(definition).flatMap(namesIn))];
  return [];
}

/**
 * The first and last names of a locale, read once from faker's data. Picking from these lists directly is
 * many times faster than faker's pattern engine, which matters for hundreds of thousands of people.
 */
export function namePool(locale: LocaleKey): NamePool {
  let pool = namePools.get(locale);
  if (!pool) {
    const person = (localeDefinitions[locale].person ?? {}) as Record<string, unknown>;
    const fallback = en.person as Record<string, unknown>;
    const first = namesIn(person.first_name);
    const last = namesIn(person.last_name);
    const spanish = locale === 'es' || locale === 'es_MX';
    pool = {
      first: first.length > 0 ? first : namesIn(fallback.first_name),
      last: last.length > 0 ? last : namesIn(fallback.last_name),
      doubleSurname: spanish ? 1 : locale.startsWith('en') ? 0.05 : 0,
      joiner: spanish ? ' ' : '-',
    };
    namePools.set(locale, pool);
  }
  return pool;
}
