import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenTo } from '../../src/db/notifications.ts';
import { announceChanges, changeChannel } from '../../src/domain/feed/change-signal.ts';
import { sendDelivery } from '../../src/domain/webhooks/send.ts';
import { startWebhookWorker, type WebhookWorker } from '../../src/rest/webhook-worker.ts';
import { startServerProcess, stopProcess } from '../reliability/support/server-process.ts';
import { type Envelope, openTestApp, type TestApp } from '../support/test-app.ts';
import { feedDatabase } from './support.ts';

const onPostgres = Boolean(process.env.DATABASE_URL);
const database = await feedDatabase('webhooks');

interface Received {
  id: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A loopback receiver whose answers the test scripts: a status, a delay, or no answer at all. */
class Receiver {
  received: Received[] = [];
  answers: { status: number; delayMs?: number; hang?: boolean }[] = [];
  fallback = 200;
  server: Server;
  constructor() {
    this.server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      request.on('end', () => {
        this.received.push({ id: String(request.headers['webhook-id']), headers: request.headers, body });
        const answer = this.answers.shift() ?? { status: this.fallback };
        if (answer.hang) return;
        setTimeout(() => response.writeHead(answer.status).end('ok'), answer.delayMs ?? 0);
      });
    });
  }
  async listen(port = 0): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(port, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }
  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

const copyDeal = (reference: string, dealType: string) =>
  sql.raw(`insert into events (reference, type, summary, publish_date, organisation_reference, acquirer_reference,
    acquiree_reference, deal_type, deal_status, details)
  select '${reference}'::uuid, type, 'a webhook deal', publish_date, organisation_reference, acquirer_reference,
    acquiree_reference, '${dealType}', deal_status, details
  from events where type = 'deal' and acquirer_reference is not null and acquiree_reference is not null
  order by reference limit 1`);

let app: TestApp;
let worker: WebhookWorker;
let stopListening: () => Promise<void>;
const receivers: Receiver[] = [];

/**
 * The worker these tests deliver with. Its safety net (one minute) is longer than any test waits, so each delivery
 * here arrives because the commit's notification woke the worker, and each retry because the worker slept only
 * until it was due: none by polling.
 */
const startSharedWorker = () =>
  startWebhookWorker(app.services.db, { allowPrivate: true, retrySeconds: [0.2, 0.2], pollMs: 60_000 });

beforeAll(async () => {
  app = await openTestApp({ ...database.env, WEBHOOK_ALLOW_PRIVATE: 'true' });
  stopListening = await listenTo(app.services.handle, changeChannel, announceChanges);
  worker = startSharedWorker();
});
afterAll(async () => {
  await worker.stop();
  await stopListening();
  for (const receiver of receivers) await receiver.close();
  await app.services.db.execute(
    sql`update webhook_subscriptions set status = 'ended' where url like 'http://127.0.0.1:%'`,
  );
  await app.services.db.execute(sql`delete from events where deal_type like 'hook-%'`);
  await app.close();
});

async function receiver(): Promise<{ receiver: Receiver; url: string }> {
  const made = new Receiver();
  receivers.push(made);
  return { receiver: made, url: await made.listen() };
}

async function saveSearch(dealType: string): Promise<string> {
  const response = await app.request('/v1/search/events', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      query: [{ fieldType: 'DealType', label: dealType, value: dealType, operator: 'EQUAL' }],
    }),
  });
  return ((await response.json()) as Envelope<{ queryId: string }>).success.queryId;
}

interface WebhookWire {
  id: string;
  status: string;
  secret?: string;
  status_reason: string | null;
}
interface DeliveryWire {
  id: string;
  status: string;
  attempts: number;
  last_response_code: number | null;
}

async function subscribe(queryId: string, url: string, token = app.tokens.enterprise) {
  const response = await app.request('/v1/webhooks', {
    method: 'POST',
    token,
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ queryId, url }),
  });
  return { status: response.status, body: (await response.json()) as Envelope<WebhookWire | null> };
}

async function deliveries(webhookId: string) {
  return (await app.getJson<Envelope<DeliveryWire[]>>(`/v1/webhooks/${webhookId}/deliveries`)).body.success;
}

