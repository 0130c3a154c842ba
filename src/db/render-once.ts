import type { SQL } from 'drizzle-orm';
import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';

const dialect = new PgDialect({ casing: 'snake_case' });

/**
 * A statement with one parameter, rendered to text on first use and then only completed with each value:
 * Drizzle renders a query anew on every execution, a visible cost for the organisation record's long statement
 * (bench/NOTES.md 9).
 * `build` receives the parameter's stand-in and must use it exactly once.
 */
export function renderedOnce(build: (parameter: SQL) => SQL): (value: unknown) => SQL {
  let pieces: { before: string; after: string } | undefined;
  return (value) => {
    if (!pieces) {
      const { sql: text, params } = dialect.sqlToQuery(build(sql`${'parameter'}`));
      const split = text.split('$1');
      if (params.length !== 1 || split.length !== 2)
        throw new Error('a statement rendered once takes one parameter');
      pieces = { before: split[0]!, after: split[1]! };
    }
    return sql`${sql.raw(pieces.before)}${value}${sql.raw(pieces.after)}`;
  };
}
