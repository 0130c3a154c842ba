import DataLoader from 'dataloader';

/** A loader of one record per key (null when none), fetched in one query per batch. */
export function oneByKey<Key, Row>(
  fetch: (keys: readonly Key[]) => Promise<Row[]>,
  keyOf: (row: Row) => Key,
): DataLoader<Key, Row | null> {
  return new DataLoader<Key, Row | null>(async (keys) => {
    const byKey = new Map<Key, Row>();
    for (const row of await fetch(keys)) byKey.set(keyOf(row), row);
    return keys.map((key) => byKey.get(key) ?? null);
  });
}

/** A loader of every record per key (in the order the query returns them), one query per batch. */
export function manyByKey<Key, Row>(
  fetch: (keys: readonly Key[]) => Promise<Row[]>,
  keyOf: (row: Row) => Key,
): DataLoader<Key, Row[]> {
  return new DataLoader<Key, Row[]>(async (keys) => {
    const byKey = new Map<Key, Row[]>();
    for (const row of await fetch(keys)) {
      const key = keyOf(row);
      const list = byKey.get(key);
      if (list) list.push(row);
      else byKey.set(key, [row]);
    }
    return keys.map((key) => byKey.get(key) ?? []);
  });
}
