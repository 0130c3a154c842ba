import { describe, expect, it } from 'vitest';
import { announceChanges, changesAnnounced, nextChange } from '../../src/domain/feed/change-signal.ts';

/** How long `wait` took to settle, bounded: null if it had not within `boundMs`. */
async function settles(wait: Promise<void>, boundMs: number): Promise<number | null> {
  const started = performance.now();
  return Promise.race([
    wait.then(() => performance.now() - started),
    new Promise<null>((resolve) => setTimeout(() => resolve(null), boundMs)),
  ]);
}

describe('the change signal', () => {
  it('returns at once when a change was announced after the count was taken (while the reader was reading)', async () => {
    const seen = changesAnnounced();
    announceChanges();
    expect(changesAnnounced()).toBe(seen + 1);
    const waited = await settles(nextChange(seen, 60_000), 1_000);
    expect(waited).not.toBeNull();
    expect(waited!).toBeLessThan(1_000);
  });

  it('waits for the next announcement when none came since the count, and wakes every waiter on it', async () => {
    const seen = changesAnnounced();
    const woken: number[] = [];
    const first = nextChange(seen, 60_000).then(() => woken.push(1));
    const second = nextChange(seen, 60_000).then(() => woken.push(2));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(woken).toEqual([]);
    announceChanges();
    await Promise.all([first, second]);
    expect(woken.sort()).toEqual([1, 2]);
  });

  it('gives up after its safety net, or when its signal aborts', async () => {
    expect(await settles(nextChange(changesAnnounced(), 20), 5_000)).not.toBeNull();
    const controller = new AbortController();
    const waiting = nextChange(changesAnnounced(), 60_000, controller.signal);
    controller.abort();
    expect(await settles(waiting, 5_000)).not.toBeNull();
  });
});
