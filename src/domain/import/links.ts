import type { CanonicalRecord } from './canonical.ts';
import { type RecordType, recordLinks } from './records.ts';

/** The values at a path of the form `$.a`, `$.a[*]`, `$.a[*].b.c` (the forms `recordLinks` uses). */
export function valuesAt(value: unknown, path: string): unknown[] {
  let current: unknown[] = [value];
  for (const step of path.replace(/^\$\.?/, '').split('.')) {
    const spread = step.endsWith('[*]');
    const key = spread ? step.slice(0, -3) : step;
    const next: unknown[] = [];
    for (const item of current) {
      if (item === null || typeof item !== 'object') continue;
      const inner = (item as Record<string, unknown>)[key];
      if (spread) {
        if (Array.isArray(inner)) next.push(...inner);
      } else next.push(inner);
    }
    current = next;
  }
  return current;
}

/** Every link of a record: the path it sits at and the key it names (null links are not links). */
export function linksOf(type: RecordType, record: CanonicalRecord): [string, string][] {
  const links: [string, string][] = [];
  for (const link of recordLinks[type]) {
    for (const value of valuesAt(record, link.path)) {
      if (typeof value === 'string') links.push([link.path, value]);
    }
  }
  return links;
}
