import { describe, expect, it } from 'vitest';
import {
  hostOf,
  linkedinHandle,
  organisationKey,
  parseTicker,
  personKey,
  sameExchange,
  sameWords,
  wordSimilarity,
} from './normalise.ts';

describe('organisationKey', () => {
  it('sets aside legal forms, case, accents, punctuation and &, and word order when compared', () => {
    const key = organisationKey('Gibson - Douglas LLC');
    expect(key).toBe('gibson douglas');
    expect(sameWords(organisationKey('Douglas Gibson Corp.'), key)).toBe(true);
    for (const variant of [
      'GIBSON & DOUGLAS',
      'Gibson Douglas Inc.',
      'gibson, douglas ltd',
      'Gibson and Douglas GmbH',
    ]) {
      expect(organisationKey(variant)).toBe(key);
    }
    expect(organisationKey('Société Générale S.A.')).toBe('societe generale');
    expect(organisationKey('Müller GmbH & Co. KG')).toBe('muller');
    expect(organisationKey('Ørsted AS')).toBe('orsted');
  });

  it('keeps the words of a name that is nothing but legal forms', () => {
    expect(organisationKey('Co. Ltd')).toBe('co ltd');
  });

  it('tells different names apart', () => {
    expect(organisationKey('Gibson Douglas')).not.toBe(organisationKey('Gibson Douglass'));
  });
});

describe('personKey', () => {
  it('sets aside case, accents and order, never words', () => {
    expect(personKey('Vivienne  LEBSÄCK')).toBe('vivienne lebsack');
    expect(sameWords(personKey('Lebsack, Vivienne'), personKey('Vivienne Lebsack'))).toBe(true);
    expect(personKey('Anna de la Cruz')).toBe('anna de la cruz');
  });
});

describe('wordSimilarity', () => {
  it('is 1 for equal keys and falls with each typo and each missing word', () => {
    expect(wordSimilarity('douglas gibson', 'gibson douglas')).toBe(1);
    const typo = wordSimilarity('gibsen douglas', 'douglas gibson');
    const missing = wordSimilarity('douglas', 'gibson douglas');
    expect(typo).toBeGreaterThan(0.9);
    expect(typo).toBeLessThan(1);
    expect(missing).toBeCloseTo(7 / 13, 5);
    expect(wordSimilarity('acme', 'douglas gibson')).toBe(0);
  });
});

describe('hostOf', () => {
  it('reads the host of a website, a domain or an e-mail address', () => {
    expect(hostOf('https://www.Acme.com/about?x=1')).toBe('acme.com');
    expect(hostOf('http://acme.co.uk:8080/')).toBe('acme.co.uk');
    expect(hostOf('www2.acme.io')).toBe('acme.io');
    expect(hostOf('jane.doe@Acme.com')).toBe('acme.com');
    expect(hostOf('acme.com.')).toBe('acme.com');
    expect(hostOf('not a host')).toBeNull();
    expect(hostOf('localhost')).toBeNull();
  });
});

describe('linkedinHandle', () => {
  it('reads the handle of every spelling of a profile URL', () => {
    for (const url of [
      'https://www.linkedin.com/in/Jane-Doe-1a2b3c',
      'http://linkedin.com/in/jane-doe-1a2b3c/',
      'uk.linkedin.com/in/jane-doe-1a2b3c?trk=x',
      'https://www.linkedin.com/pub/jane-doe-1a2b3c',
      'jane-doe-1a2b3c',
    ]) {
      expect(linkedinHandle(url)).toBe('jane-doe-1a2b3c');
    }
    expect(linkedinHandle('https://www.linkedin.com/in/j%C3%BCrgen')).toBe('jürgen');
    expect(linkedinHandle('https://example.com/x y')).toBeNull();
  });
});

describe('parseTicker', () => {
  it('reads the symbol and the exchange wherever the input puts it', () => {
    expect(parseTicker('aapl')).toEqual({ symbol: 'AAPL', exchange: null });
    expect(parseTicker('NASDAQ:AAPL')).toEqual({ symbol: 'AAPL', exchange: 'NASDAQ' });
    expect(parseTicker('XNAS:AAPL')).toEqual({ symbol: 'AAPL', exchange: 'XNAS' });
    expect(parseTicker('AAPL:XNAS')).toEqual({ symbol: 'AAPL', exchange: 'XNAS' });
    expect(parseTicker('VOD.L')).toEqual({ symbol: 'VOD', exchange: 'L' });
    expect(parseTicker('AAPL US')).toEqual({ symbol: 'AAPL', exchange: 'US' });
    expect(parseTicker('HAUP (Wiener Börse)')).toEqual({ symbol: 'HAUP', exchange: 'WIENER BÖRSE' });
    expect(parseTicker('  ')).toBeNull();
  });

  it('compares an exchange by its code, its name or a common alias', () => {
    expect(sameExchange('XNAS', 'XNAS', 'NASDAQ')).toBe(true);
    expect(sameExchange('nasdaq', 'XNAS', 'NASDAQ')).toBe(true);
    expect(sameExchange('L', 'XLON', 'London Stock Exchange')).toBe(true);
    expect(sameExchange('WIENER BÖRSE', 'XWBO', 'Wiener Börse')).toBe(true);
    expect(sameExchange('L', 'XNYS', 'New York Stock Exchange')).toBe(false);
  });
});
