import DataLoader from 'dataloader';
import { describe, expect, it } from 'vitest';
import type { Database } from '../db/database.ts';
import { createLoaders } from './loaders.ts';

const db = {} as Database;

describe('createLoaders', () => {
  it('gives the same loader for the whole request and a new one to the next request', () => {
    const request = createLoaders(db);
    const next = createLoaders(db);
    expect(request.organisationByReference).toBeInstanceOf(DataLoader);
    expect(request.organisationByReference).toBe(request.organisationByReference);
    expect(request.aliasesByOrganisation).toBe(request.aliasesByOrganisation);
    expect(next.organisationByReference).not.toBe(request.organisationByReference);
  });

  it('reaches every loader of every area, each a distinct DataLoader', () => {
    const loaders = createLoaders(db) as unknown as Record<string, unknown>;
    const names: string[] = [];
    for (
      let proto = Object.getPrototypeOf(loaders);
      proto !== Object.prototype;
      proto = Object.getPrototypeOf(proto)
    )
      names.push(...Object.getOwnPropertyNames(proto).filter((name) => name !== 'constructor'));
    expect(names.length).toBeGreaterThan(30);
    const made = names.map((name) => loaders[name]);
    for (const loader of made) expect(loader).toBeInstanceOf(DataLoader);
    expect(new Set(made).size).toBe(names.length);
  });
});
