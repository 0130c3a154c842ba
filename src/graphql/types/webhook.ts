import { resolveOffsetConnection } from '@pothos/plugin-relay';
import { invalidParameter } from '../../domain/errors.ts';
import {
  createWebhook,
  type DeliveryStatus,
  deleteWebhook,
  listDeliveries,
  listWebhooks,
  retryDelivery,
  type WebhookDelivery,
  type WebhookStatus,
  type WebhookSubscription,
} from '../../domain/webhooks/subscriptions.ts';
import { builder } from '../builder.ts';
import { maxConnectionPage } from '../keyset.ts';

const WebhookStatusEnum = builder.enumType('WebhookStatus', {
  description: 'The state of a webhook subscription.',
  values: {
    ACTIVE: { value: 'active' satisfies WebhookStatus, description: 'Deliveries are sent.' },
    FAILING: {
      value: 'failing' satisfies WebhookStatus,
      description: 'A delivery used up its attempts (about a day of retries); deliveries wait for a retry.',
    },
    ENDED: {
      value: 'ended' satisfies WebhookStatus,
      description: 'Deleted, or the receiver answered 410 Gone.',
    },
  },
});

const DeliveryStatusEnum = builder.enumType('WebhookDeliveryStatus', {
  description: 'The state of one delivery.',
  values: {
    PENDING: {
      value: 'pending' satisfies DeliveryStatus,
      description: 'Waiting for its first or next attempt.',
    },
    DELIVERED: { value: 'delivered' satisfies DeliveryStatus, description: 'The receiver answered 2xx.' },
    FAILED: {
      value: 'failed' satisfies DeliveryStatus,
      description: 'Every attempt failed; retry it to resume.',
    },
    CANCELLED: { value: 'cancelled' satisfies DeliveryStatus, description: 'The subscription ended first.' },
  },
});

const WebhookDeliveryRef = builder.objectRef<WebhookDelivery>('WebhookDelivery').implement({
  description: 'One signed POST of a transaction’s feed rows to a webhook, with its attempts.',
  fields: (t) => ({
    id: t.exposeString('id', { description: 'Sent as `webhook-id`; the same on every attempt.' }),
    status: t.field({
      type: DeliveryStatusEnum,
      description: 'Where the delivery stands.',
      resolve: (delivery) => delivery.status,
    }),
    attempts: t.exposeInt('attempts', { description: 'Attempts made so far.' }),
    lastResponseCode: t.exposeInt('lastStatus', {
      nullable: true,
      description: 'The receiver’s last HTTP status; null when none came.',
    }),
    lastError: t.exposeString('lastError', {
      nullable: true,
      description: 'Why the last attempt failed; null once delivered.',
    }),
    createdAt: t.field({
      type: 'DateTime',
      description: 'When the changes it carries were committed.',
      resolve: (delivery) => delivery.createdAt,
    }),
    nextAttemptAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When the next attempt is due; null unless pending.',
      resolve: (delivery) => delivery.nextAttemptAt,
    }),
    deliveredAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When the receiver answered 2xx.',
      resolve: (delivery) => delivery.deliveredAt,
    }),
  }),
});

const checkFirst = (first: number | null | undefined) => {
  if (first != null && first > maxConnectionPage)
    throw invalidParameter(`\`first\` is at most ${maxConnectionPage}; page with the cursors instead.`);
};

