import type { CanonicalRecord } from './canonical.ts';
import { type RecordType, recordLinks } from './records.ts';

/** A path's steps: the key at each, and whether its value is a list to spread. */
type Steps = readonly { key: string; spread: boolean }[];
const compiled = new Map<string, Steps>();

function stepsOf(path: string): Steps {
  let steps = compiled.get(path);
  if (!steps) {
    steps = path
      .replace(/^\$\.?/, '')
      .split('.')
      .map((step) =>
        step.endsWith('[*]') ? { key: step.slice(0, -3), spread: true } : { key: step, spread: false },
      );
    compiled.set(path, steps);
  }
  return steps;
}

/** The values at a path of the form `$.a`, `$.a[*]`, `$.a[*].b.c` (the forms `recordLinks` uses). */
export function valuesAt(value: unknown, path: string): unknown[] {
  let current: unknown[] = [value];
  for (const { key, spread } of stepsOf(path)) {
    const next: unknown[] = [];
    for (const item of current) {
      if (item === null || typeof item !== 'object') continue;
      const inner = (item as Record<string, unknown>)[key];
      if (!spread) next.push(inner);
      else if (Array.isArray(inner)) for (const entry of inner) next.push(entry);
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
