import { describe, expect, it } from 'vitest';
import type { ResolveRow } from '../domain/resolve/index.ts';
import { answerColumns, inputOf, readRows, writeRows } from './resolve-command.ts';

const matched: ResolveRow = {
  status: 'matched',
  reason: null,
  candidates: [
    {
      reference: '3f6c1a52-8d7e-4b1a-9c3e-2a4b5c6d7e80',
      name: 'Northwind Analytics',
      score: 0.97,
      matchedOn: [
        { field: 'name', input: 'NORTHWIND', value: 'Northwind Analytics', how: 'fuzzy' },
        { field: 'linkedinUrl', input: 'x', value: 'x', how: 'exact' },
      ],
    },
  ],
};
const none: ResolveRow = { status: 'none', reason: 'nothing', candidates: [] };

describe('orgraph resolve, its file handling', () => {
  it('reads a CSV with quotes, a byte-order mark and blank lines, keeping its header order', () => {
    const { columns, rows } = readRows('\uFEFFid,name\n1,"Acme, Inc."\n\n2,"Two\nLines"\n', 'csv');
    expect(columns).toEqual(['id', 'name']);
    expect(rows).toEqual([
      { id: '1', name: 'Acme, Inc.' },
      { id: '2', name: 'Two\nLines' },
    ]);
  });

  it('names the line of NDJSON that is not an object', () => {
    expect(readRows('{"name":"a"}\n\n{"name":"b"}\n', 'ndjson').rows).toHaveLength(2);
    expect(() => readRows('{"name":"a"}\n[1]\n', 'ndjson')).toThrow('Line 2 is not a JSON object.');
    expect(() => readRows('{"name":"a"}\n{oops\n', 'ndjson')).toThrow('Line 2 is not JSON.');
  });

  it('sends only the input columns, as the matcher names them, and no empty cell', () => {
    expect(
      inputOf('profiles', { first_name: ' Grace ', last_name: 'Hopper', crm: '7', email: '' }, 1),
    ).toEqual({
      firstName: 'Grace',
      lastName: 'Hopper',
    });
    expect(inputOf('organisations', { name: 'Acme', first_name: 'x', ticker: 42 }, 1)).toEqual({
      name: 'Acme',
      ticker: '42',
    });
  });

  it('refuses a row whose value is not text, or with a column the answer would overwrite', () => {
    expect(() => inputOf('organisations', { name: { text: 'Acme' } }, 3)).toThrow(
      'Row 3: name must be text, not object.',
    );
    expect(() => inputOf('organisations', { name: 'Acme', status: 'lead' }, 1)).toThrow(
      'Row 1 has a column status already, which the answer would overwrite: rename it.',
    );
  });

  it("adds the best candidate and its evidence, in the API's field names", () => {
    expect(answerColumns(matched)).toEqual({
      reference: '3f6c1a52-8d7e-4b1a-9c3e-2a4b5c6d7e80',
      status: 'matched',
      score: 0.97,
      matched_on: 'name:fuzzy linkedin_url:exact',
    });
    expect(answerColumns(none)).toEqual({ reference: null, status: 'none', score: null, matched_on: null });
  });

  it('writes every row back with its own columns first', () => {
    const rows = [
      { id: '1', name: 'Acme, Inc.' },
      { id: '2', name: '' },
    ];
    expect(writeRows('csv', ['id', 'name'], rows, [matched, none])).toBe(
      'id,name,reference,status,score,matched_on\n' +
        '1,"Acme, Inc.",3f6c1a52-8d7e-4b1a-9c3e-2a4b5c6d7e80,matched,0.97,name:fuzzy linkedin_url:exact\n' +
        '2,,,none,,\n',
    );
    expect(writeRows('ndjson', [], [{ id: 1 }], [none])).toBe(
      '{"id":1,"reference":null,"status":"none","score":null,"matched_on":null}\n',
    );
  });
});
