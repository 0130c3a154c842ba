import type { Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { loadPlans } from '../auth/plans.ts';
import { ViewerCache } from '../auth/viewer-cache.ts';
import type { Config } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import { migrateDatabase } from '../db/migrate.ts';
import { listenTo, NotificationListener } from '../db/notifications.ts';
import { openReadRouting } from '../db/read-routing.ts';
import { activityReconciler } from '../domain/activity.ts';
import { announceChanges, changeChannel } from '../domain/feed/change-signal.ts';
import { pruneChangeLog } from '../domain/feed/prune.ts';
import { createQuotas } from '../http/limits/quotas.ts';
import { createLogger, logger, useLogger } from '../http/observability/logger.ts';
import { instrumentDatabase } from '../http/observability/metrics.ts';
import { observeReadRouting } from '../http/observability/read-replica.ts';
import { type AppServices, createClosing } from '../http/services.ts';
import { startWebhookWorker } from '../rest/webhook-worker.ts';
import type { SeedRunner } from './admin-records.ts';
import { openAdminSocket } from './admin-socket.ts';
import { createApp } from './app.ts';
import { trackConnections } from './graceful-close.ts';

export interface RunningServer {
  url: string;
  services: AppServices;
  /** Stops accepting, lets in-flight requests finish, closes the pool. */
  shutdown(): Promise<void>;
}

/** Opens the database, migrates it, and serves on HOST:PORT. */
export async function startServer(
  config: Config,
  options: { beforeListen?: (services: AppServices) => Promise<void>; seed?: SeedRunner } = {},
): Promise<RunningServer> {
  useLogger(createLogger({ level: config.logLevel }));
  const plans = loadPlans(config.plansFile);
  const handle = await openDatabase(config);
  instrumentDatabase(handle);
  const reads = openReadRouting(config, handle, { events: observeReadRouting(), opened: instrumentDatabase });
  const quotas = createQuotas(config);
  // One listening connection for the tokens' changes and the feed's, on the primary without a transaction pooler
  // (DATABASE_DIRECT_URL when set): tokens are checked on the primary, and the feed is written there.
  const listener =
    handle.driver.kind === 'postgres' ? new NotificationListener(handle.driver.topology.session.url) : null;
  const viewerCache = listener ? new ViewerCache(listener) : null;
  const closing = createClosing();
  const services: AppServices = {
    config,
    handle,
    db: handle.db,
    plans,
    readiness: { accepting: false },
    closing: closing.signal,
    reads,
    quotas,
    viewerCache,
  };
  await migrateDatabase(handle, plans.keys());
  // A commit may go unheard while the listener is down: its readers read again whenever it listens again.
  const changeStops = listener
    ? [
        listener.on(changeChannel, announceChanges),
        listener.onState((listening) => listening && announceChanges()),
      ]
    : undefined;
  const stopChangeSignal = changeStops
    ? async () => {
        for (const stop of changeStops) stop();
      }
    : undefined;
  await listener?.start();
  await options.beforeListen?.(services);

  const app = createApp(services);
  const server = serve({ fetch: app.fetch, port: config.port, hostname: config.host });
  const connections = trackConnections(server as HttpServer);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  services.readiness.accepting = true;
  const address = server.address() as AddressInfo;
  // The embedded store admits this process only: the CLI asks it over a socket only its user can open.
  const adminSocket =
    handle.driver.kind === 'pglite'
      ? await openAdminSocket(handle.driver.dataDir, handle, plans, options.seed)
      : undefined;

  const reconcileActivity = activityReconciler(handle.db);
  const refresher =
    config.activityRefreshSeconds > 0
      ? setInterval(() => {
          reconcileActivity().catch((error) =>
            logger().error({ err: error }, 'reconciling organisation activity failed'),
          );
        }, config.activityRefreshSeconds * 1000)
      : undefined;
  refresher?.unref();
  const webhooks = startWebhookWorker(handle.db, {
    allowPrivate: config.webhookAllowPrivate,
    retrySeconds: config.webhookRetrySeconds,
    pollMs: config.webhookPollMs,
    onError: (error) => logger().error({ err: error }, 'delivering webhooks failed'),
  });
  // Wakes this instance's feed subscriptions and webhook worker when any instance (or any writer) commits event
  // changes (on PostgreSQL through the shared listener, subscribed before it started).
  const stopListening = stopChangeSignal ?? (await listenTo(handle, changeChannel, announceChanges));
  const pruner = setInterval(
    () =>
      pruneChangeLog(handle.db).catch((error) =>
        logger().error({ err: error }, 'pruning the change log failed'),
      ),
    60 * 60 * 1000,
  );
  pruner.unref();

  let stopping: Promise<void> | undefined;
  const shutdown = () => {
    stopping ??= (async () => {
      services.readiness.accepting = false;
      // Subscriptions end their streams, so that their requests finish like any other.
      closing.abort();
      if (refresher) clearInterval(refresher);
      clearInterval(pruner);
      await stopListening().catch(() => {});
      await webhooks.stop();
      // Takes the connections already queued, then refuses new ones, finishes every accepted request, and closes
      // idle keep-alive connections.
      await connections.close({ idleGraceMs: 1_000, maxDrainMs: 3_000 });
      await adminSocket?.close();
      await quotas.close();
      await services.persistedQueries?.close();
      await viewerCache?.close();
      await listener?.close();
      await reads?.close();
      await handle.close();
    })();
    return stopping;
  };

  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return { url: `http://${host}:${address.port}`, services, shutdown };
}
