import { describe, expect, it } from 'vitest';
import { requireUnmappedColumns } from './prepared-query.ts';
import { articlesTable } from './schema/articles.ts';
import { organisationsTable } from './schema/organisations.ts';
import { experiencesTable, profilesTable } from './schema/profiles.ts';

describe('requireUnmappedColumns', () => {
  it('admits the tables the read plan hands out as driver rows', () => {
    for (const table of [organisationsTable, profilesTable, experiencesTable]) {
      expect(() => requireUnmappedColumns(table)).not.toThrow();
    }
  });

  it('refuses a table with a column Drizzle maps', () => {
    expect(() => requireUnmappedColumns(articlesTable)).toThrow(
      'publishedAt (PgTimestamp) is a column Drizzle maps',
    );
  });
});
