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

export interface KeyWithArguments<Args> {
  reference: string;
  args: Args;
}

/**
 * A loader of a paged list per record where the page depends on arguments (filters, window): keys
 * sharing the same arguments are fetched in one call, so a nested list over many parents costs one
 * query per distinct argument set, not one per parent. Records absent from the fetched map get `empty`.
 */
export function loaderByArguments<Args, Result>(
  fetch: (references: readonly string[], args: Args) => Promise<Map<string, Result>>,
  empty: () => Result,
): DataLoader<KeyWithArguments<Args>, Result, string> {
  return new DataLoader<KeyWithArguments<Args>, Result, string>(
    async (keys) => {
      const groups = new Map<string, { args: Args; references: Set<string> }>();
      for (const key of keys) {
        const id = JSON.stringify(key.args);
        const group = groups.get(id);
        if (group) group.references.add(key.reference);
        else groups.set(id, { args: key.args, references: new Set([key.reference]) });
      }
      const results = new Map<string, Map<string, Result>>();
      await Promise.all(
        [...groups].map(async ([id, group]) => {
          results.set(id, await fetch([...group.references], group.args));
        }),
      );
      return keys.map((key) => results.get(JSON.stringify(key.args))?.get(key.reference) ?? empty());
    },
    { cacheKeyFn: (key) => JSON.stringify([key.reference, key.args]) },
  );
}
