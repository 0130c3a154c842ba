import { describeFeed, readTransactionFeed } from '../domain/feed/read-feed.ts';
import { getSavedSearch } from '../domain/searches/save-search.ts';
import {
  type ClaimedDelivery,
  claimDueDeliveries,
  dropDelivery,
  recordAttempt,
  releaseDelivery,
  saveDeliveryBody,
} from '../domain/webhooks/outbox.ts';
import { deliveryTimeoutMs, sendDelivery } from '../domain/webhooks/send.ts';
import type { RequestContext } from '../http/context.ts';
import { serializeFeedRow } from './serializers/feed.ts';

type Database = RequestContext['db'];

export interface WebhookWorkerOptions {
  allowPrivate: boolean;
  retrySeconds: readonly number[];
  pollMs: number;
  /** Deliveries taken at once (and sent concurrently). */
  batch?: number;
  onError?: (error: unknown) => void;
}

export interface WebhookWorker {
  /** Sends what is due now; resolves with the number of deliveries taken. */
  runOnce(): Promise<number>;
  stop(): Promise<void>;
}

/** A delivery's body: the event type, the time, and the feed rows of one transaction with the cursor after them. */
export function webhookBody(queryId: string, rows: unknown[], cursor: string): string {
  return JSON.stringify({
    type: 'saved_search.feed',
    timestamp: new Date().toISOString(),
    data: { queryId, rows, cursor },
  });
}

async function prepare(db: Database, delivery: ClaimedDelivery): Promise<string | null | 'later'> {
  if (delivery.body) return delivery.body;
  const search = await getSavedSearch(db, delivery.queryId);
  const feed = await readTransactionFeed(db, search, delivery.xid);
  if (!feed) return 'later';
  if (feed.entries.length === 0) return null;
  const entries = await describeFeed(
    db,
    { entries: feed.entries, cursor: feed.cursor, hasMore: false },
    { includeArticles: false },
  );
  const body = webhookBody(search.queryId, entries.map(serializeFeedRow), feed.cursor);
  await saveDeliveryBody(db, delivery.id, body);
  return body;
}

/**
 * The delivery worker each server runs: every `pollMs` it takes the due deliveries (leased with SKIP LOCKED, so
 * instances share the work without sending a delivery twice at once), makes each body once, signs and sends it,
 * and records the outcome with its retry schedule.
 */
export function startWebhookWorker(db: Database, options: WebhookWorkerOptions): WebhookWorker {
  const batch = options.batch ?? 10;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;

  const deliver = async (delivery: ClaimedDelivery) => {
    try {
      const body = await prepare(db, delivery);
      if (body === 'later') return releaseDelivery(db, delivery.id);
      if (body === null) return dropDelivery(db, delivery.id);
      const result = await sendDelivery(
        delivery.url,
        { id: delivery.id, secret: delivery.secret, body },
        { allowPrivate: options.allowPrivate },
      );
      await recordAttempt(db, delivery, result, options.retrySeconds);
    } catch (error) {
      options.onError?.(error);
    }
  };

  const runOnce = async () => {
    const claimed = await claimDueDeliveries(db, { limit: batch, leaseMs: deliveryTimeoutMs + 5_000 });
    // One subscription's deliveries go one after another, in the order they were taken (their transactions'),
    // so that a receiver sees its feed in order; different subscriptions are sent to at once.
    const bySubscription = new Map<string, typeof claimed>();
    for (const delivery of claimed) {
      const group = bySubscription.get(delivery.subscriptionId);
      if (group) group.push(delivery);
      else bySubscription.set(delivery.subscriptionId, [delivery]);
    }
    await Promise.all(
      [...bySubscription.values()].map(async (deliveries) => {
        for (const delivery of deliveries) await deliver(delivery);
      }),
    );
    return claimed.length;
  };

  const loop = async () => {
    if (stopped) return;
    let taken = 0;
    try {
      running = runOnce();
      taken = await running;
    } catch (error) {
      options.onError?.(error);
    } finally {
      running = undefined;
    }
    if (!stopped) timer = setTimeout(loop, taken === batch ? 0 : options.pollMs);
  };
  if (options.pollMs > 0) timer = setTimeout(loop, 0);

  return {
    runOnce,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running?.catch(() => 0);
    },
  };
}
