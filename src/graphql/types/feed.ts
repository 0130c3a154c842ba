import { GraphQLError } from 'graphql';
import { invalidParameter } from '../../domain/errors.ts';
import { changesAnnounced, nextChange } from '../../domain/feed/change-signal.ts';
import { type FeedEntry, readFeed } from '../../domain/feed/read-feed.ts';
import type { Event } from '../../domain/records.ts';
import { type FeedChange, feedChanges, feedCursorLifetimeDays } from '../../domain/vocabulary/feed.ts';
import { builder } from '../builder.ts';
import { maxConnectionPage } from '../keyset.ts';
import { EventRef, SavedSearchRef } from '../refs.ts';

/** How soon a stream reads again while committed changes wait behind an older transaction. */
const heldRetryMs = 250;

/**
 * A signal that aborts when any of `signals` does; `release` unhooks it from them, so that a long-lived one (the
 * server's) does not keep a listener for every stream that has ended.
 */
function eitherAborts(...signals: (AbortSignal | undefined)[]): { signal: AbortSignal; release(): void } {
  const either = new AbortController();
  const abort = () => either.abort();
  const present = signals.filter((signal): signal is AbortSignal => signal !== undefined);
  for (const signal of present) {
    if (signal.aborted) either.abort();
    else signal.addEventListener('abort', abort, { once: true });
  }
  return {
    signal: either.signal,
    release: () => {
      for (const signal of present) signal.removeEventListener('abort', abort);
    },
  };
}

const changeDescriptions: Record<FeedChange, string> = {
  added: 'The event was inserted, or changed so that it now matches.',
  updated: 'The event matched before and after a change.',
  removed: 'The event was deleted or no longer matches; the node shows it as it was.',
};

export const FeedChangeEnum = builder.enumType('FeedChange', {
  description: 'How an event entered or left a saved search’s feed.',
  values: Object.fromEntries(
    feedChanges.map((change) => [
      change.toUpperCase(),
      { value: change, description: changeDescriptions[change] },
    ]),
  ) as Record<Uppercase<FeedChange>, { value: FeedChange; description: string }>,
});

/** A feed page as a connection; `resumeCursor` is the page's own cursor, present also when it has no edges. */
interface FeedConnectionShape {
  edges: { cursor: string; node: Event; change: FeedChange }[];
  pageInfo: {
    startCursor: string | null;
    endCursor: string | null;
    hasPreviousPage: boolean;
    hasNextPage: boolean;
  };
  resumeCursor: string;
}

export function toFeedConnection(
  entries: readonly FeedEntry[],
  cursor: string,
  hasMore: boolean,
): FeedConnectionShape {
  return {
    edges: entries.map((entry) => ({ cursor: entry.cursor, node: entry.event, change: entry.change })),
    pageInfo: {
      startCursor: entries[0]?.cursor ?? null,
      endCursor: entries.at(-1)?.cursor ?? null,
      hasPreviousPage: false,
      hasNextPage: hasMore,
    },
    resumeCursor: cursor,
  };
}

builder.objectField(SavedSearchRef, 'feed', (t) =>
  t.connection(
    {
      type: EventRef,
      nullable: true,
      description:
        'Events that newly match this search, in commit order, each once: `added` (inserted or changed so that it matches), `updated` (changed while matching), `removed` (deleted or no longer matching). ' +
        `Without \`after\` the feed starts now: no edges, and \`resumeCursor\` to come back with. Resuming from the last cursor received misses nothing and repeats nothing. Forward only (\`first\`/\`after\`); cursors stay valid for ${feedCursorLifetimeDays} days, and an expired or foreign one is an INVALID_PARAMETER error. The same rows as \`GET /v1/searches/{queryId}/feed\`.`,
      authScopes: { covers: 'searches' },
      resolve: async (search, args, context) => {
        if (args.last != null || args.before != null) {
          throw invalidParameter('The feed reads forward only: page it with `first` and `after`.');
        }
        const first = args.first ?? 20;
        if (first < 1 || first > maxConnectionPage) {
          throw invalidParameter(`\`first\` is between 1 and ${maxConnectionPage} on the feed.`);
        }
        const page = await readFeed(context.primaryDb, search.queryId, {
          after: args.after ?? undefined,
          limit: first,
        });
        return toFeedConnection(page.entries, page.cursor, page.hasMore);
      },
    },
    {
      name: 'SavedSearchFeedConnection',
      description: 'A page of a saved search’s feed.',
      fields: (t) => ({
        resumeCursor: t.string({
          description:
            'Where to resume: after the last edge, or past every change read when the page is not full. Present also when there are no edges; pass it as `after`.',
          resolve: (connection) => (connection as unknown as FeedConnectionShape).resumeCursor,
        }),
      }),
    },
    {
      name: 'SavedSearchFeedEdge',
      description: 'An event in a saved search’s feed, with how it changed.',
      fields: (t) => ({
        change: t.field({
          type: FeedChangeEnum,
          description: 'How the event entered or left the feed.',
          resolve: (edge) => (edge as unknown as { change: FeedChange }).change,
        }),
      }),
    },
  ),
);

