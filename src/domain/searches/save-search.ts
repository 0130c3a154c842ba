import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Database } from '../../db/database.ts';
import { type SavedSearch, savedSearchesTable } from '../../db/schema/searches.ts';
import { DomainError } from '../errors.ts';
import { fingerprintChips, invalidChipsMessage, parseChips, toStoredChips } from './chips.ts';

/**
 * Saves an event search and returns it; identical chips return the row saved first, also when
 * saved at the same moment (the fingerprint is unique, so concurrent inserts collapse into one).
 * Throws INVALID_CHIPS with the interface's message for a malformed chip list.
 */
export async function saveEventSearch(db: Database, query: unknown): Promise<SavedSearch> {
  const parsed = parseChips(query);
  if (!parsed.valid) throw new DomainError('INVALID_CHIPS', invalidChipsMessage);
  const fingerprint = fingerprintChips(parsed.chips);
  const [inserted] = await db
    .insert(savedSearchesTable)
    .values({
      queryId: randomUUID(),
      fingerprint,
      query: toStoredChips(parsed.chips),
      ignoredFieldTypes: parsed.ignoredFieldTypes,
    })
    .onConflictDoNothing({ target: savedSearchesTable.fingerprint })
    .returning();
  if (inserted) return inserted;
  // Another request saved the same chips first; its row is committed by the time the conflict is reported.
  const [existing] = await db
    .select()
    .from(savedSearchesTable)
    .where(eq(savedSearchesTable.fingerprint, fingerprint));
  if (!existing) throw new Error(`The saved search with fingerprint ${fingerprint} vanished`);
  return existing;
}

/** A saved search by its `queryId`; NOT_FOUND when none has it. */
export async function getSavedSearch(db: Database, queryId: string): Promise<SavedSearch> {
  const [search] = await db.select().from(savedSearchesTable).where(eq(savedSearchesTable.queryId, queryId));
  if (!search) {
    throw new DomainError(
      'NOT_FOUND',
      `No saved search has the queryId ${queryId}; save one with POST /v1/search/events (or the saveEventSearch mutation).`,
    );
  }
  return search;
}
