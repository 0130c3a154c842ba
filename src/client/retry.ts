export type FetchLike = (request: Request) => Promise<Response> | Response;

export interface RetryOptions {
  /** Further tries after the first, on 429 and 503 (default 3). 0 turns retrying off. */
  retries?: number;
  /** Wait before a retry when the service gives no Retry-After: doubled on each retry (default 500 ms). */
  backoffMs?: number;
  /** The longest wait the client accepts; a longer Retry-After returns the error at once (default 60 s). */
  maxDelayMs?: number;
  /** How to wait; tests pass one that records the delays instead of sleeping. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

const retryableStatuses = new Set([429, 503]);

/** Retry-After as milliseconds: delay-seconds or an HTTP date (RFC 9110 §10.2.3); undefined when absent or bad. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  // An HTTP date names its day and month; without this, Date.parse would take "-3" for a year.
  const date = /^[A-Za-z]{3}/.test(trimmed) ? Date.parse(trimmed) : Number.NaN;
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', abort);
      resolve();
    }, ms);
    const abort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', abort, { once: true });
  });
}

/**
 * Wraps `fetch` so that a 429 or 503 is tried again after the wait the service asks for (Retry-After), or after
 * an exponential backoff when it does not say, a bounded number of times. Every endpoint is safe to repeat: all
 * but one are reads, and saving the same search twice returns the same `queryId`.
 */
export function retrying(
  fetchImpl: FetchLike,
  options: RetryOptions = {},
): (request: Request) => Promise<Response> {
  const retries = options.retries ?? 3;
  const backoffMs = options.backoffMs ?? 500;
  const maxDelayMs = options.maxDelayMs ?? 60_000;
  const wait = options.sleep ?? sleep;
  return async (request) => {
    for (let attempt = 0; ; attempt += 1) {
      // The request is cloned before each send: a body can be read only once.
      const response = await fetchImpl(request.clone());
      if (!retryableStatuses.has(response.status) || attempt >= retries) return response;
      const delay = parseRetryAfter(response.headers.get('Retry-After')) ?? backoffMs * 2 ** attempt;
      if (delay > maxDelayMs) return response;
      await response.body?.cancel();
      await wait(delay, request.signal);
    }
  };
}
