import type { Database } from '../db/database.ts';
import { createArticleLoaders } from './articles/loaders.ts';
import { createEventLoaders } from './events/loaders.ts';
import { createOrganisationLoaders } from './organisations/loaders.ts';
import { createOwnershipLoaders } from './ownership/loaders.ts';
import { createProfileLoaders } from './profiles/loaders.ts';
import { createSearchLoaders } from './searches/loaders.ts';

/** Every dataloader of a request, made together so none is attached lazily; named by their key. */
/** `primaryDb` serves the records a client reads right after writing them (saved searches). */
export function createLoaders(db: Database, primaryDb: Database = db) {
  return {
    ...createOrganisationLoaders(db),
    ...createProfileLoaders(db),
    ...createArticleLoaders(db),
    ...createEventLoaders(db),
    ...createOwnershipLoaders(db),
    ...createSearchLoaders(primaryDb),
  };
}

export type Loaders = ReturnType<typeof createLoaders>;
