/**
 * Wakes the readers waiting for new changes (the SSE subscriptions and the webhook worker) when the database
 * announces one on the channel `orgraph_event_changes`: the change log's triggers NOTIFY it in the writing
 * transaction, so it arrives at commit, on every instance of PostgreSQL; the embedded database delivers it to its
 * own listener within its one process. Composition connects the database's notifications to `announceChanges`.
 *
 * Announcements are counted, so a reader that takes the count before it reads and waits with it never misses one
 * that arrived while it was reading (it then returns at once instead of sleeping until its safety net).
 */
const waiting = new Set<() => void>();
let announced = 0;

export const changeChannel = 'orgraph_event_changes';

export function announceChanges(): void {
  announced += 1;
  for (const wake of [...waiting]) wake();
}

/** The number of announcements so far: take it before reading, and pass it to `nextChange` after. */
export function changesAnnounced(): number {
  return announced;
}

/**
 * Resolves at the first announcement after the count `seen` (at once if there has been one already), or after
 * `maxWaitMs` (a safety net should a notification be lost), or when `signal` aborts.
 */
export function nextChange(seen: number, maxWaitMs: number, signal?: AbortSignal): Promise<void> {
  if (announced !== seen || signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const wake = () => {
      waiting.delete(wake);
      clearTimeout(timer);
      signal?.removeEventListener('abort', wake);
      resolve();
    };
    const timer = setTimeout(wake, maxWaitMs);
    waiting.add(wake);
    signal?.addEventListener('abort', wake, { once: true });
  });
}
