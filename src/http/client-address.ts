import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';

/**
 * The address of the client behind a request. With `trustProxy` = n > 0 proxies in front of the server, each of
 * which appends the address it was connected from to `X-Forwarded-For`, it is the n-th entry from the right (the
 * entries left of it are whatever the client sent, so never trusted). Otherwise, or when the header is shorter
 * than that, the socket's remote address. Undefined for a request that came through no socket (in-process).
 */
export function clientAddress(c: Context, trustProxy: number): string | undefined {
  if (trustProxy > 0) {
    const forwarded = (c.req.header('X-Forwarded-For') ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean);
    const hop = forwarded[forwarded.length - trustProxy];
    if (hop) return hop;
  }
  try {
    return getConnInfo(c).remote.address || undefined;
  } catch {
    return undefined;
  }
}
