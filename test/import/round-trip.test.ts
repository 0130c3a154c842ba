import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedTables } from '../../src/db/bulk/documents.ts';
import { queryRows } from '../../src/db/database.ts';
import { exportRecords } from '../../src/domain/import/export-records.ts';
import { recordTypes } from '../../src/domain/import/records.ts';
import { schema } from '../../src/graphql/schema.ts';
import { writeUnlimitedPlansFile } from '../reliability/support/fuzz.ts';
import { generatedOperations, type KnownValues } from '../reliability/support/graphql-documents.ts';
import { openTestApp, type TestApp } from '../support/test-app.ts';
import { type ImportStore, importFiles, openImportStore, scratchDirectory } from './support.ts';

/**
 * The demo dataset (the test database, seeded at scale 1) exported, imported into an empty store, and the same
 * requests asked of both: every REST endpoint for a sample of references and a range of list filters, and
 * GraphQL operations generated over the whole schema with those references.
 */

let source: TestApp;
let target: TestApp;
let store: ImportStore;
let files: Awaited<ReturnType<typeof scratchDirectory>>;
let exported: Record<string, number>;
let imported: Awaited<ReturnType<typeof importFiles>>;
const samples: Record<string, string[]> = {};

beforeAll(async () => {
  const plans = writeUnlimitedPlansFile();
  source = await openTestApp({ PLANS_FILE: plans });
  files = await scratchDirectory('round-trip');
  const { createWriteStream } = await import('node:fs');
  const streams = new Map(
    recordTypes.map((type) => [type, createWriteStream(join(files.path, `${type}s.ndjson`))]),
  );
  exported = await exportRecords(source.services.handle, recordTypes, async (type, lines) => {
    streams.get(type)!.write(`${lines.join('\n')}\n`);
  });
  await Promise.all([...streams.values()].map((s) => new Promise((resolve) => s.end(resolve))));
  for (const [table, key] of [
    ['organisations', 'organisation'],
    ['profiles', 'profile'],
    ['articles', 'article'],
    ['events', 'event'],
  ] as const) {
    const rows = await queryRows<{ reference: string }>(
      source.services.db,
      sql`select reference::text as reference from ${sql.identifier(table)} order by md5(reference::text) limit 12`,
    );
    samples[key] = rows.map((row) => row.reference);
  }
  store = await openImportStore('roundtrip');
  // Types in reverse order of storage: the importer must resolve what comes later.
  imported = await importFiles(store.handle, importedFiles());
  await store.handle.close();
  target = await openTestApp({ ...store.env, PLANS_FILE: plans });
}, 600_000);

const importedFiles = () => [...recordTypes].reverse().map((type) => join(files.path, `${type}s.ndjson`));

/** A table's rows, counted and digested in a stable order. */
async function tableDigest(db: TestApp['services']['db'], table: string): Promise<string> {
  const [row] = await queryRows<{ digest: string }>(
    db,
    sql.raw(
      `select count(*) || ' ' || md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as digest from ${table} t`,
    ),
  );
  return row?.digest ?? '';
}

afterAll(async () => {
  await source?.close();
  await target?.close();
  await store?.close();
  await files?.remove();
});

const strip = (body: Record<string, unknown>) => {
  const { correlation_id: _, ...rest } = body;
  return rest;
};

let restAnswered = 0;
async function sameRest(path: string) {
  const [a, b] = await Promise.all([source.getJson(path), target.getJson(path)]);
  if (a.status === 200 && JSON.stringify(a.body.success).length > 50) restAnswered += 1;
  expect(b.status, path).toBe(a.status);
  expect(strip(b.body as never), path).toEqual(strip(a.body as never));
}

