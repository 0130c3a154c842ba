import { createHmac } from 'node:crypto';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import { isPrivateAddress } from './destination.ts';

export const deliveryTimeoutMs = 10_000;
/** The most of a receiver's response that is read (for the delivery log); the rest is dropped. */
export const maxResponseBytes = 64 * 1024;

export interface DeliveryResult {
  /** The receiver's status, or null when no response came (refused, timed out, unreachable, not allowed). */
  status: number | null;
  error: string | null;
  /** The start of the response body, at most 64 KiB. */
  body: string;
}

/** Standard Webhooks: `v1,` + base64 of HMAC-SHA256 over `id.timestamp.body`, keyed with the secret's bytes. */
export function signDelivery(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

class RefusedAddress extends Error {}

/**
 * A DNS lookup that refuses private, loopback and link-local answers: the check is made on the very address the
 * connection uses, at send time, so a name that changes its answer after subscribing cannot reach inside.
 */
const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '', 0);
    const list = addresses as LookupAddress[];
    const allowed = list.filter((entry) => !isPrivateAddress(entry.address));
    if (allowed.length === 0) {
      return callback(new RefusedAddress(`${hostname} resolves only to private addresses`), '', 0);
    }
    if ((options as { all?: boolean }).all)
      return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, allowed);
    return callback(null, allowed[0]!.address, allowed[0]!.family);
  });
};

/**
 * POSTs a signed delivery: Standard Webhooks headers, a 10 s limit on the whole exchange, at most 64 KiB of the
 * response read, redirects not followed (a 3xx is a failed attempt).
 */
export function sendDelivery(
  target: string,
  delivery: { id: string; secret: string; body: string },
  options: { allowPrivate: boolean; timeoutMs?: number },
): Promise<DeliveryResult> {
  const url = new URL(target);
  const timestamp = Math.floor(Date.now() / 1000);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!options.allowPrivate) {
    if (url.protocol !== 'https:')
      return Promise.resolve({ status: null, error: 'only https is allowed', body: '' });
    if (isIP(host) && isPrivateAddress(host)) {
      return Promise.resolve({ status: null, error: `${host} is a private address`, body: '' });
    }
  }
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: DeliveryResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const request = transport.request(
      url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'orgraph-webhooks',
          'webhook-id': delivery.id,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': signDelivery(delivery.secret, delivery.id, timestamp, delivery.body),
        },
        ...(options.allowPrivate ? {} : { lookup: publicOnlyLookup }),
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          if (size >= maxResponseBytes) return;
          chunks.push(chunk.subarray(0, maxResponseBytes - size));
          size += Math.min(chunk.length, maxResponseBytes - size);
          if (size >= maxResponseBytes) {
            request.destroy();
            done();
          }
        });
        const done = () =>
          finish({
            status: response.statusCode ?? null,
            error: null,
            body: Buffer.concat(chunks).toString('utf8'),
          });
        response.on('end', done);
        response.on('error', done);
        response.on('close', done);
      },
    );
    const timer = setTimeout(() => {
      request.destroy();
      finish({
        status: null,
        error: `no answer within ${(options.timeoutMs ?? deliveryTimeoutMs) / 1000} s`,
        body: '',
      });
    }, options.timeoutMs ?? deliveryTimeoutMs);
    request.on('error', (error) =>
      finish({
        status: null,
        error:
          error instanceof RefusedAddress
            ? error.message
            : `${(error as NodeJS.ErrnoException).code ?? error.message}`,
        body: '',
      }),
    );
    request.end(delivery.body);
  });
}
