import { BlockList, isIP } from 'node:net';
import { invalidParameter } from '../errors.ts';

/** Addresses a webhook may not reach unless private destinations are allowed: none of them is the internet. */
const refused = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  refused.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  refused.addSubnet(network, prefix, 'ipv6');
}

/** True for a private, loopback, link-local, multicast or otherwise non-public address (IPv4-mapped included). */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return refused.check(mapped[1]!, 'ipv4');
  const family = isIP(address);
  if (family === 4) return refused.check(address, 'ipv4');
  if (family === 6) return refused.check(address, 'ipv6');
  return true;
}

const anyCase = (word: string) =>
  [...word].map((letter) => `[${letter.toUpperCase()}${letter.toLowerCase()}]`).join('');

/**
 * The URLs `checkWebhookUrl` accepts without private destinations, as far as a pattern can say it: https, a host
 * name (its last label starts with a letter, so it is never read as an IPv4 address) that is not `localhost` or
 * below it, an optional port, path and query. The server also accepts public IP literals, which the pattern leaves out.
 */
export const publicWebhookUrlPattern =
  `^https://(?!(?:[^/:]*\\.)?${anyCase('localhost')}(?:[:/]|$))` +
  '(?:[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*\\.)*[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*' +
  "(?::[1-9][0-9]{0,3})?(?:/[A-Za-z0-9._~!$&'()*+,;=:@%/-]*)?(?:\\?[A-Za-z0-9._~!$&'()*+,;=:@%/?-]*)?$";

/** Checks a subscription's URL when it is given: https (or http when private destinations are allowed), no credentials. */
export function checkWebhookUrl(text: string, allowPrivate: boolean): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalidParameter('The webhook `url` is not an absolute URL.');
  }
  const schemes = allowPrivate ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol)) {
    throw invalidParameter(`The webhook \`url\` must use https (got ${url.protocol.replace(':', '')}).`);
  }
  if (url.username || url.password) {
    throw invalidParameter(
      'The webhook `url` must not carry credentials; verify deliveries by their signature.',
    );
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (
    !allowPrivate &&
    (isIP(host) ? isPrivateAddress(host) : host === 'localhost' || host.endsWith('.localhost'))
  ) {
    throw invalidParameter(
      'The webhook `url` must reach a public address, not a private, loopback or link-local one.',
    );
  }
  return url;
}
