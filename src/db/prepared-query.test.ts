import { asc, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApp, type TestApp } from '../../test/support/test-app.ts';
import { plainBatchesByReferences, preparedByReferences } from './prepared-query.ts';
import { articlesTable } from './schema/articles.ts';
import { organisationsTable } from './schema/organisations.ts';
import { experiencesTable } from './schema/profiles.ts';

let app: TestApp;

beforeAll(async () => {
  app = await openTestApp();
});

afterAll(async () => {
  await app?.close();
});

describe('plainBatchesByReferences', () => {
  const e = experiencesTable;
  const order = sql`${e.profileReference}, ${e.endDate} is not null, ${e.reference}`;
  const experiencesOf = plainBatchesByReferences(
    preparedByReferences('test_plain_experiences', (db, match) =>
      db.select().from(e).where(match(e.profileReference)).orderBy(order),
    ),
    e,
    (references) => sql`where ${e.profileReference} = any(${references}) order by ${order}`,
  );
  const organisations = plainBatchesByReferences(
    preparedByReferences('test_plain_organisations', (db, match) =>
      db.select().from(organisationsTable).where(match(organisationsTable.reference)),
    ),
    organisationsTable,
    (references) =>
      sql`where ${organisationsTable.reference} = any(${references}) order by ${organisationsTable.reference}`,
  );

  it('gives a batch the rows Drizzle maps: the same keys, values and value types, in the same order', async () => {
    const db = app.services.db;
    const people = (await db.selectDistinct({ reference: e.profileReference }).from(e).limit(40)).map(
      (row) => row.reference,
    );
    const mapped = await db.select().from(e).where(inArray(e.profileReference, people)).orderBy(order);
    const plain = await experiencesOf(db, people);
    expect(mapped.length).toBeGreaterThan(40);
    expect(mapped.some((row) => row.endDate !== null && row.organisationReference !== null)).toBe(true);
    // The driver's rows are not plain Object instances on every driver, so they are compared by their entries.
    expect(plain.map((row) => Object.entries(row))).toStrictEqual(mapped.map((row) => Object.entries(row)));

    const places = [...new Set(mapped.flatMap((row) => row.organisationReference ?? []))];
    const mappedPlaces = await db
      .select()
      .from(organisationsTable)
      .where(inArray(organisationsTable.reference, places))
      .orderBy(asc(organisationsTable.reference));
    expect(mappedPlaces.length).toBe(places.length);
    const plainPlaces = await organisations(db, places);
    expect(plainPlaces.map((row) => Object.entries(row))).toStrictEqual(
      mappedPlaces.map((row) => Object.entries(row)),
    );
  });

  it('leaves one reference to the prepared query', async () => {
    const db = app.services.db;
    const [first] = await db.select().from(organisationsTable).limit(1);
    expect(await organisations(db, [first!.reference])).toStrictEqual([first]);
  });

  it('refuses a table with a column Drizzle maps', () => {
    const a = articlesTable;
    expect(() =>
      plainBatchesByReferences(
        preparedByReferences('test_plain_articles', (db, match) =>
          db.select().from(a).where(match(a.reference)),
        ),
        a,
        (references) => sql`where ${a.reference} = any(${references})`,
      ),
    ).toThrow('publishedAt (PgTimestamp) is a column Drizzle maps');
  });
});
