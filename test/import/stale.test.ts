import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { confirmKnownLines } from '../../src/db/bulk/staging.ts';
import { queryRows } from '../../src/db/database.ts';
import { importFiles, newReference, organisation, useImportStore, writeRecords } from './support.ts';

// Lets a test write to the store between the lookup of an import's known lines and their confirmation.
vi.mock('../../src/db/bulk/staging.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/db/bulk/staging.ts')>();
  return { ...actual, confirmKnownLines: vi.fn(actual.confirmKnownLines) };
});
const confirm = vi.mocked(confirmKnownLines);
const { confirmKnownLines: confirmForReal } = await vi.importActual<
  typeof import('../../src/db/bulk/staging.ts')
>('../../src/db/bulk/staging.ts');

const imports = useImportStore('stale');

describe('a line the store knows', () => {
  it('is rejected when another writer changes its record while the import runs, and a rerun stores it', async () => {
    const references = [newReference(), newReference(), newReference()];
    const path = await writeRecords(
      join(imports.directory, 'organisations.ndjson'),
      references.map((reference, index) => organisation(reference, { name: `Stale Test ${index}` })),
    );
    expect((await importFiles(imports.handle, [path])).summary.written).toBe(3);

    confirm.mockImplementationOnce(async (session, type) => {
      // Another writer renames one of the organisations after its line was found known (its digest is forgotten).
      await imports.handle.db.execute(
        sql`update organisations set name = 'Renamed elsewhere' where reference = ${references[1]}`,
      );
      return confirmForReal(session, type);
    });
    const during = await importFiles(imports.handle, [path]);
    expect(confirm).toHaveBeenCalledWith(expect.anything(), 'organisation');
    expect(during.summary.types.organisation).toEqual({
      inserted: 0,
      updated: 0,
      unchanged: 2,
      deleted: 0,
      rejected: 1,
    });
    expect(during.rejects).toEqual([
      expect.objectContaining({
        line: 2,
        reasons: ['the stored record changed while this import ran: import it again'],
      }),
    ]);

    const rerun = await importFiles(imports.handle, [path]);
    expect(rerun.summary.types.organisation).toMatchObject({ updated: 1, unchanged: 2, rejected: 0 });
    const [stored] = await queryRows<{ name: string }>(
      imports.handle.db,
      sql`select name from organisations where reference = ${references[1]}`,
    );
    expect(stored?.name).toBe('Stale Test 1');
  });
});
