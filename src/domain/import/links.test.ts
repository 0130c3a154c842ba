import { describe, expect, it } from 'vitest';
import { linkCode, storedLinks } from '../../db/bulk/stored-links.ts';
import { linksOf } from './links.ts';
import { parseLine } from './parse-line.ts';
import { recordLinks, recordTypes } from './records.ts';

describe('the links of a record', () => {
  it('are the links the store keeps, each with a code of its own', () => {
    const read = recordTypes.flatMap((type) => recordLinks[type].map((link) => `${type} ${link.path}`));
    const stored = recordTypes.flatMap((type) => storedLinks[type].map((link) => `${type} ${link.path}`));
    expect(read).toEqual(stored);
    const codes = recordTypes.flatMap((type) => recordLinks[type].map((link) => linkCode(type, link.path)));
    expect(new Set(codes).size).toBe(read.length);
    expect(() => linkCode('event', '$.nowhere')).toThrow('a event has no link at $.nowhere');
  });

  it('are found at every path, in lists too, and a null link is none', () => {
    const parsed = parseLine(
      JSON.stringify({
        reference: '00000000-0000-4000-8000-00000000000e',
        event_type: 'funding',
        publish_date: '2025-03-10T01:48:00.940Z',
        organisation_reference: '00000000-0000-4000-8000-0000000000a1',
        participants: [{ profile_reference: '00000000-0000-4000-8000-0000000000b1', role: 'investor' }],
        article_references: ['00000000-0000-4000-8000-0000000000c1', '00000000-0000-4000-8000-0000000000c2'],
      }),
      'event',
    );
    if (!parsed.ok || !parsed.record) throw new Error('not read');
    expect(linksOf('event', parsed.record)).toEqual([
      [linkCode('event', '$.organisation_reference'), '00000000-0000-4000-8000-0000000000a1'],
      [linkCode('event', '$.participants[*].profile_reference'), '00000000-0000-4000-8000-0000000000b1'],
      [linkCode('event', '$.article_references[*]'), '00000000-0000-4000-8000-0000000000c1'],
      [linkCode('event', '$.article_references[*]'), '00000000-0000-4000-8000-0000000000c2'],
    ]);
  });
});
