import { afterAll, describe, expect, it } from 'vitest';
import { testServices } from '../../test/support/services.ts';
import { createGuardedPool } from './pool-guard.ts';
import { StatementPreparer } from './prepared-statements.ts';

describe('StatementPreparer', () => {
  it('prepares the first texts up to its limit, and those same texts again after it', () => {
    const preparer = new StatementPreparer(2);
    expect(preparer.shouldPrepare('select 1 where a = $1')).toBe(true);
    expect(preparer.shouldPrepare('select 2 where a = $1')).toBe(true);
    expect(preparer.shouldPrepare('select 3 where a = $1')).toBe(false);
    expect(preparer.shouldPrepare('select 1 where a = $1')).toBe(true);
    expect(preparer.size).toBe(2);
  });

  it('leaves a page whose limit or offset is a parameter unprepared, planned for its values', () => {
    const preparer = new StatementPreparer();
    expect(preparer.shouldPrepare('select "reference" from "events" order by 1 limit $1')).toBe(false);
    expect(preparer.shouldPrepare('select * from "events" LIMIT $3 OFFSET $4')).toBe(false);
    expect(preparer.shouldPrepare('select * from "events" limit 20')).toBe(true);
    expect(preparer.size).toBe(1);
  });
});

describe('the guarded pool', () => {
  // One connection of the tests' PostgreSQL server (the embedded run's fault tests use it too).
  const server = new URL(testServices.postgresUrl);
  const { client } = createGuardedPool(
    server.toString(),
    { onnotice: () => {} },
    { poolMax: 1, waitMs: 5000, silentMs: 2000, probeMs: 1000, retireGraceMs: 1000 },
  );
  afterAll(() => client.end({ timeout: 1 }));

  it('prepares a repeated statement once on its connection, and not a page with a parameter limit', async () => {
    const keyed = 'select $1::int + 1 as next';
    const page = 'select g from generate_series(1, 10) g order by g limit $1';
    for (const value of [1, 2, 3]) {
      expect(await client.unsafe(keyed, [value])).toEqual([{ next: value + 1 }]);
      expect((await client.unsafe(page, [value])).length).toBe(value);
    }
    const prepared = await client.unsafe<{ statement: string }[]>(
      'select statement from pg_prepared_statements where statement in ($1, $2)',
      [keyed, page],
    );
    expect(prepared.map((row) => row.statement)).toEqual([keyed]);
  });
});
