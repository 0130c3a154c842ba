import { createRoute, z } from '@hono/zod-openapi';
import { publicWebhookUrlPattern } from '../../domain/webhooks/destination.ts';
import {
  createWebhook,
  deleteWebhook,
  listDeliveries,
  listWebhooks,
  retryDelivery,
  type WebhookDelivery,
  type WebhookSubscription,
} from '../../domain/webhooks/subscriptions.ts';
import { covers } from '../../http/authenticate.ts';
import { commonErrorResponses, envelope, envelopeSchema, errorContent } from '../envelope.ts';
import { listResponse } from '../list-response.ts';
import { maxLimit, pageMetaSchema, pagingQuery } from '../paging.ts';
import { referenceParam } from '../params.ts';
import type { RestApp } from '../router.ts';

const webhookSchema = z
  .object({
    id: z.uuid(),
    queryId: z.uuid(),
    url: z.string(),
    status: z.enum(['active', 'failing', 'ended']).openapi({
      description:
        '`active`; `failing`: a delivery used up its attempts (about a day of retries) and the deliveries wait for a retry; `ended`: deleted, or the receiver answered 410 Gone.',
    }),
    status_reason: z.string().nullable(),
    created_at: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('Webhook');

const deliverySchema = z
  .object({
    id: z.uuid().openapi({ description: 'Sent as `webhook-id`; the same on every attempt.' }),
    status: z.enum(['pending', 'delivered', 'failed', 'cancelled']),
    attempts: z.number().int(),
    last_response_code: z.number().int().nullable(),
    last_error: z.string().nullable(),
    created_at: z.string().openapi({ format: 'date-time' }),
    next_attempt_at: z.string().nullable().openapi({ format: 'date-time' }),
    delivered_at: z.string().nullable().openapi({ format: 'date-time' }),
  })
  .openapi('WebhookDelivery');

export function serializeWebhook(subscription: WebhookSubscription) {
  return {
    id: subscription.id,
    queryId: subscription.queryId,
    url: subscription.url,
    status: subscription.status,
    status_reason: subscription.statusReason,
    created_at: subscription.createdAt.toISOString(),
  };
}

export function serializeDelivery(delivery: WebhookDelivery) {
  return {
    id: delivery.id,
    status: delivery.status,
    attempts: delivery.attempts,
    last_response_code: delivery.lastStatus,
    last_error: delivery.lastError,
    created_at: delivery.createdAt.toISOString(),
    next_attempt_at: delivery.nextAttemptAt?.toISOString() ?? null,
    delivered_at: delivery.deliveredAt?.toISOString() ?? null,
  };
}

const webhookIdParams = z.object({ webhookId: referenceParam('webhookId', 'The subscription’s id.') });
const tags = ['Webhooks'];
const notFound = {
  404: errorContent('No subscription of this token has the id (or no delivery, on a retry).'),
};

const createWebhookRoute = createRoute({
  method: 'post',
  path: '/v1/webhooks',
  tags,
  operationId: 'createWebhook',
  summary: 'Subscribe a URL to a saved search',
  description:
    'Every transaction that changes events matching the saved search becomes one signed POST (Standard Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature`) whose body carries the feed rows and the cursor after them. ' +
    'Only `https` URLs that resolve to public addresses (checked again at each send). The response carries the signing `secret` once.',
  middleware: [covers('searches')] as const,
  request: {
    body: {
      required: true,
      content: {
        'application/json': {
          schema: z.object({
            queryId: z.uuid({ error: 'must be a UUID' }).openapi({ maxLength: 36 }),
            url: z.string().max(2000, 'must be at most 2000 characters long').openapi({
              pattern: publicWebhookUrlPattern,
              description:
                'An https URL of a public host: not localhost, not a private, loopback or link-local address. A public IP address is accepted too; with private destinations allowed (`WEBHOOK_ALLOW_PRIVATE`), http and private hosts as well.',
              example: 'https://hooks.example.com/orgraph',
            }),
          }),
        },
      },
    },
  },
  responses: {
    201: {
      description: 'The subscription, with its secret (shown only here).',
      content: {
        'application/json': {
          schema: envelopeSchema(
            webhookSchema.extend({
              secret: z.string().openapi({ description: '`whsec_` + base64 of the HMAC key.' }),
            }),
            z.null(),
          ),
        },
      },
    },
    400: errorContent('The body is not JSON with `queryId` and `url`.'),
    404: errorContent('No saved search has the `queryId`.'),
    ...commonErrorResponses,
  },
});

const listWebhooksRoute = createRoute({
  method: 'get',
  path: '/v1/webhooks',
  tags,
  operationId: 'listWebhooks',
  summary: "List this token's webhook subscriptions",
  description: 'Subscriptions made with this token that have not ended, oldest first.',
  middleware: [covers('searches')] as const,
  request: { query: z.object(pagingQuery(maxLimit)) },
  responses: {
    200: {
      description: 'A page of subscriptions.',
      content: { 'application/json': { schema: envelopeSchema(z.array(webhookSchema), pageMetaSchema) } },
    },
    ...commonErrorResponses,
  },
});

const deleteWebhookRoute = createRoute({
  method: 'delete',
  path: '/v1/webhooks/{webhookId}',
  tags,
  operationId: 'deleteWebhook',
  summary: 'End a webhook subscription',
  description: 'No more deliveries; pending ones are cancelled. Answers the ended subscription.',
  middleware: [covers('searches')] as const,
  request: { params: webhookIdParams },
  responses: {
    200: {
      description: 'The ended subscription.',
      content: { 'application/json': { schema: envelopeSchema(webhookSchema, z.null()) } },
    },
    ...notFound,
    ...commonErrorResponses,
  },
});

const listDeliveriesRoute = createRoute({
  method: 'get',
  path: '/v1/webhooks/{webhookId}/deliveries',
  tags,
  operationId: 'listWebhookDeliveries',
  summary: "A subscription's deliveries",
  description: 'Newest first, with their status, attempts and the last response code.',
  middleware: [covers('searches')] as const,
  request: { params: webhookIdParams, query: z.object(pagingQuery(maxLimit)) },
  responses: {
    200: {
      description: 'A page of deliveries.',
      content: { 'application/json': { schema: envelopeSchema(z.array(deliverySchema), pageMetaSchema) } },
    },
    ...notFound,
    ...commonErrorResponses,
  },
});

const retryDeliveryRoute = createRoute({
  method: 'post',
  path: '/v1/webhooks/{webhookId}/deliveries/{deliveryId}/retry',
  tags,
  operationId: 'retryWebhookDelivery',
  summary: 'Send a delivery again',
  description:
    'The delivery is sent again as soon as possible with a fresh set of attempts; a failing subscription becomes active again (its other waiting deliveries follow).',
  middleware: [covers('searches')] as const,
  request: {
    params: webhookIdParams.extend({ deliveryId: referenceParam('deliveryId', 'The delivery’s id.') }),
  },
  responses: {
    200: {
      description: 'The delivery, pending again.',
      content: { 'application/json': { schema: envelopeSchema(deliverySchema, z.null()) } },
    },
    ...notFound,
    ...commonErrorResponses,
  },
});

export function registerWebhookRoutes(app: RestApp): void {
  app.openapi(createWebhookRoute, async (c) => {
    const { primaryDb, viewer, config } = c.var.ctx;
    const { queryId, url } = c.req.valid('json');
    const { subscription, secret } = await createWebhook(primaryDb, {
      tokenId: viewer!.tokenId,
      queryId,
      url,
      allowPrivate: config.webhookAllowPrivate,
    });
    return c.json(envelope(c, { ...serializeWebhook(subscription), secret }, null, 201), 201);
  });

  app.openapi(listWebhooksRoute, async (c) => {
    const { primaryDb, viewer } = c.var.ctx;
    return listResponse(
      c,
      c.req.valid('query'),
      (window) => listWebhooks(primaryDb, viewer!.tokenId, window),
      serializeWebhook,
    );
  });

  app.openapi(deleteWebhookRoute, async (c) => {
    const { primaryDb, viewer } = c.var.ctx;
    const ended = await deleteWebhook(primaryDb, viewer!.tokenId, c.req.valid('param').webhookId);
    return c.json(envelope(c, serializeWebhook(ended), null), 200);
  });

  app.openapi(listDeliveriesRoute, async (c) => {
    const { primaryDb, viewer } = c.var.ctx;
    const { webhookId } = c.req.valid('param');
    return listResponse(
      c,
      c.req.valid('query'),
      (window) => listDeliveries(primaryDb, viewer!.tokenId, webhookId, window),
      serializeDelivery,
    );
  });

  app.openapi(retryDeliveryRoute, async (c) => {
    const { primaryDb, viewer } = c.var.ctx;
    const { webhookId, deliveryId } = c.req.valid('param');
    const delivery = await retryDelivery(primaryDb, viewer!.tokenId, webhookId, deliveryId);
    return c.json(envelope(c, serializeDelivery(delivery), null), 200);
  });
}
