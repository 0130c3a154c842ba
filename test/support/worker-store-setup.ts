import { inject } from 'vitest';
import { storeOfWorker } from './worker-stores.ts';

// Runs before each test file: on the embedded store, point the file (and every process it starts) at its worker's copy.
const stores = inject('embeddedStores');
if (stores.length > 0) process.env.DATA_DIR = storeOfWorker(stores, process.env.VITEST_POOL_ID);
