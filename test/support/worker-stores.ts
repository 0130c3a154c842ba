import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';

/**
 * The embedded store admits one process at a time, so test files that run side by side cannot share one. Global
 * setup seeds one store (the template, closed again before it is read) and copies it once per vitest worker; each
 * worker's files then use their own copy (`worker-store-setup.ts`), and so do the CLI processes and servers they
 * start, which inherit DATA_DIR. It also keeps a migrated empty store, which files that need a store of their own
 * copy rather than create and migrate one each (creating an embedded store takes seconds).
 */
declare module 'vitest' {
  export interface ProvidedContext {
    /** The embedded stores, one per worker (index: VITEST_POOL_ID - 1); empty on PostgreSQL. */
    embeddedStores: string[];
    /** A migrated store with no data, to copy; '' on PostgreSQL. */
    emptyStore: string;
    /** The migrated store holding the demo dataset (scale 1) the workers' stores were copied from; '' on PostgreSQL. */
    seededStore: string;
  }
}

/** Copies the closed store at `template` to `<template>-1` … `<template>-<workers>`, replacing earlier copies. */
export async function copyStorePerWorker(template: string, workers: number): Promise<string[]> {
  const stores = Array.from({ length: workers }, (_, index) => `${template}-${index + 1}`);
  await Promise.all(
    stores.map(async (store) => {
      await rm(store, { recursive: true, force: true });
      await cp(template, store, { recursive: true });
    }),
  );
  return stores;
}

/** The store of the worker with this VITEST_POOL_ID. */
export function storeOfWorker(stores: string[], poolId: string | undefined): string {
  const store = stores[Number(poolId ?? '1') - 1];
  if (!store) throw new Error(`no embedded store for vitest worker ${poolId} (there are ${stores.length})`);
  return store;
}

/** Copies the migrated empty store to `directory` (created when missing); for a test file's own store. */
export async function copyEmptyStore(directory: string): Promise<void> {
  const template = inject('emptyStore');
  if (!template) throw new Error('no empty embedded store to copy: the run is on PostgreSQL');
  await cp(template, directory, { recursive: true });
}

/** Copies the store holding the demo dataset to `directory`: what `orgraph seed --scale 1` makes, without its minute. */
export async function copySeededStore(directory: string): Promise<void> {
  const template = inject('seededStore');
  if (!template) throw new Error('no seeded embedded store to copy: the run is on PostgreSQL');
  await cp(template, directory, { recursive: true });
}

/** A new temporary directory holding a copy of the migrated empty store. */
export async function temporaryEmptyStore(label: string): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), `orgraph-${label}-`));
  await copyEmptyStore(directory);
  return directory;
}
