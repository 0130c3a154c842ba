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

/**
 * {@link renderedOnce} for a statement with named parameters, each used any number of times: `build` receives a
 * stand-in per name, and the statement is completed with the values by name.
 */
export function renderedOnceWith<Name extends string>(
  build: (parameter: (name: Name) => SQL) => SQL,
): (values: Readonly<Record<Name, unknown>>) => SQL {
  let rendered: { pieces: SQL[]; names: Name[] } | undefined;
  return (values) => {
    if (!rendered) {
      const { sql: text, params } = dialect.sqlToQuery(build((name) => sql`${`\u0000${name}`}`));
      const pieces: SQL[] = [];
      const names: Name[] = [];
      let from = 0;
      for (const match of text.matchAll(/\$(\d+)/g)) {
        pieces.push(sql.raw(text.slice(from, match.index)));
        const stand = params[Number(match[1]) - 1];
        if (typeof stand !== 'string' || !stand.startsWith('\u0000'))
          throw new Error('a statement rendered once takes its values by name only');
        names.push(stand.slice(1) as Name);
        from = match.index + match[0].length;
      }
      pieces.push(sql.raw(text.slice(from)));
      rendered = { pieces, names };
    }
    const { pieces, names } = rendered;
    const chunks: SQL[] = [pieces[0]!];
    for (let i = 0; i < names.length; i++) chunks.push(sql`${values[names[i]!]}`, pieces[i + 1]!);
    return sql.join(chunks);
  };
}

/**
 * Statements made once per shape (`key`) and kept, for statements whose shape comes from a client's document: the
 * shapes a document can ask for are many, so past `limit` the kept ones are dropped and made again on demand.
 */
export function perShape<Statement>(limit = 256): (key: string, make: () => Statement) => Statement {
  const kept = new Map<string, Statement>();
  return (key, make) => {
    let statement = kept.get(key);
    if (!statement) {
      if (kept.size >= limit) kept.clear();
      statement = make();
      kept.set(key, statement);
    }
    return statement;
  };
}
