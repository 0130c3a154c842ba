import { cp, rm } from 'node:fs/promises';

/**
 * The embedded store admits one process at a time, so test files that run side by side cannot share one. Global
 * setup seeds one store (the template, closed again before it is read) and copies it once per vitest worker; each
 * worker's files then use their own copy (`worker-store-setup.ts`), and so do the CLI processes and servers they
 * start, which inherit DATA_DIR.
 */
declare module 'vitest' {
  export interface ProvidedContext {
    /** The embedded stores, one per worker (index: VITEST_POOL_ID - 1); empty on PostgreSQL. */
    embeddedStores: string[];
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
