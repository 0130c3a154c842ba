import type { Plan } from '../auth/plans.ts';
import type { Viewer } from '../auth/tokens.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { createLoaders, type Loaders } from '../domain/loaders.ts';

/** What a request carries through both transports: the database, the caller and its loaders. */
export interface RequestContext {
  /** Where reads go: the read replica when one is configured, else the primary. */
  db: Database;
  /** The primary, for writes and for records a client must read right after writing them. */
  primaryDb: Database;
  config: Config;
  plans: ReadonlyMap<string, Plan>;
  viewer: Viewer | null;
  loaders: Loaders;
  correlationId: string;
  /** Aborts when the server begins to shut down (see `AppServices.closing`). */
  closing: AbortSignal;
}

/** The loaders are made on first use: most REST routes read without them. */
export function createRequestContext(input: Omit<RequestContext, 'loaders'>): RequestContext {
  let loaders: Loaders | undefined;
  return {
    ...input,
    get loaders() {
      loaders ??= createLoaders(input.db, input.primaryDb);
      return loaders;
    },
  };
}
