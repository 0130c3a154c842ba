import type { DatabaseHandle } from './database.ts';

/**
 * Calls `onNotify` on every notification on `channel`, whichever driver holds the database: PostgreSQL's
 * LISTEN/NOTIFY across every instance, or the embedded database's within its one process. Resolves with a function
 * that stops listening.
 */
export async function listenTo(
  handle: DatabaseHandle,
  channel: string,
  onNotify: () => void,
): Promise<() => Promise<void>> {
  if (handle.driver.kind === 'postgres') {
    const request = await handle.driver.client.listen(channel, () => onNotify());
    return () => request.unlisten();
  }
  const stop = await handle.driver.client.listen(channel, () => onNotify());
  return () => stop();
}
