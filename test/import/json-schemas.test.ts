import { readdir, readFile } from 'node:fs/promises';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { importJsonSchemas } from '../../src/domain/import/json-schemas.ts';
import { recordTypes } from '../../src/domain/import/records.ts';

const directory = new URL('../../schemas/import/', import.meta.url);

describe('the shipped JSON Schemas of the import records', () => {
  it('are the ones the importer generates (run `npm run schemas:import` after changing a record)', async () => {
    const generated = importJsonSchemas();
    expect((await readdir(directory)).sort()).toEqual(recordTypes.map((type) => `${type}.json`).sort());
    for (const type of recordTypes) {
      const shipped = await readFile(new URL(`${type}.json`, directory), 'utf8');
      expect(shipped, type).toBe(`${JSON.stringify(generated[type], null, 2)}\n`);
    }
  });

  it('accept an exported record and its deletion, and refuse an unknown field', () => {
    const ajv = new Ajv2020({ strict: false });
    const validate = ajv.compile(importJsonSchemas().experience);
    const record = {
      type: 'experience',
      reference: '0b0a4e4c-4a31-4f43-9bd6-1d8d0b6c2f10',
      profile_reference: '5d7f2f38-5d3c-4f0f-b8a4-1c2d3e4f5a6b',
      occupation_title: 'Analyst',
    };
    expect(validate(record)).toBe(true);
    expect(validate({ type: 'experience', reference: record.reference, deleted: true })).toBe(true);
    expect(validate({ ...record, colour: 'blue' })).toBe(false);
  });
});
