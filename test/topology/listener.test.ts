import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenerApplicationName, NotificationListener } from '../../src/db/notifications.ts';
import { createScratchDatabase, type ScratchDatabase } from '../reliability/support/scratch-postgres.ts';

/**
 * The one listening connection an instance shares between the token cache and the feed's change signal: each
 * channel's handlers hear their own notifications, a channel added later is heard too, and after the connection is
 * lost its readers hear that it stopped and that it listens again (when a commit may have gone unheard).
 */
let database: ScratchDatabase;
let admin: postgres.Sql;

beforeAll(async () => {
  database = await createScratchDatabase('listener', { migrated: false });
  admin = postgres(database.url, { max: 1, onnotice: () => {} });
}, 60_000);
afterAll(async () => {
  await admin?.end({ timeout: 1 });
  await database?.drop();
});

/** Polls every 10 ms until `check` holds, for at most `boundMs`. */
async function until(check: () => boolean, boundMs = 5_000): Promise<void> {
  for (let waited = 0; !check(); waited += 10) {
    if (waited > boundMs) throw new Error(`not within ${boundMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('the shared notification listener', () => {
  it('hands each channel its own notifications, a channel added after the start included', async () => {
    const listener = new NotificationListener(database.url);
    const heard: string[] = [];
    listener.on('orgraph_test_a', () => heard.push('a'));
    await listener.start();
    try {
      expect(listener.listening).toBe(true);
      await admin`select pg_notify('orgraph_test_a', ''), pg_notify('orgraph_test_c', '')`;
      await until(() => heard.includes('a'));
      listener.on('orgraph_test_b', () => heard.push('b'));
      // Its LISTEN goes out at once but cannot be awaited: notified until heard, at most 5 s.
      for (let tries = 0; !heard.includes('b') && tries < 100; tries += 1) {
        await admin`select pg_notify('orgraph_test_b', '')`;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(heard[0]).toBe('a');
      expect(heard.filter((channel) => channel === 'a')).toHaveLength(1);
      expect(heard.slice(1).every((channel) => channel === 'b')).toBe(true);
      expect(heard).toContain('b');
    } finally {
      await listener.close();
    }
    expect(listener.listening).toBe(false);
  });

  it('tells its readers when it stops listening and when it listens again, and hears what follows', async () => {
    const listener = new NotificationListener(database.url, { retryMs: 50 });
    const states: boolean[] = [];
    let heard = 0;
    listener.on('orgraph_test_again', () => {
      heard += 1;
    });
    listener.onState((listening) => states.push(listening));
    await listener.start();
    try {
      expect(states).toEqual([true]);
      await admin`select pg_terminate_backend(pid) from pg_stat_activity
        where application_name = ${listenerApplicationName} and datname = current_database()`;
      await until(() => states.length >= 3);
      expect(states).toEqual([true, false, true]);
      await admin`select pg_notify('orgraph_test_again', '')`;
      await until(() => heard === 1);
    } finally {
      await listener.close();
    }
  });
});
