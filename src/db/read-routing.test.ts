import { describe, expect, it } from 'vitest';
import type { Database, DatabaseHandle } from './database.ts';
import {
  createReadRouting,
  describeDatabase,
  parseLsn,
  type ReadRoutingEvents,
  recordEndAt,
} from './read-routing.ts';

describe('parseLsn', () => {
  it('orders WAL positions as PostgreSQL does, across the 32-bit boundary', () => {
    expect(parseLsn('0/0')).toBe(0n);
    expect(parseLsn('0/16B3748')).toBe(0x16b3748n);
    expect(parseLsn('1/0')).toBe(0x1_0000_0000n);
    expect(parseLsn('0/FFFFFFFF') < parseLsn('1/0')).toBe(true);
    expect(parseLsn('16/B374D848') > parseLsn('16/B374D847')).toBe(true);
    expect(() => parseLsn('16')).toThrow(/Not a WAL position/);
  });
});

describe('describeDatabase', () => {
  it('names host, port and database without the credentials', () => {
    expect(describeDatabase('postgres://reader:secret@replica.internal:6432/orgraph?sslmode=require')).toBe(
      'replica.internal:6432/orgraph',
    );
    expect(describeDatabase('postgresql://127.0.0.1/app')).toBe('127.0.0.1:5432/app');
  });
});

describe('recordEndAt', () => {
  it('moves an insert position that sits just past a page header back to the page boundary', () => {
    expect(recordEndAt(parseLsn('0/3000018'))).toBe(parseLsn('0/3000000')); // 24 into a page
    expect(recordEndAt(parseLsn('0/3000028'))).toBe(parseLsn('0/3000000')); // 40: a segment's first page
    expect(recordEndAt(parseLsn('0/3000030'))).toBe(parseLsn('0/3000030'));
    expect(recordEndAt(parseLsn('0/3001F00'))).toBe(parseLsn('0/3001F00'));
  });
});

/** A handle whose `execute` answers `answer()` and counts its calls; enough of a client for Drizzle to wrap. */
function fakeHandle(answer: () => Promise<unknown[]>) {
  const calls = { count: 0 };
  const db = {
    execute: async () => {
      calls.count += 1;
      return answer();
    },
  } as unknown as Database;
  const handle = {
    db,
    driver: { kind: 'postgres', client: { options: { parsers: {}, serializers: {} } } },
    close: async () => {},
  } as unknown as DatabaseHandle;
  return { handle, calls };
}

const at = (lsn: string | null) => async () => [{ lsn }];

function routing(primaryLsn: () => Promise<unknown[]>, replicaLsn: () => Promise<unknown[]>, maxLagMs = 20) {
  const primary = fakeHandle(primaryLsn);
  const replica = fakeHandle(replicaLsn);
  const changes: Parameters<NonNullable<ReadRoutingEvents['stateChanged']>>[0][] = [];
  const reasons: string[] = [];
  const reads = createReadRouting(primary.handle, replica.handle, 'postgres://u:p@replica:5433/app', {
    maxLagMs,
    probeMs: 10,
    events: {
      stateChanged: (change) => changes.push(change),
      readOnPrimary: (reason) => reasons.push(reason),
    },
  });
  return { reads, primary, replica, changes, reasons };
}

describe('createReadRouting', () => {
  it('shares one fence between the requests that arrive together, and asks the replica nothing below a position it saw', async () => {
    const { reads, primary, replica } = routing(at('0/100'), at('0/100'));
    const chosen = await Promise.all(Array.from({ length: 10 }, () => reads.choose()));
    expect(new Set(chosen).size).toBe(1);
    expect(chosen[0]).not.toBe(primary.handle.db);
    // The first fence, and one more for every request that arrived while it ran.
    expect(primary.calls.count).toBe(2);
    expect(replica.calls.count).toBe(1);
    expect(reads.state).toBe('serving');
    await reads.close();
  });

  it('sends reads to the primary once the replica misses the bound, and back once it has caught up', async () => {
    let replayed = '0/50';
    const { reads, primary, replica, changes, reasons } = routing(at('0/100'), async () => [
      { lsn: replayed },
    ]);
    expect(await reads.choose()).toBe(primary.handle.db);
    expect(reads.state).toBe('lagging');
    const asked = replica.calls.count;
    expect(asked).toBeGreaterThan(1);
    // Lagging: one question, no waiting.
    expect(await reads.choose()).toBe(primary.handle.db);
    expect(replica.calls.count).toBe(asked + 1);
    replayed = '0/100';
    expect(await reads.choose()).not.toBe(primary.handle.db);
    expect(changes.map((change) => change.state)).toEqual(['lagging', 'serving']);
    expect(reasons).toEqual(['lagging', 'lagging']);
    await reads.close();
  });

  it('gives no reads to a server without a replay position', async () => {
    const { reads, primary, changes } = routing(at('0/100'), at(null));
    expect(await reads.choose()).toBe(primary.handle.db);
    expect(reads.state).toBe('not-a-standby');
    expect(changes).toEqual([{ state: 'not-a-standby', previous: 'serving', replica: 'replica:5433/app' }]);
    await reads.close();
  });

  it('counts a refusing replica as down, reads from the primary without asking it, and notices its return', async () => {
    let up = false;
    const { reads, primary, replica, changes } = routing(at('0/100'), async () => {
      if (!up) throw Object.assign(new Error('connect ECONNREFUSED 10.0.0.2:5433'), { code: 'ECONNREFUSED' });
      return [{ lsn: '0/100' }];
    });
    expect(await reads.choose()).toBe(primary.handle.db);
    expect(reads.state).toBe('down');
    const asked = replica.calls.count;
    expect(await reads.choose()).toBe(primary.handle.db);
    expect(primary.calls.count).toBe(1);
    up = true;
    for (let wait = 0; wait < 100 && reads.state === 'down'; wait += 1)
      await new Promise((r) => setTimeout(r, 10));
    expect(reads.state).toBe('serving');
    expect(replica.calls.count).toBeGreaterThan(asked);
    expect(changes[0]).toMatchObject({ state: 'down', error: 'connect ECONNREFUSED 10.0.0.2:5433' });
    expect(changes[1]).toMatchObject({ state: 'serving', previous: 'down', downMs: expect.any(Number) });
    expect(await reads.choose()).not.toBe(primary.handle.db);
    await reads.close();
  });

  it('reads the primary when the primary cannot give its position', async () => {
    const { reads, primary, reasons } = routing(async () => {
      throw new Error('timeout');
    }, at('0/100'));
    expect(await reads.choose()).toBe(primary.handle.db);
    expect(reasons).toEqual(['unfenced']);
    await reads.close();
  });
});
