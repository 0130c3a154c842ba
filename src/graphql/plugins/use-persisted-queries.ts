import { createHash } from 'node:crypto';
import type { Plugin } from 'graphql-yoga';
import type { PersistedQueryStore } from '../../http/persisted-queries.ts';
import { graphqlRequestError } from './request-errors.ts';

/** `extensions.persistedQuery` as Apollo's `PersistedQueryLink` sends it (protocol version 1). */
interface PersistedQueryExtension {
  version?: unknown;
  sha256Hash?: unknown;
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/**
 * Automatic persisted queries (Apollo's protocol, which Relay and urql clients speak too), over POST and GET:
 * - the hash alone runs the query stored under it, or answers `PERSISTED_QUERY_NOT_FOUND` (message
 *   `PersistedQueryNotFound`), upon which the client sends hash and query;
 * - hash and query run the query, which is stored once it has validated (when it executes), so the store holds only documents
 *   the graph accepts;
 * - a hash that is not the SHA-256 of the query sent is `PERSISTED_QUERY_HASH_MISMATCH`, and another protocol
 *   version `PERSISTED_QUERY_NOT_SUPPORTED`.
 */
export function usePersistedQueries(store: PersistedQueryStore): Plugin {
  /** Queries to store once their document has validated, by request. */
  const toRegister = new WeakMap<Request, { hash: string; query: string }>();
  return {
    async onParams({ request, params, setParams }) {
      const persisted = params.extensions?.persistedQuery as PersistedQueryExtension | undefined;
      if (persisted == null) return;
      if (persisted.version !== 1 || typeof persisted.sha256Hash !== 'string') {
        throw graphqlRequestError('PERSISTED_QUERY_NOT_SUPPORTED');
      }
      const hash = persisted.sha256Hash.toLowerCase();
      if (params.query == null) {
        const query = await store.get(hash);
        if (query === undefined) throw graphqlRequestError('PERSISTED_QUERY_NOT_FOUND');
        setParams({ ...params, query });
        return;
      }
      if (sha256Hex(params.query) !== hash) throw graphqlRequestError('PERSISTED_QUERY_HASH_MISMATCH');
      toRegister.set(request, { hash, query: params.query });
    },
    async onExecute({ args }) {
      const request = (args.contextValue as { request?: Request }).request;
      const registration = request && toRegister.get(request);
      if (registration) await store.set(registration.hash, registration.query);
    },
  };
}
