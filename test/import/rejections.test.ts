import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/database.ts';
import {
  experience,
  importFiles,
  newReference,
  organisation,
  profile,
  useImportStore,
  writeRecords,
} from './support.ts';

const imports = useImportStore('rejections');

/** A line over 1 MiB, then one that is not UTF-8, and the rejections they get as lines 1 and 2. */
function unreadableLines() {
  const long = JSON.stringify(organisation(newReference(), { description: 'x'.repeat(1024 * 1024 + 10) }));
  return {
    long,
    bytes: [
      Buffer.from(`${long}\n`),
      Buffer.from('{"type":"organisation","name":"'),
      Buffer.from([0xc3, 0x28]),
      Buffer.from('"}\n'),
    ],
    rejections: [
      [1, [`the line is longer than 1 MiB (${Buffer.byteLength(long)} bytes)`]],
      [2, ['the line is not valid UTF-8']],
    ],
  };
}

describe('every record that cannot be stored is rejected with its reasons', () => {
  it('names each reason, with the file and line, and stores the valid records', async () => {
    const good = newReference();
    const person = newReference();
    const missing = newReference();
    const lines: (object | string)[] = [
      organisation(good), // 1
      '{"type": "organisation", "reference": ', // 2: not JSON
      { type: 'company', reference: newReference() }, // 3: unknown type
      { reference: newReference(), name: 'No type' }, // 4: missing type
      organisation(newReference(), { verified: 'yes' }), // 5: wrong type
      organisation(newReference(), { status: 'bankrupt' }), // 6: outside its set
      organisation(newReference(), { confidence: 101 }), // 7: outside its range
      organisation(newReference(), { colour: 'blue' }), // 8: unknown field
      organisation('not-a-uuid'), // 9: reference not a UUID
      profile(person), // 10
      experience(newReference(), person, { organisation_reference: missing }), // 11: link to nothing
      experience(newReference(), person, { start_date: '2021-05-01', end_date: '2020-01-01' }), // 12
      {
        type: 'organisation_ownership',
        reference: newReference(),
        owner_reference: good,
        owned_reference: good,
        relationship_type: 'parent',
        ownership_label: '100%',
        is_controlling_interest: true,
      }, // 13: owns itself
      {
        type: 'article',
        reference: newReference(),
        title: 'Offsets',
        published_at: '2024-03-01T10:00:00Z',
        // 'é' is one UTF-16 unit, '𝄞' two: 6 units in all.
        content: 'é𝄞abc',
        licence: 'full_text',
        annotations: [
          {
            reference: newReference(),
            type: 'speech',
            summary: 's',
            text: 't',
            start: 2,
            end: 7,
            speaker: { kind: 'person', name: 'A' },
            subject: { name: 'B' },
          },
        ],
      }, // 14: offsets outside the content
      organisation(good, { name: 'Changed name' }), // 15: same reference, different content
      organisation(good), // 16: same content as line 1 again (not a conflict of its own)
    ];
    const path = await writeRecords(join(imports.directory, 'mixed.ndjson'), lines);
    const { summary, rejects } = await importFiles(imports.handle, [path]);

    const reasonsAt = (line: number) => rejects.find((r) => r.line === line)?.reasons ?? [];
    expect(reasonsAt(2)[0]).toMatch(/^not JSON: /);
    expect(reasonsAt(3)).toEqual([
      'unknown type "company" (expected one of occupation, organisation, profile, experience, organisation_ownership, profile_stake, article, event)',
    ]);
    expect(reasonsAt(4)).toEqual(['missing type (and the file name names none)']);
    expect(reasonsAt(5)).toEqual(['verified: Invalid input: expected boolean, received string']);
    expect(reasonsAt(6)[0]).toMatch(/^status: Invalid option: expected one of "active"\|"merged"/);
    expect(reasonsAt(7)).toEqual(['confidence: Too big: expected number to be <=100']);
    expect(reasonsAt(8)).toEqual(['Unrecognized key: "colour"']);
    expect(reasonsAt(9)).toEqual(['reference: not a UUID']);
    expect(reasonsAt(11)).toEqual([
      `organisation_reference links to no organisation in the import or the store: ${missing}`,
    ]);
    expect(reasonsAt(12)).toEqual([
      'end_date: the experience ends (2020-01-01) before it starts (2021-05-01)',
    ]);
    expect(reasonsAt(13)).toEqual([
      'owned_reference: an organisation cannot own itself (owner_reference equals owned_reference)',
    ]);
    expect(reasonsAt(14)).toEqual([
      "annotations[0].end: the annotation's end offset 7 is outside the article content (6 UTF-16 code units)",
    ]);
    for (const line of [1, 15, 16]) {
      expect(reasonsAt(line)[0]).toBe(
        `reference ${good} appears more than once in this import with different content (${path} line 1, ${path} line 15, ${path} line 16)`,
      );
    }
    expect(rejects.every((r) => r.source === path)).toBe(true);
    expect(rejects.find((r) => r.line === 8)?.record).toMatchObject({ colour: 'blue' });
    // Rejected after the reading (a link, a repeat), a record staged as its rows is read again from its line.
    expect(summary.initial_load).toBe(true);
    expect(rejects.find((r) => r.line === 11)?.record).toEqual(lines[10]);
    expect(rejects.find((r) => r.line === 15)?.record).toEqual(lines[14]);
    expect(rejects.find((r) => r.line === 16)?.record).toEqual(lines[15]);

    // Lines 1, 15 and 16 conflict; the profile (10) is the only record stored.
    expect(summary.types.profile).toEqual({ inserted: 1, updated: 0, unchanged: 0, deleted: 0, rejected: 0 });
    expect(summary.types.organisation?.inserted).toBe(0);
    expect(summary.rejected).toBe(rejects.length);
    expect(summary.committed).toBe(true);
    const [row] = await queryRows<{ n: number }>(
      imports.handle.db,
      sql`select count(*)::integer as n from organisations where reference = ${good}`,
    );
    expect(row?.n).toBe(0);
  });

  it('rejects a line over 1 MiB and one that is not UTF-8, showing their first 1 KB', async () => {
    const { long, bytes, rejections } = unreadableLines();
    const reference = newReference();
    const path = join(imports.directory, 'bytes.ndjson');
    await writeFile(
      path,
      Buffer.concat([...bytes, Buffer.from(`${JSON.stringify(organisation(reference))}\n`)]),
    );
    const { summary, rejects } = await importFiles(imports.handle, [path]);
    expect(rejects.map((r) => [r.line, r.reasons])).toEqual(rejections);
    expect(rejects[0]?.record_head).toBe(long.slice(0, 1024));
    expect(summary.types.organisation?.inserted).toBe(1);
  });

  it('rejects a text holding U+0000, which PostgreSQL cannot store, and stores the rest', async () => {
    const kept = newReference();
    const lines = [
      organisation(newReference(), { name: 'Nul\u0000 Holdings' }),
      organisation(newReference(), {
        aliases: [
          { reference: newReference(), name: 'Fine' },
          { reference: newReference(), name: 'a\u0000' },
        ],
      }),
      // Escaped, the backslash is only text.
      organisation(kept, { description: 'a \\u0000 in words' }),
    ];
    const path = await writeRecords(join(imports.directory, 'nul.ndjson'), lines);
    const { summary, rejects } = await importFiles(imports.handle, [path]);
    expect(rejects.map((r) => [r.line, r.reasons])).toEqual([
      [1, ['name: holds U+0000 (NUL), which text cannot hold']],
      [2, ['aliases[1].name: holds U+0000 (NUL), which text cannot hold']],
    ]);
    expect(summary.types.organisation).toMatchObject({ inserted: 1, rejected: 2 });
    const [row] = await queryRows<{ description: string }>(
      imports.handle.db,
      sql`select description from organisations where reference = ${kept}`,
    );
    expect(row?.description).toBe('a \\u0000 in words');
  });

  it('reads lines the same way once the store keeps their digests, and knows them the next time', async () => {
    // A stored record keeps its line's digest: from then on an import reads lines as bytes, decoding only those
    // the store does not know.
    const first = await writeRecords(join(imports.directory, 'kept.ndjson'), [organisation(newReference())]);
    expect((await importFiles(imports.handle, [first])).summary.written).toBe(1);

    const { bytes, rejections: expected } = unreadableLines();
    const stored = newReference();
    const path = join(imports.directory, 'bytes-known.ndjson');
    await writeFile(
      path,
      Buffer.concat([
        ...bytes,
        // Blank, with nothing but a no-break space.
        Buffer.from('\u00a0\r\n'),
        Buffer.from(`${JSON.stringify({ ...organisation(stored), name: 'Zürich Ré' })}\r\n`),
      ]),
    );
    const once = await importFiles(imports.handle, [path]);
    expect(once.rejects.map((r) => [r.line, r.reasons])).toEqual(expected);
    expect(once.rejects[1]?.record_head).toBe('{"type":"organisation","name":"\ufffd("}');
    expect(once.summary).toMatchObject({ rejected: 2, written: 1 });
    expect(once.summary.types.organisation).toMatchObject({ inserted: 1, rejected: 0 });
    const [row] = await queryRows<{ name: string }>(
      imports.handle.db,
      sql`select name from organisations where reference = ${stored}`,
    );
    expect(row?.name).toBe('Zürich Ré');

    const again = await importFiles(imports.handle, [path]);
    expect(again.rejects.map((r) => [r.line, r.reasons])).toEqual(expected);
    expect(again.summary).toMatchObject({ rejected: 2, written: 0 });
    expect(again.summary.types.organisation).toMatchObject({ inserted: 0, unchanged: 1 });
  });

  it('accepts a byte-order mark, CRLF line ends and blank lines', async () => {
    const first = newReference();
    const second = newReference();
    const path = join(imports.directory, 'organisations.ndjson');
    // No "type": the file's name gives it.
    const { type: _a, ...one } = organisation(first);
    const { type: _b, ...two } = organisation(second);
    await writeFile(path, `\uFEFF${JSON.stringify(one)}\r\n\r\n   \r\n${JSON.stringify(two)}\r\n\n`);
    const { summary, rejects } = await importFiles(imports.handle, [path]);
    expect(rejects).toEqual([]);
    expect(summary.types.organisation).toEqual({
      inserted: 2,
      updated: 0,
      unchanged: 0,
      deleted: 0,
      rejected: 0,
    });
    const rows = await queryRows<{ name: string }>(
      imports.handle.db,
      sql`select name from organisations where reference in (${first}, ${second}) order by name`,
    );
    expect(rows.map((r) => r.name)).toEqual(
      [`Import Test ${first.slice(0, 8)}`, `Import Test ${second.slice(0, 8)}`].sort(),
    );
  });
});
