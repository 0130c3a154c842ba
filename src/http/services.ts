import { setMaxListeners } from 'node:events';
import type { Plan } from '../auth/plans.ts';
import type { ViewerCache } from '../auth/viewer-cache.ts';
import type { Config } from '../config.ts';
import type { Database, DatabaseHandle } from '../db/database.ts';
import type { ReadRouting } from '../db/read-routing.ts';
import type { Quotas } from './limits/quotas.ts';
import type { PersistedQueryStore } from './persisted-queries.ts';

/** What lives for the whole process and every request shares. */
export interface AppServices {
  config: Config;
  handle: DatabaseHandle;
  /** The primary: writes, tokens and saved searches (read-your-writes). */
  db: Database;
  /** Where reads go when a replica (`DATABASE_READ_URL`) is configured; absent, they share the primary. */
  reads?: ReadRouting | null;
  plans: ReadonlyMap<string, Plan>;
  /** False until the database is migrated, and again once shutdown begins. */
  readiness: { accepting: boolean };
  /** Aborts when shutdown begins: a stream that would run until its client leaves (a subscription) ends on it. */
  closing: AbortSignal;
  /** Viewers of tokens seen lately, emptied by PostgreSQL on every token change; absent on the embedded store. */
  viewerCache?: ViewerCache | null;
  /** Per-token request and GraphQL cost budgets; created by the app from the config when absent. */
  quotas?: Quotas;
  /** The graph's automatic persisted queries; created by the app from the config when absent. */
  persistedQueries?: PersistedQueryStore;
}

/** The controller behind `AppServices.closing`. Every open stream listens on it, so it has no listener limit. */
export function createClosing(): AbortController {
  const closing = new AbortController();
  setMaxListeners(0, closing.signal);
  return closing;
}
