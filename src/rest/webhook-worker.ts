import { changesAnnounced, nextChange } from '../domain/feed/change-signal.ts';
import { describeFeed, readTransactionFeed } from '../domain/feed/read-feed.ts';
import { getSavedSearch } from '../domain/searches/save-search.ts';
import {
  type ClaimedDelivery,
  claimDueDeliveries,
  dropDelivery,
  nextDeliveryWait,
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
  /**
   * The safety net: the longest the worker sleeps without being woken (0: no worker loop). It is woken by every
   * announced commit of event changes (`announceChanges`), and sleeps only until the soonest retry or lease end.
   */
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

/** How soon the worker looks again while a due delivery waits for an older transaction to end. */
const heldPollMs = 250;

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
    { entries: feed.entries, cursor: feed.cursor, hasMore: false, held: false },
    { includeArticles: false },
  );
  const body = webhookBody(search.queryId, entries.map(serializeFeedRow), feed.cursor);
  await saveDeliveryBody(db, delivery.id, body);
  return body;
}

/**
 * The delivery worker each server runs: woken by each announced commit (and at the latest every `pollMs`), it
 * takes the due deliveries (leased with SKIP LOCKED, so
 * instances share the work without sending a delivery twice at once), makes each body once, signs and sends it,
 * and records the outcome with its retry schedule.
 */
export function startWebhookWorker(db: Database, options: WebhookWorkerOptions): WebhookWorker {
  const batch = options.batch ?? 10;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;
  let wakeNow: (() => void) | undefined;

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

  // Woken by the change signal rather than by polling: each commit of event changes (on any instance, through
  // LISTEN/NOTIFY) announces its deliveries. Between commits the worker sleeps until the soonest retry or lease
  // end, a short while when a due delivery waits for an older open transaction to end, or at most `pollMs`.
  const sleep = async (seen: number, ms: number) => {
    const controller = new AbortController();
    wakeNow = () => controller.abort();
    await nextChange(seen, ms, controller.signal);
    wakeNow = undefined;
  };
  const loop = async () => {
    if (stopped) return;
    const seen = changesAnnounced();
    try {
      running = runOnce();
      const taken = await running;
      running = undefined;
      const wait =
        taken === batch ? 0 : await nextDeliveryWait(db, { maxMs: options.pollMs, heldMs: heldPollMs });
      if (wait > 0 && !stopped) await sleep(seen, wait);
    } catch (error) {
      running = undefined;
      options.onError?.(error);
      // A failing database is not retried in a tight loop.
      if (!stopped) await sleep(seen, Math.min(options.pollMs, 1_000));
    }
    if (!stopped) timer = setTimeout(loop, 0);
  };
  if (options.pollMs > 0) timer = setTimeout(loop, 0);

  return {
    runOnce,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      wakeNow?.();
      await running?.catch(() => 0);
    },
  };
}