describe('export, then import into an empty store', () => {
  it('imports every exported record and rejects none', () => {
    expect(imported.rejects).toEqual([]);
    for (const type of recordTypes) {
      expect(imported.summary.types[type]?.inserted, type).toBe(exported[type]);
    }
    expect(exported.organisation).toBeGreaterThan(1000);
    expect(imported.summary.initial_load).toBe(true);
  });

  it('stores the same rows, column for column, as an import of the same records from standard input', async () => {
    // From files the records were staged as the rows they are stored as; from a stream read once, as documents.
    const once = await openImportStore('roundtrip_once');
    try {
      const again = await importFiles(once.handle, importedFiles(), { readOnce: true });
      expect(again.summary).toMatchObject({
        initial_load: true,
        rejected: 0,
        written: imported.summary.written,
      });
      const tables = [...new Set(Object.values(storedTables).flat())];
      expect(tables.length).toBeGreaterThan(20);
      for (const table of tables) {
        expect(await tableDigest(once.handle.db, table), table).toBe(
          await tableDigest(target.services.db, table),
        );
      }
    } finally {
      await once.close();
    }
  }, 600_000);

  it('gives the same REST answers', async () => {
    const lists = [
      '/v1/organisations',
      '/v1/organisations?show_empty=true&limit=100',
      '/v1/organisations?show_empty=true&page=7&limit=50',
      '/v1/organisations?name=an&show_empty=true',
      '/v1/organisations?country=FR&type=all',
      '/v1/organisations?industry=40&status=all',
      '/v1/organisations?has_raum=true&type=fund',
      '/v1/organisations?activity_type=move,funding&activity_period=year',
      '/v1/organisations?score_dimension=growth_momentum&score_min=80',
      '/v1/profiles?limit=100',
      '/v1/profiles?search=ma&page=2',
      '/v1/profiles?profileType=business_owner',
      '/v1/profiles?profileType=funding_participant',
      '/v1/events?limit=200',
      '/v1/events?eventType=deal&limit=100',
      '/v1/events?eventType=client_summary',
      '/v1/search/suggestions?query=tech',
      '/v1/search/suggestions?query=director&limit=50',
    ];
    for (const path of lists) await sameRest(path);
    for (const reference of samples.organisation!) {
      await sameRest(`/v1/organisations/${reference}`);
      await sameRest(`/v1/organisations/${reference}/people`);
      await sameRest(`/v1/organisations/${reference}/ownership`);
      await sameRest(`/v1/profiles?organisationReference=${reference}`);
    }
    for (const reference of samples.profile!) {
      await sameRest(`/v1/profiles/${reference}`);
      await sameRest(`/v1/profiles/${reference}/articles`);
      await sameRest(`/v1/profiles/${reference}/articles?collapse=none&role=about`);
      await sameRest(`/v1/profiles/${reference}/ownership`);
    }
    for (const reference of samples.article!) await sameRest(`/v1/articles/${reference}`);
    for (const reference of samples.event!) await sameRest(`/v1/events/${reference}`);
    // Most of them answer with records, not with an empty list or an error.
    expect(restAnswered).toBeGreaterThan(100);
  }, 300_000);

  it('gives the same GraphQL answers', async () => {
    const documents = await Promise.all(
      ['organisation.graphql', 'organisation-people-articles.graphql'].map((name) =>
        readFile(new URL(`../../src/client/graphql/${name}`, import.meta.url), 'utf8'),
      ),
    );
    const fixed: { query: string; variables: Record<string, unknown> }[] = [
      ...samples.organisation!.map((reference) => ({ query: documents[0]!, variables: { reference } })),
      { query: documents[1]!, variables: { first: 10, articlesPerPerson: 3 } },
      { query: documents[1]!, variables: { first: 10, articlesPerPerson: 3, filter: { showEmpty: true } } },
      ...samples.profile!.map((reference) => ({
        query: `query ($reference: UUID!) { profile(reference: $reference) {
          reference fullName firstName lastName linkedinUrl confidenceScore
          currentRole { reference } experiences { reference } emails { value }
          stakes { reference } events(first: 20) { edges { node { reference eventType summary } } } } }`,
        variables: { reference },
      })),
      ...samples.article!.map((reference) => ({
        query: `query ($reference: UUID!) { article(reference: $reference) {
          reference title url publishedAt content licence offsetsUnit
          annotations { reference } organisations { reference name } events { reference eventType } } }`,
        variables: { reference },
      })),
      ...samples.event!.map((reference) => ({
        query: `query ($reference: UUID!) { event(reference: $reference) {
          reference eventType summary publishDate links organisation { reference name } } }`,
        variables: { reference },
      })),
    ];
    const known: KnownValues = { uuids: [], nodeIds: [] };
    const kinds = {
      organisation: 'Organisation',
      profile: 'Profile',
      article: 'Article',
      event: 'Event',
    } as const;
    for (const [key, type] of Object.entries(kinds)) {
      for (const reference of samples[key]!.slice(0, 3)) {
        known.uuids.push(reference);
        known.nodeIds.push(Buffer.from(`${type}:${reference}`).toString('base64'));
      }
    }
    const generated = fc
      .sample(generatedOperations(schema, known), { numRuns: 150, seed: 18 })
      .filter((operation) => !operation.query.trimStart().startsWith('mutation'));
    let answered = 0;
    for (const operation of [...fixed, ...generated]) {
      const [a, b] = await Promise.all([
        source.graphql(operation.query, operation.variables),
        target.graphql(operation.query, operation.variables),
      ]);
      expect(b.status, operation.query).toBe(a.status);
      expect(b.body.data, operation.query).toEqual(a.body.data);
      expect(
        b.body.errors?.map((e) => [e.message, e.extensions?.code]),
        operation.query,
      ).toEqual(a.body.errors?.map((e) => [e.message, e.extensions?.code]));
      if (JSON.stringify(a.body.data ?? null).includes('"reference"')) answered += 1;
    }
    // Many of them reach records, rather than only failing the same way on both.
    expect(answered).toBeGreaterThan(45);
  }, 300_000);
});
