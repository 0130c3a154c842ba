import { sql } from 'drizzle-orm';
import { type Database, queryRows } from '../../db/database.ts';
import { horizonOf } from '../feed/read-feed.ts';
import type { DeliveryResult } from './send.ts';
import { endSubscription } from './subscriptions.ts';

/** A delivery taken by one worker: nobody else sends it until its lease runs out. */
export interface ClaimedDelivery {
  id: string;
  subscriptionId: string;
  xid: string;
  body: string | null;
  /** Attempts made so far, this one included. */
  attempts: number;
  url: string;
  secret: string;
  queryId: string;
}

/**
 * Takes up to `limit` due deliveries of active subscriptions under a lease (longer than a delivery's time limit).
 * The rows are locked with SKIP LOCKED only for this short statement, so two instances never take the same row,
 * and no transaction stays open while a receiver is called. Only transactions below the feed's horizon are
 * taken, so a delivery's cursor means what a feed cursor means. A worker killed mid-delivery leaves a lease
 * that runs out: the delivery is sent again (at least once).
 */
export async function claimDueDeliveries(
  db: Database,
  options: { limit: number; leaseMs: number },
): Promise<ClaimedDelivery[]> {
  return queryRows<ClaimedDelivery>(
    db,
    sql`with snap as (select pg_current_snapshot() as s),
      horizon as (${horizonOf}),
      due as (
        select d.id from webhook_deliveries d
        join webhook_subscriptions s on s.id = d.subscription_id
        where d.status = 'pending' and s.status = 'active' and d.next_attempt_at <= now()
          and (d.lease_until is null or d.lease_until < now())
          and d.xid < (select xmin from horizon)
        order by d.next_attempt_at, d.xid
        limit ${options.limit}
        for update of d skip locked
      )
      update webhook_deliveries w
      set lease_until = now() + make_interval(secs => ${options.leaseMs / 1000}), attempts = w.attempts + 1
      from due, webhook_subscriptions s
      where w.id = due.id and s.id = w.subscription_id
      returning w.id, w.subscription_id as "subscriptionId", w.xid::text as xid, w.body, w.attempts,
        s.url, s.secret, s.query_id as "queryId"`,
  );
}

/**
 * How long a worker may sleep before something is due without a new commit announcing it: until the soonest
 * retry or the end of the soonest lease (a worker that died mid-send), `heldMs` while a due delivery waits for an
 * older transaction still open (one that may end without announcing anything), and never more than `maxMs`.
 */
export async function nextDeliveryWait(
  db: Database,
  options: { maxMs: number; heldMs: number },
): Promise<number> {
  const [row] = await queryRows<{ dueInMs: number | null; held: boolean | null }>(
    db,
    sql`with snap as (select pg_current_snapshot() as s),
      horizon as (${horizonOf}),
      pending as (
        select greatest(d.next_attempt_at, coalesce(d.lease_until, d.next_attempt_at)) as due_at, d.xid
        from webhook_deliveries d join webhook_subscriptions s on s.id = d.subscription_id
        where d.status = 'pending' and s.status = 'active'
      )
      select (extract(epoch from (select min(due_at) from pending where due_at > clock_timestamp()) - clock_timestamp()) * 1000)::float8 as "dueInMs",
        exists (select 1 from pending where due_at <= clock_timestamp() and xid >= (select xmin from horizon)) as held`,
  );
  let wait = options.maxMs;
  if (row?.dueInMs != null) wait = Math.min(wait, Math.max(1, Math.ceil(Number(row.dueInMs))));
  if (row?.held) wait = Math.min(wait, options.heldMs);
  return wait;
}

/** Keeps the body made for a delivery, so every retry sends the same bytes under the same `webhook-id`. */
export async function saveDeliveryBody(db: Database, id: string, body: string): Promise<void> {
  await queryRows(db, sql`update webhook_deliveries set body = ${body} where id = ${id}`);
}

/** Drops a delivery whose transaction changed nothing the search matches. */
export async function dropDelivery(db: Database, id: string): Promise<void> {
  await queryRows(db, sql`delete from webhook_deliveries where id = ${id}`);
}

/** Gives a claimed delivery back untouched (its transaction was not yet below the horizon). */
export async function releaseDelivery(db: Database, id: string): Promise<void> {
  await queryRows(
    db,
    sql`update webhook_deliveries set lease_until = null, attempts = greatest(attempts - 1, 0) where id = ${id}`,
  );
}

/**
 * Records an attempt: 2xx delivered; 410 Gone ends the subscription; anything else is retried after the next delay
 * of `retrySeconds` with ±10% jitter, and once they are used up the delivery has failed and the subscription is
 * failing (its deliveries wait for a retry through the API).
 */
export async function recordAttempt(
  db: Database,
  delivery: ClaimedDelivery,
  result: DeliveryResult,
  retrySeconds: readonly number[],
): Promise<'delivered' | 'ended' | 'retrying' | 'failed'> {
  const status = result.status;
  if (status !== null && status >= 200 && status < 300) {
    await queryRows(
      db,
      sql`update webhook_deliveries set status = 'delivered', delivered_at = now(), lease_until = null,
        last_status = ${status}, last_error = null where id = ${delivery.id}`,
    );
    return 'delivered';
  }
  const error = result.error ?? `the receiver answered ${status}`;
  if (status === 410) {
    await queryRows(
      db,
      sql`update webhook_deliveries set last_status = 410, last_error = ${error} where id = ${delivery.id}`,
    );
    await endSubscription(db, delivery.subscriptionId, 'the receiver answered 410 Gone');
    return 'ended';
  }
  const delay = retrySeconds[delivery.attempts - 1];
  if (delay === undefined) {
    await queryRows(
      db,
      sql`update webhook_deliveries set status = 'failed', lease_until = null, last_status = ${status},
        last_error = ${error} where id = ${delivery.id}`,
    );
    await queryRows(
      db,
      sql`update webhook_subscriptions set status = 'failing',
        status_reason = ${`a delivery failed ${delivery.attempts} times; retry it to resume`}
        where id = ${delivery.subscriptionId} and status = 'active'`,
    );
    return 'failed';
  }
  const jittered = delay * (0.9 + Math.random() * 0.2);
  await queryRows(
    db,
    sql`update webhook_deliveries set lease_until = null, last_status = ${status}, last_error = ${error},
      next_attempt_at = now() + make_interval(secs => ${jittered}) where id = ${delivery.id}`,
  );
  return 'retrying';
}