/**
 * The Standard Webhooks check written out with node:crypto (independent of the service's signing code and of the
 * `standardwebhooks` package): base64 HMAC-SHA256, keyed by the secret's base64 part, over `id.timestamp.body`,
 * compared with each `v1,` signature, and a timestamp within five minutes.
 */
function signedBy(secret: string, delivery: Received): boolean {
  const id = String(delivery.headers['webhook-id']);
  const timestamp = String(delivery.headers['webhook-timestamp']);
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${delivery.body}`).digest();
  return String(delivery.headers['webhook-signature'])
    .split(' ')
    .filter((part) => part.startsWith('v1,'))
    .some((part) => {
      const given = Buffer.from(part.slice(3), 'base64');
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
}

/** Waits (bounded) until `check` holds. */
async function until(check: () => boolean | Promise<boolean>, boundMs = 20_000): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > boundMs) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('webhooks', () => {
  it('delivers each matching transaction once, signed so an independent implementation verifies it', async () => {
    const dealType = `hook-${randomUUID()}`;
    const queryId = await saveSearch(dealType);
    const { receiver: target, url } = await receiver();
    const created = await subscribe(queryId, url);
    expect(created.status).toBe(201);
    const { id, secret } = created.body.success!;
    expect(secret).toMatch(/^whsec_/);

    const [first, second] = [randomUUID(), randomUUID()];
    await app.services.db.execute(copyDeal(first, dealType));
    await app.services.db.execute(copyDeal(randomUUID(), `${dealType}-other`));
    await app.services.db.transaction(async (tx) => {
      await tx.execute(copyDeal(second, dealType));
      await tx.execute(sql`delete from events where reference = ${first}`);
    });
    await until(() => target.received.length >= 2);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(target.received).toHaveLength(2);
    const verifier = new Webhook(secret!);
    const bodies = target.received.map((delivery) => {
      const payload = verifier.verify(delivery.body, {
        'webhook-id': String(delivery.headers['webhook-id']),
        'webhook-timestamp': String(delivery.headers['webhook-timestamp']),
        'webhook-signature': String(delivery.headers['webhook-signature']),
      }) as {
        type: string;
        data: { queryId: string; cursor: string; rows: { reference: string; change: string }[] };
      };
      return payload;
    });
    expect(bodies.map((body) => body.data.rows.map((row) => [row.reference, row.change]))).toEqual([
      [[first, 'added']],
      [
        [second, 'added'],
        [first, 'removed'],
      ],
    ]);
    expect(bodies.every((body) => body.type === 'saved_search.feed' && body.data.queryId === queryId)).toBe(
      true,
    );
    // A tampered body fails the same check.
    expect(() =>
      verifier.verify(`${target.received[0]!.body} `, {
        'webhook-id': String(target.received[0]!.headers['webhook-id']),
        'webhook-timestamp': String(target.received[0]!.headers['webhook-timestamp']),
        'webhook-signature': String(target.received[0]!.headers['webhook-signature']),
      }),
    ).toThrow();
    // The delivery's cursor resumes the feed after it.
    const resumed = await app.getJson<Envelope<unknown[]>>(
      `/v1/searches/${queryId}/feed?after=${encodeURIComponent(bodies[0]!.data.cursor)}`,
    );
    expect(resumed.body.success).toHaveLength(2);
    const log = await deliveries(id);
    expect(log!.map((row) => [row.status, row.attempts, row.last_response_code])).toEqual([
      ['delivered', 1, 200],
      ['delivered', 1, 200],
    ]);
    const listed = await app.getJson<Envelope<WebhookWire[]>>('/v1/webhooks?limit=100');
    const mine = listed.body.success.find((row) => row.id === id);
    expect(mine).toMatchObject({ status: 'active' });
    expect(mine).not.toHaveProperty('secret');
  });

  it('retries 500s and a slow receiver until it answers 200, with the same id and body', async () => {
    const dealType = `hook-${randomUUID()}`;
    const queryId = await saveSearch(dealType);
    const { receiver: target, url } = await receiver();
    target.answers = [{ status: 500 }, { status: 503, delayMs: 300 }, { status: 200, delayMs: 500 }];
    const { id, secret } = (await subscribe(queryId, url)).body.success!;
    await app.services.db.execute(copyDeal(randomUUID(), dealType));
    await until(async () => (await deliveries(id))?.[0]?.status === 'delivered');
    expect(target.received).toHaveLength(3);
    expect(new Set(target.received.map((delivery) => delivery.id)).size).toBe(1);
    expect(new Set(target.received.map((delivery) => delivery.body)).size).toBe(1);
    expect((await deliveries(id))![0]).toMatchObject({
      status: 'delivered',
      attempts: 3,
      last_response_code: 200,
    });
    // The delivery that was answered 200, checked by the specification's recipe written out here.
    expect(signedBy(secret!, target.received[2]!)).toBe(true);
    expect(signedBy(`whsec_${Buffer.from('another secret').toString('base64')}`, target.received[2]!)).toBe(
      false,
    );
  });

  it('marks the subscription failing once the attempts are used up, and a retry delivers it', async () => {
    const dealType = `hook-${randomUUID()}`;
    const queryId = await saveSearch(dealType);
    // A receiver that is down: its port taken and released, so connections are refused.
    const probe = new Receiver();
    const url = await probe.listen();
    await probe.close();
    const { id } = (await subscribe(queryId, url)).body.success!;
    await app.services.db.execute(copyDeal(randomUUID(), dealType));
    await until(async () => (await deliveries(id))?.[0]?.status === 'failed');
    const [failed] = (await deliveries(id))!;
    expect(failed).toMatchObject({ attempts: 3, last_response_code: null });
    const state = await app.getJson<Envelope<WebhookWire[]>>('/v1/webhooks?limit=100');
    expect(state.body.success.find((row) => row.id === id)?.status).toBe('failing');

    const back = new Receiver();
    receivers.push(back);
    await back.listen(Number(new URL(url).port));
    const retried = await app.request(`/v1/webhooks/${id}/deliveries/${failed!.id}/retry`, {
      method: 'POST',
    });
    expect(retried.status).toBe(200);
    await until(async () => (await deliveries(id))?.[0]?.status === 'delivered');
    expect(back.received.map((delivery) => delivery.id)).toEqual([failed!.id]);
    const after = await app.getJson<Envelope<WebhookWire[]>>('/v1/webhooks?limit=100');
    expect(after.body.success.find((row) => row.id === id)?.status).toBe('active');
  });

  it('ends the subscription on 410 Gone', async () => {
    const dealType = `hook-${randomUUID()}`;
    const queryId = await saveSearch(dealType);
    const { receiver: target, url } = await receiver();
    target.fallback = 410;
    const { id } = (await subscribe(queryId, url)).body.success!;
    await app.services.db.execute(copyDeal(randomUUID(), dealType));
    await until(() => target.received.length === 1);
    await until(async () => (await deliveries(id))?.[0]?.status === 'cancelled');
    const listed = await app.getJson<Envelope<WebhookWire[]>>('/v1/webhooks?limit=100');
    expect(listed.body.success.some((row) => row.id === id)).toBe(false);
    await app.services.db.execute(copyDeal(randomUUID(), dealType));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(target.received).toHaveLength(1);
  });

  it('refuses plain http and private, loopback and link-local destinations unless allowed', async () => {
    // The same service configured strictly (WEBHOOK_ALLOW_PRIVATE unset); one process, as the embedded store wants.
    app.services.config.webhookAllowPrivate = false;
    try {
      const queryId = await saveSearch(`hook-${randomUUID()}`);
      for (const url of [
        'http://example.com/hook',
        'https://127.0.0.1/hook',
        'https://10.1.2.3/hook',
        'https://169.254.169.254/latest',
        'https://[::1]/hook',
        'https://[fe80::1]/hook',
        'https://localhost/hook',
        'not a url',
      ]) {
        const response = await app.request('/v1/webhooks', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ queryId, url }),
        });
        expect(response.status, url).toBe(422);
      }
    } finally {
      app.services.config.webhookAllowPrivate = true;
    }
    // At send time the name is resolved and every private answer refused, whatever it was at subscription.
    const { receiver: target, url } = await receiver();
    const refused = await sendDelivery(
      url.replace('http://127.0.0.1', 'https://localhost'),
      { id: randomUUID(), secret: 'whsec_c2VjcmV0', body: '{}' },
      { allowPrivate: false },
    );
    expect(refused).toMatchObject({ status: null, error: 'localhost resolves only to private addresses' });
    expect(target.received).toHaveLength(0);
    const answered = await sendDelivery(
      url,
      { id: randomUUID(), secret: 'whsec_c2VjcmV0', body: '{}' },
      {
        allowPrivate: true,
        timeoutMs: 200,
      },
    );
    target.answers = [];
    expect(answered.status).toBe(200);
    target.answers = [{ status: 200, hang: true }];
    const hung = await sendDelivery(
      url,
      { id: randomUUID(), secret: 'whsec_c2VjcmV0', body: '{}' },
      {
        allowPrivate: true,
        timeoutMs: 200,
      },
    );
    expect(hung).toMatchObject({ status: null, error: 'no answer within 0.2 s' });
  });

  it('shows a token only its own subscriptions, and needs a plan covering saved searches', async () => {
    const queryId = await saveSearch(`hook-${randomUUID()}`);
    const { url } = await receiver();
    const { id } = (await subscribe(queryId, url)).body.success!;
    const other = app.tokens.professional;
    const listed = await app.getJson<Envelope<WebhookWire[]>>('/v1/webhooks?limit=100', other);
    expect(listed.body.success.some((row) => row.id === id)).toBe(false);
    expect((await app.getJson(`/v1/webhooks/${id}/deliveries`, other)).status).toBe(404);
    expect((await app.request(`/v1/webhooks/${id}`, { method: 'DELETE', token: other })).status).toBe(404);
    expect((await subscribe(queryId, url, app.tokens.starter)).status).toBe(403);
    expect((await app.getJson('/v1/webhooks', app.tokens.starter)).status).toBe(403);
    expect((await subscribe(randomUUID(), url)).status).toBe(404);
    const ended = await app.request(`/v1/webhooks/${id}`, { method: 'DELETE' });
    expect(ended.status).toBe(200);
    expect(((await ended.json()) as Envelope<WebhookWire>).success.status).toBe('ended');
  });
});

describe('webhooks in the graph', () => {
  it('creates, lists, pages the deliveries of, retries and deletes a subscription, for its own token only', async () => {
    const dealType = `hook-${randomUUID()}`;
    const queryId = await saveSearch(dealType);
    const { receiver: target, url } = await receiver();
    const created = await app.graphql<{
      createWebhook: { secret: string; webhook: { id: string; status: string } };
    }>(
      'mutation ($queryId: UUID!, $url: String!) { createWebhook(queryId: $queryId, url: $url) { secret webhook { id status } } }',
      { queryId, url },
    );
    expect(created.body.errors).toBeUndefined();
    const { secret, webhook } = created.body.data!.createWebhook;
    expect(webhook.status).toBe('ACTIVE');
    await app.services.db.execute(copyDeal(randomUUID(), dealType));
    await until(() => target.received.length === 1);
    const verified = new Webhook(secret).verify(target.received[0]!.body, {
      'webhook-id': String(target.received[0]!.headers['webhook-id']),
      'webhook-timestamp': String(target.received[0]!.headers['webhook-timestamp']),
      'webhook-signature': String(target.received[0]!.headers['webhook-signature']),
    });
    expect(verified).toMatchObject({ data: { queryId } });

    const listQuery = `{ webhooks(first: 100) { edges { node { id url deliveries(first: 5) { edges { node { id status attempts lastResponseCode } } } } } } }`;
    interface Listed {
      webhooks: {
        edges: {
          node: {
            id: string;
            deliveries: {
              edges: { node: { id: string; status: string; attempts: number; lastResponseCode: number } }[];
            };
          };
        }[];
      };
    }
    await until(async () => {
      const listed = await app.graphql<Listed>(listQuery);
      const mine = listed.body.data!.webhooks.edges.find((edge) => edge.node.id === webhook.id);
      return mine?.node.deliveries.edges[0]?.node.status === 'DELIVERED';
    });
    const listed = await app.graphql<Listed>(listQuery);
    const delivery = listed.body.data!.webhooks.edges.find((edge) => edge.node.id === webhook.id)!.node
      .deliveries.edges[0]!.node;
    expect(delivery).toMatchObject({ id: target.received[0]!.id, attempts: 1, lastResponseCode: 200 });
    const someoneElse = await app.graphql<Listed>(listQuery, undefined, app.tokens.professional);
    expect(someoneElse.body.data!.webhooks.edges.some((edge) => edge.node.id === webhook.id)).toBe(false);

    const retried = await app.graphql<{ retryWebhookDelivery: { status: string } }>(
      'mutation ($w: UUID!, $d: UUID!) { retryWebhookDelivery(webhookId: $w, deliveryId: $d) { status } }',
      { w: webhook.id, d: delivery.id },
    );
    expect(retried.body.data!.retryWebhookDelivery.status).toBe('PENDING');
    await until(() => target.received.length === 2);
    const foreign = await app.graphql(
      'mutation ($id: UUID!) { deleteWebhook(id: $id) { status } }',
      { id: webhook.id },
      app.tokens.professional,
    );
    expect(foreign.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    const deleted = await app.graphql<{ deleteWebhook: { status: string } }>(
      'mutation ($id: UUID!) { deleteWebhook(id: $id) { status } }',
      { id: webhook.id },
    );
    expect(deleted.body.data!.deleteWebhook.status).toBe('ENDED');
    const starter = await app.graphql(
      '{ webhooks { edges { node { id } } } }',
      undefined,
      app.tokens.starter,
    );
    expect(starter.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });
});

describe.runIf(onPostgres)('webhooks across instances (PostgreSQL)', () => {
  it('two workers share the deliveries and never send one twice', async () => {
    const second = await openTestApp({ ...database.env, WEBHOOK_ALLOW_PRIVATE: 'true' });
    const otherWorker = startWebhookWorker(second.services.db, {
      allowPrivate: true,
      retrySeconds: [0.2],
      pollMs: 20,
    });
    try {
      const dealType = `hook-${randomUUID()}`;
      const queryId = await saveSearch(dealType);
      const { receiver: target, url } = await receiver();
      target.answers = Array.from({ length: 40 }, () => ({ status: 200, delayMs: 30 }));
      await subscribe(queryId, url);
      for (let index = 0; index < 30; index += 1)
        await app.services.db.execute(copyDeal(randomUUID(), dealType));
      await until(() => target.received.length >= 30);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(target.received).toHaveLength(30);
      expect(new Set(target.received.map((delivery) => delivery.id)).size).toBe(30);
    } finally {
      await otherWorker.stop();
      await second.close();
    }
  });

  it('sends again after the server is killed mid-delivery (SIGKILL, then a restart)', {
    timeout: 90_000,
  }, async () => {
    const env = {
      ...database.env,
      WEBHOOK_ALLOW_PRIVATE: 'true',
      // A safety net longer than the test: the new server sends when the killed one's lease ends, as it computed.
      WEBHOOK_POLL_MS: '60000',
      WEBHOOK_RETRY_SECONDS: '0.2',
    };
    const dealType = `hook-${randomUUID()}`;
    const queryId = await saveSearch(dealType);
    const { receiver: target, url } = await receiver();
    target.answers = [{ status: 200, hang: true }];
    const { id } = (await subscribe(queryId, url)).body.success!;
    // Only the server processes deliver in this test.
    await worker.stop();
    const first = await startServerProcess(env);
    let second: Awaited<ReturnType<typeof startServerProcess>> | undefined;
    try {
      await app.services.db.execute(copyDeal(randomUUID(), dealType));
      await until(() => target.received.length === 1);
      await stopProcess(first.child, 'SIGKILL');
      expect((await deliveries(id))![0]).toMatchObject({ status: 'pending', attempts: 1 });
      second = await startServerProcess(env);
      // The killed server's lease (the send's 10 s limit and 5 s) runs out, then the new one sends it.
      await until(async () => (await deliveries(id))?.[0]?.status === 'delivered', 40_000);
      expect(target.received.map((delivery) => delivery.id)).toEqual([
        target.received[0]!.id,
        target.received[0]!.id,
      ]);
      expect(target.received[1]!.body).toBe(target.received[0]!.body);
      expect((await deliveries(id))![0]).toMatchObject({ attempts: 2, last_response_code: 200 });
    } finally {
      if (first.child.exitCode === null && first.child.signalCode === null)
        await stopProcess(first.child, 'SIGKILL');
      if (second) await stopProcess(second.child, 'SIGTERM');
      worker = startSharedWorker();
    }
  });
});
