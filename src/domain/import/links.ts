import { linkCode } from '../../db/bulk/stored-links.ts';
import type { CanonicalRecord } from './canonical.ts';
import { type RecordType, recordLinks } from './records.ts';

/** A path's steps: the key at each, and whether its value is a list to spread. */
type Steps = readonly { key: string; spread: boolean }[];

/** The steps of a path of the form `$.a`, `$.a[*]`, `$.a[*].b.c` (the forms `recordLinks` uses). */
function stepsOf(path: string): Steps {
  return path
    .replace(/^\$\.?/, '')
    .split('.')
    .map((step) =>
      step.endsWith('[*]') ? { key: step.slice(0, -3), spread: true } : { key: step, spread: false },
    );
}

/** The values at the end of a path's steps (see stepsOf). */
function valuesAlong(value: unknown, steps: Steps): unknown[] {
  let current: unknown[] = [value];
  for (const { key, spread } of steps) {
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

const codedLinks = new Map<RecordType, { steps: Steps; code: number }[]>();

/** Every link of a record: the code of the link it is (linkCode) and the key it names (null links are not links). */
export function linksOf(type: RecordType, record: CanonicalRecord): [number, string][] {
  let coded = codedLinks.get(type);
  if (!coded) {
    coded = recordLinks[type].map((link) => ({ steps: stepsOf(link.path), code: linkCode(type, link.path) }));
    codedLinks.set(type, coded);
  }
  const links: [number, string][] = [];
  for (const link of coded) {
    for (const value of valuesAlong(record, link.steps)) {
      if (typeof value === 'string') links.push([link.code, value]);
    }
  }
  return links;
}