const WebhookRef = builder.objectRef<WebhookSubscription>('Webhook').implement({
  description:
    'A subscription of a URL to a saved search’s new matches. Visible only to the token that made it.',
  fields: (t) => ({
    id: t.exposeString('id', {
      description: 'The subscription’s id, for `deleteWebhook` and the REST paths.',
    }),
    queryId: t.exposeString('queryId', { description: 'The saved search followed.' }),
    url: t.exposeString('url', { description: 'Where deliveries are POSTed.' }),
    status: t.field({
      type: WebhookStatusEnum,
      description: 'Whether deliveries are sent.',
      resolve: (subscription) => subscription.status,
    }),
    statusReason: t.exposeString('statusReason', {
      nullable: true,
      description: 'Why it is failing or ended.',
    }),
    createdAt: t.field({
      type: 'DateTime',
      description: 'When it was made.',
      resolve: (subscription) => subscription.createdAt,
    }),
    deliveries: t.connection({
      type: WebhookDeliveryRef,
      description: 'Deliveries, newest first.',
      resolve: (subscription, args, context) => {
        checkFirst(args.first);
        return resolveOffsetConnection(
          { args, defaultSize: 20, maxSize: maxConnectionPage },
          async (window) => {
            const page = await listDeliveries(
              context.primaryDb,
              context.viewer!.tokenId,
              subscription.id,
              window,
            );
            return page.rows;
          },
        );
      },
    }),
  }),
});

builder.queryField('webhooks', (t) =>
  t.connection({
    type: WebhookRef,
    nullable: true,
    description:
      'This token’s webhook subscriptions that have not ended, oldest first. Needs a plan covering `searches`.',
    authScopes: { covers: 'searches' },
    resolve: (_root, args, context) => {
      checkFirst(args.first);
      return resolveOffsetConnection(
        { args, defaultSize: 20, maxSize: maxConnectionPage },
        async (window) => {
          const page = await listWebhooks(context.primaryDb, context.viewer!.tokenId, window);
          return page.rows;
        },
      );
    },
  }),
);

interface CreatedWebhook {
  webhook: WebhookSubscription;
  secret: string;
}

const CreatedWebhookRef = builder.objectRef<CreatedWebhook>('CreatedWebhook').implement({
  description: 'A new subscription and its signing secret, shown only here.',
  fields: (t) => ({
    webhook: t.field({
      type: WebhookRef,
      description: 'The subscription.',
      resolve: (created) => created.webhook,
    }),
    secret: t.exposeString('secret', {
      description: '`whsec_` + base64 of the HMAC-SHA256 key that signs every delivery (Standard Webhooks).',
    }),
  }),
});

builder.mutationField('createWebhook', (t) =>
  t.field({
    type: CreatedWebhookRef,
    nullable: true,
    description:
      'Subscribes a URL to a saved search, as `POST /v1/webhooks`: each transaction that changes matching events becomes one signed POST of its feed rows. Only https URLs resolving to public addresses.',
    authScopes: { covers: 'searches' },
    args: {
      queryId: t.arg({ type: 'UUID', required: true, description: 'The saved search to follow.' }),
      url: t.arg.string({ required: true, description: 'An https URL that resolves to a public address.' }),
    },
    resolve: async (_root, args, context) => {
      const created = await createWebhook(context.primaryDb, {
        tokenId: context.viewer!.tokenId,
        queryId: args.queryId,
        url: args.url,
        allowPrivate: context.config.webhookAllowPrivate,
      });
      return { webhook: created.subscription, secret: created.secret };
    },
  }),
);

builder.mutationField('deleteWebhook', (t) =>
  t.field({
    type: WebhookRef,
    nullable: true,
    description: 'Ends one of this token’s subscriptions; pending deliveries are cancelled.',
    authScopes: { covers: 'searches' },
    args: { id: t.arg({ type: 'UUID', required: true, description: 'The subscription’s id.' }) },
    resolve: (_root, args, context) => deleteWebhook(context.primaryDb, context.viewer!.tokenId, args.id),
  }),
);

builder.mutationField('retryWebhookDelivery', (t) =>
  t.field({
    type: WebhookDeliveryRef,
    nullable: true,
    description:
      'Sends a delivery again with a fresh set of attempts; a failing subscription becomes active again.',
    authScopes: { covers: 'searches' },
    args: {
      webhookId: t.arg({ type: 'UUID', required: true, description: 'The subscription’s id.' }),
      deliveryId: t.arg({ type: 'UUID', required: true, description: 'The delivery’s id.' }),
    },
    resolve: (_root, args, context) =>
      retryDelivery(context.primaryDb, context.viewer!.tokenId, args.webhookId, args.deliveryId),
  }),
);