interface FeedEvent {
  change: FeedChange;
  cursor: string;
  event: Event;
}

const FeedEventRef = builder.objectRef<FeedEvent>('SavedSearchFeedEvent').implement({
  description: 'One row of a saved search’s feed, pushed by the `savedSearchEvents` subscription.',
  fields: (t) => ({
    change: t.field({
      type: FeedChangeEnum,
      description: 'How the event changed.',
      resolve: (row) => row.change,
    }),
    cursor: t.exposeString('cursor', { description: 'Resume after this row: pass it as `after`.' }),
    event: t.field({
      type: EventRef,
      description: 'The event (as it was, for a removal).',
      resolve: (row) => row.event,
    }),
  }),
});

builder.subscriptionType({ description: 'Live feeds, over Server-Sent Events.' });

builder.subscriptionField('savedSearchEvents', (t) =>
  t.field({
    type: FeedEventRef,
    description:
      'The rows of a saved search’s feed as they are committed, over Server-Sent Events (`Accept: text/event-stream`), from `after` (a feed cursor) or from now. Woken across instances by PostgreSQL LISTEN/NOTIFY (on the embedded database, by its own notifications), not by polling. Needs a plan covering `searches`.',
    authScopes: { covers: 'searches' },
    args: {
      queryId: t.arg({ type: 'UUID', required: true, description: 'The saved search.' }),
      after: t.arg.string({ description: 'A cursor from this search’s feed; omitted: from now.' }),
    },
    // The start is read before the stream is returned, so that the response opens only once "now" is fixed: an
    // event committed after the client sees the stream open is always in it, and a bad search or cursor is an
    // error rather than an empty stream.
    subscribe: async (_root, args, context) => {
      // The plan is checked here, before the stream starts: the scope check guards each pushed row, not the subscribe.
      if (!context.viewer?.plan.covers.includes('searches')) {
        throw new GraphQLError(
          `Your plan (${context.viewer?.plan.name ?? 'none'}) does not cover Subscription.savedSearchEvents.`,
          { extensions: { code: 'FORBIDDEN' } },
        );
      }
      // Taken before each read: a commit announced while the read runs wakes the next wait at once.
      let seen = changesAnnounced();
      let page = await readFeed(context.primaryDb, args.queryId, {
        after: args.after ?? undefined,
        limit: 100,
      });
      async function* follow(): AsyncGenerator<FeedEvent> {
        // Yoga puts the HTTP request in the context; its signal aborts when the client goes away. The stream also
        // ends when the server begins to shut down, which otherwise would wait for it until its deadline.
        const closed = eitherAborts((context as { request?: Request }).request?.signal, context.closing);
        try {
          for (;;) {
            for (const entry of page.entries)
              yield { change: entry.change, cursor: entry.cursor, event: entry.event };
            const cursor = page.cursor;
            // Changes held behind an older transaction are announced already: look again shortly rather than at
            // the next commit, which on a quiet store may not come.
            if (!page.hasMore) await nextChange(seen, page.held ? heldRetryMs : 30_000, closed.signal);
            // A client gone (or a shutdown) ends the stream here rather than after one more read.
            if (closed.signal.aborted) return;
            seen = changesAnnounced();
            page = await readFeed(context.primaryDb, args.queryId, { after: cursor, limit: 100 });
          }
        } finally {
          closed.release();
        }
      }
      return follow();
    },
    resolve: (row: FeedEvent) => row,
  }),
);
