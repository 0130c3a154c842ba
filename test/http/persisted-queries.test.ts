import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createPersistedQueryStore, type PersistedQueryStore } from '../../src/http/persisted-queries.ts';
import { testRedisUrl } from '../access/instances.ts';
import { testServices } from '../support/services.ts';

const opened: PersistedQueryStore[] = [];
function open(...args: Parameters<typeof createPersistedQueryStore>): PersistedQueryStore {
  const store = createPersistedQueryStore(...args);
  opened.push(store);
  return store;
}
afterAll(async () => {
  for (const store of opened) await store.close();
});

describe('the persisted-query store', () => {
  it('keeps at most its bound in memory, forgetting the least recently used first', async () => {
    const store = open({}, { maxInMemory: 3 });
    expect(store.shared).toBe('memory');
    for (const name of ['a', 'b', 'c']) await store.set(name, `{ ${name} }`);
    expect(await store.get('a')).toBe('{ a }'); // a is now the most recently used
    await store.set('d', '{ d }');
    expect(await store.get('b')).toBeUndefined();
    expect(await Promise.all(['a', 'c', 'd'].map((name) => store.get(name)))).toEqual([
      '{ a }',
      '{ c }',
      '{ d }',
    ]);
  });

  it('shares queries between instances through Redis', async ({ skip }) => {
    if (testServices.redisMissing) skip(testServices.redisMissing);
    const one = open({ redisUrl: testRedisUrl });
    const other = open({ redisUrl: testRedisUrl });
    expect(one.shared).toBe('redis');
    const hash = `test-${randomUUID()}`;
    await one.set(hash, '{ __typename }');
    expect(await other.get(hash)).toBe('{ __typename }');
    expect(await other.get(`test-${randomUUID()}`)).toBeUndefined();
  });

  it('answers from memory when Redis cannot be reached', async () => {
    const store = open({ redisUrl: 'redis://127.0.0.1:1' });
    const started = Date.now();
    await store.set('kept', '{ kept }');
    expect(await store.get('kept')).toBe('{ kept }');
    expect(await store.get('never-stored')).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
