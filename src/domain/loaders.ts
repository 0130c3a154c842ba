import type { Database } from '../db/database.ts';
import { createArticleLoaders } from './articles/loaders.ts';
import { createEventLoaders } from './events/loaders.ts';
import { createOrganisationLoaders } from './organisations/loaders.ts';
import { createOwnershipLoaders } from './ownership/loaders.ts';
import { createProfileLoaders } from './profiles/loaders.ts';
import { createSearchLoaders } from './searches/loaders.ts';

/**
 * The dataloaders of each domain area. `primaryDb` serves the records a client reads right after writing them
 * (saved searches); the rest read from `db`.
 */
const groups = [
  (db: Database) => createOrganisationLoaders(db),
  (db: Database) => createProfileLoaders(db),
  (db: Database) => createArticleLoaders(db),
  (db: Database) => createEventLoaders(db),
  (db: Database) => createOwnershipLoaders(db),
  (_db: Database, primaryDb: Database) => createSearchLoaders(primaryDb),
] as const;

type Group = ReturnType<(typeof groups)[number]>;
type UnionToIntersection<U> = (U extends unknown ? (union: U) => void : never) extends (both: infer I) => void
  ? I
  : never;

/** Every dataloader of a request, named by what it loads. */
export type Loaders = UnionToIntersection<Group>;

/**
 * A request's loaders, each area's made when one of them is first used: a request reads one or two areas, and
 * making all of them showed in a small GraphQL request's profile (bench/NOTES.md 24).
 */
class RequestLoaders {
  readonly made: (Group | undefined)[] = [];

  constructor(
    readonly db: Database,
    readonly primaryDb: Database,
  ) {}
}

// Which area holds each loader, read once from loaders made on nothing (making a loader queries nothing).
const nowhere = {} as Database;
groups.forEach((make, index) => {
  for (const name of Object.keys(make(nowhere, nowhere))) {
    Object.defineProperty(RequestLoaders.prototype, name, {
      get(this: RequestLoaders) {
        this.made[index] ??= make(this.db, this.primaryDb);
        return this.made[index][name as keyof Group];
      },
    });
  }
});

export function createLoaders(db: Database, primaryDb: Database = db): Loaders {
  return new RequestLoaders(db, primaryDb) as unknown as Loaders;
}
