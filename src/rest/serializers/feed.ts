import type { DescribedEvent } from '../../domain/events/describe-events.ts';
import type { FeedEntry } from '../../domain/feed/read-feed.ts';
import { serializeEvent } from './events.ts';

/** A feed row: the event list's row, how the event changed, and the cursor after it. */
export function serializeFeedRow(entry: FeedEntry & { described: DescribedEvent }) {
  return { ...serializeEvent(entry.described), change: entry.change, cursor: entry.cursor };
}
