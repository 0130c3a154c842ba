/**
 * Wakes the readers waiting for new changes (the SSE subscriptions) when the database announces one on the channel
 * `orgraph_event_changes` (the change log's triggers NOTIFY it in the writing transaction, so it arrives at commit,
 * on every instance). Composition connects the database's notifications to `announce`.
 */
const waiting = new Set<() => void>();

export const changeChannel = 'orgraph_event_changes';

export function announceChanges(): void {
  for (const wake of [...waiting]) wake();
}

/** Resolves at the next announcement, or after `maxWaitMs` (a safety net should a notification be lost). */
export function nextChange(maxWaitMs: number, signal?: AbortSignal): Promise<void> {
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
