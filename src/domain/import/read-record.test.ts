import { describe, expect, it } from 'vitest';
import { lineDigestOf, lineDigestOfBytes } from './read-record.ts';

describe('a line digest', () => {
  const lines = [
    '{"type": "organisation", "name": "Zürich Ré ✓ 𝄞"}',
    '{"name": "plain"}',
    `{"description": "${'x'.repeat(70_000)}"}`,
  ];

  it('is the same from the bytes as from the decoded text, for either file type', () => {
    for (const line of lines) {
      for (const type of ['organisation', null] as const) {
        expect(lineDigestOfBytes(Buffer.from(line), type)).toBe(lineDigestOf(line, type));
      }
    }
    // The longest line first, then a shorter one: nothing of the longer stays in the digest.
    expect(lineDigestOfBytes(Buffer.from(lines[1] ?? ''), null)).toBe(lineDigestOf(lines[1] ?? '', null));
  });

  it('depends on the type the file name gives', () => {
    const line = lines[1] ?? '';
    expect(lineDigestOfBytes(Buffer.from(line), 'organisation')).not.toBe(
      lineDigestOfBytes(Buffer.from(line), null),
    );
  });
});
