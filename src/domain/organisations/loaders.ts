import { inArray } from 'drizzle-orm';
import type { Database } from '../../db/database.ts';
import { organisationsTable } from '../../db/schema/organisations.ts';
import { oneByKey } from '../batch.ts';

export function createOrganisationLoaders(db: Database) {
  return {
    organisationByReference: oneByKey(
      (references: readonly string[]) =>
        db
          .select()
          .from(organisationsTable)
          .where(inArray(organisationsTable.reference, [...references])),
      (row) => row.reference,
    ),
  };
}
