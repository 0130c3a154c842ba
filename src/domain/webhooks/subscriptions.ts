import { randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { type Database, queryRows } from '../../db/database.ts';
import { DomainError } from '../errors.ts';
import { changeChannel } from '../feed/change-signal.ts';
import type { Total } from '../paging.ts';
import { getSavedSearch } from '../searches/save-search.ts';
import { checkWebhookUrl } from './destination.ts';

export type WebhookStatus = 'active' | 'failing' | 'ended';
export type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'cancelled';

export interface WebhookSubscription {
  id: string;
  queryId: string;
  url: string;
  status: WebhookStatus;
  /** Why the subscription is failing or ended. */
  statusReason: string | null;
  createdAt: Date;
}

export interface WebhookDelivery {
  id: string;
  subscriptionId: string;
  status: DeliveryStatus;
  attempts: number;
  /** The receiver's last HTTP status; null before the first answer or when none came. */
  lastStatus: number | null;
  lastError: string | null;
  createdAt: Date;
  nextAttemptAt: Date | null;
  deliveredAt: Date | null;
}

const subscriptionColumns = sql.raw(
  `id, query_id as "queryId", url, status, status_reason as "statusReason", created_at as "createdAt"`,
);
const deliveryColumns = sql.raw(
  `id, subscription_id as "subscriptionId", status, attempts, last_status as "lastStatus", last_error as "lastError",
   created_at as "createdAt", case when status = 'pending' then next_attempt_at end as "nextAttemptAt", delivered_at as "deliveredAt"`,
);

const toDate = (value: unknown) =>
  value === null || value instanceof Date ? value : new Date(value as string);

function subscriptionOf(row: WebhookSubscription): WebhookSubscription {
  return { ...row, createdAt: toDate(row.createdAt) as Date };
}

function deliveryOf(row: WebhookDelivery): WebhookDelivery {
  return {
    ...row,
    createdAt: toDate(row.createdAt) as Date,
    nextAttemptAt: toDate(row.nextAttemptAt) as Date | null,
    deliveredAt: toDate(row.deliveredAt) as Date | null,
  };
}

/**
 * Subscribes a URL to a saved search's new matches for the token `tokenId`; returns the subscription and its
 * signing secret, which is shown only here.
 */
export async function createWebhook(
  db: Database,
  input: { tokenId: string; queryId: string; url: string; allowPrivate: boolean },
): Promise<{ subscription: WebhookSubscription; secret: string }> {
  const url = checkWebhookUrl(input.url, input.allowPrivate);
  const search = await getSavedSearch(db, input.queryId);
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  const [row] = await queryRows<WebhookSubscription>(
    db,
    sql`insert into webhook_subscriptions (id, token_id, query_id, url, secret)
      values (${randomUUID()}, ${input.tokenId}, ${search.queryId}, ${url.toString()}, ${secret})
      returning ${subscriptionColumns}`,
  );
  return { subscription: subscriptionOf(row!), secret };
}

const notYours = (id: string) =>
  new DomainError('NOT_FOUND', `No webhook subscription of this token has the id ${id}.`);

/** One of the token's subscriptions (ended ones included); NOT_FOUND for another token's or an unknown id. */
export async function getWebhook(db: Database, tokenId: string, id: string): Promise<WebhookSubscription> {
  const [row] = await queryRows<WebhookSubscription>(
    db,
    sql`select ${subscriptionColumns} from webhook_subscriptions where id = ${id} and token_id = ${tokenId}`,
  );
  if (!row) throw notYours(id);
  return subscriptionOf(row);
}

/** The token's subscriptions that have not ended, oldest first. */
export async function listWebhooks(
  db: Database,
  tokenId: string,
  window: { offset: number; limit: number },
): Promise<{ rows: WebhookSubscription[]; total: Total }> {
  const rows = await queryRows<WebhookSubscription>(
    db,
    sql`select ${subscriptionColumns} from webhook_subscriptions where token_id = ${tokenId} and status <> 'ended'
      order by created_at, id limit ${window.limit} offset ${window.offset}`,
  );
  const [count] = await queryRows<{ count: string | number }>(
    db,
    sql`select count(*) as count from webhook_subscriptions where token_id = ${tokenId} and status <> 'ended'`,
  );
  return { rows: rows.map(subscriptionOf), total: { value: Number(count?.count ?? 0), isEstimate: false } };
}

/** Ends one of the token's subscriptions: no more deliveries, the pending ones cancelled. */
export async function deleteWebhook(db: Database, tokenId: string, id: string): Promise<WebhookSubscription> {
  await getWebhook(db, tokenId, id);
  await endSubscription(db, id, 'deleted by its owner');
  return getWebhook(db, tokenId, id);
}

export async function endSubscription(db: Database, id: string, reason: string): Promise<void> {
  await queryRows(
    db,
    sql`update webhook_subscriptions set status = 'ended', status_reason = ${reason} where id = ${id} and status <> 'ended'`,
  );
  await queryRows(
    db,
    sql`update webhook_deliveries set status = 'cancelled', lease_until = null where subscription_id = ${id} and status = 'pending'`,
  );
}

/** A subscription's deliveries, newest first (those the worker has not yet prepared included). */
export async function listDeliveries(
  db: Database,
  tokenId: string,
  id: string,
  window: { offset: number; limit: number },
): Promise<{ rows: WebhookDelivery[]; total: Total }> {
  await getWebhook(db, tokenId, id);
  const rows = await queryRows<WebhookDelivery>(
    db,
    sql`select ${deliveryColumns} from webhook_deliveries where subscription_id = ${id}
      order by xid desc, id limit ${window.limit} offset ${window.offset}`,
  );
  const [count] = await queryRows<{ count: string | number }>(
    db,
    sql`select count(*) as count from webhook_deliveries where subscription_id = ${id}`,
  );
  return { rows: rows.map(deliveryOf), total: { value: Number(count?.count ?? 0), isEstimate: false } };
}

/**
 * Sends a delivery again as soon as the worker can: a failed one gets a fresh set of attempts, and a failing
 * subscription becomes active again. A delivered one is sent once more (receivers deduplicate by `webhook-id`).
 */
export async function retryDelivery(
  db: Database,
  tokenId: string,
  id: string,
  deliveryId: string,
): Promise<WebhookDelivery> {
  const subscription = await getWebhook(db, tokenId, id);
  if (subscription.status === 'ended') {
    throw new DomainError('INVALID_PARAMETER', `The webhook subscription ${id} has ended; subscribe again.`);
  }
  const [row] = await queryRows<WebhookDelivery>(
    db,
    sql`update webhook_deliveries set status = 'pending', attempts = 0, next_attempt_at = now(), lease_until = null
      where id = ${deliveryId} and subscription_id = ${id} returning ${deliveryColumns}`,
  );
  if (!row)
    throw new DomainError('NOT_FOUND', `The webhook subscription ${id} has no delivery ${deliveryId}.`);
  await queryRows(
    db,
    sql`update webhook_subscriptions set status = 'active', status_reason = null where id = ${id} and status = 'failing'`,
  );
  // The delivery is due now: wake the delivery workers of every instance, as a commit of event changes does.
  await queryRows(db, sql`select pg_notify(${changeChannel}, '')`);
  return deliveryOf(row);
}
