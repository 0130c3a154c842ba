import { describe, expect, it } from 'vitest';
import { parseLine } from './parse-line.ts';

const organisation = 'A0000000-0000-4000-8000-00000000000A';
const profiles = ['B0000000-0000-4000-8000-00000000000B', '10000000-0000-4000-8000-000000000001'];
const articles = ['F0000000-0000-4000-8000-00000000000F', '20000000-0000-4000-8000-000000000002'];

/** A funding event as a client might write it: references in upper case, a zone offset, lists in any order. */
const event = {
  reference: 'E0000000-0000-4000-8000-00000000000E',
  event_type: 'funding',
  publish_date: '2025-03-10T03:48:00.94+02:00',
  effective_date: '2025-02-18T16:23:18Z',
  organisation_reference: organisation,
  data: { value: 5_000_000, round: 'Series A', currency_code: 'EUR' },
  participants: [
    { role: 'lead investor', profile_reference: profiles[0] },
    { role: 'investor', profile_reference: profiles[1] },
  ],
  article_references: articles,
};

const canonicalText = (value: unknown) => {
  const parsed = parseLine(JSON.stringify(value), 'event');
  if (!parsed.ok) throw new Error(parsed.reasons.join('; '));
  return JSON.stringify(parsed.record);
};

describe('the canonical form of a record', () => {
  it('lower-cases references, gives date-times in UTC to the millisecond, sorts lists and data keys', () => {
    const parsed = parseLine(JSON.stringify(event), 'event');
    expect(parsed.ok && parsed.record).toEqual({
      reference: 'e0000000-0000-4000-8000-00000000000e',
      type: 'event',
      event_type: 'funding',
      summary: null,
      publish_date: '2025-03-10T01:48:00.940Z',
      organisation_reference: 'a0000000-0000-4000-8000-00000000000a',
      profile_reference: null,
      occupation_reference: null,
      move_type: null,
      effective_date: '2025-02-18T16:23:18.000Z',
      acquirer_reference: null,
      acquiree_reference: null,
      deal_type: null,
      deal_status: null,
      client_summary_reference: null,
      data: { currency_code: 'EUR', round: 'Series A', value: 5_000_000 },
      participants: [
        { profile_reference: '10000000-0000-4000-8000-000000000001', role: 'investor' },
        { profile_reference: 'b0000000-0000-4000-8000-00000000000b', role: 'lead investor' },
      ],
      article_references: ['20000000-0000-4000-8000-000000000002', 'f0000000-0000-4000-8000-00000000000f'],
    });
    if (!parsed.ok) return;
    expect(Object.keys(parsed.record?.data as object)).toEqual(['currency_code', 'round', 'value']);
  });

  it('gives one JSON text for the same record however it is written', () => {
    const rewritten = {
      article_references: [...articles].reverse().map((reference) => reference.toLowerCase()),
      participants: [...event.participants].reverse(),
      data: { currency_code: 'EUR', value: 5_000_000, round: 'Series A' },
      organisation_reference: organisation.toLowerCase(),
      publish_date: '2025-03-10T01:48:00.940Z',
      effective_date: '2025-02-18T16:23:18.000Z',
      event_type: 'funding',
      reference: event.reference.toLowerCase(),
    };
    expect(canonicalText(rewritten)).toBe(canonicalText(event));
  });

  it('keeps the single precision a real column stores', () => {
    const profile = {
      reference: 'C0000000-0000-4000-8000-00000000000C',
      first_name: 'Ada',
      last_name: 'Lovelace',
      name: 'Ada Lovelace',
      confidence_score: 0.1,
    };
    const parsed = parseLine(JSON.stringify(profile), 'profile');
    if (!parsed.ok) throw new Error(parsed.reasons.join('; '));
    expect(parsed.record?.confidence_score).toBe(0.1);
    // 0.30000001 and 0.3 are the same real: PostgreSQL gives back 0.3.
    const close = parseLine(JSON.stringify({ ...profile, confidence_score: 0.30000001 }), 'profile');
    expect(close.ok && close.record?.confidence_score).toBe(0.3);
  });

  it('rejects an entry listed twice, and reports the line as it was written', () => {
    const twice = { ...event, article_references: [articles[0], articles[0]?.toLowerCase()] };
    const text = JSON.stringify(twice);
    const parsed = parseLine(text, 'event');
    expect(parsed).toEqual({
      ok: false,
      value: JSON.parse(text),
      reasons: ['article_references: f0000000-0000-4000-8000-00000000000f is listed twice'],
    });
  });
});
