import type { ReadRoutingEvents, ReplicaState } from '../../db/read-routing.ts';
import { logger } from './logger.ts';
import { metrics } from './metrics.ts';

const states: readonly ReplicaState[] = ['serving', 'lagging', 'down', 'not-a-standby'];

function showState(current: ReplicaState): void {
  for (const state of states) metrics.readReplicaState.set({ state }, state === current ? 1 : 0);
}

/**
 * What the read routing reports, as log lines and metrics: one line when the replica changes state (never one per
 * request), the state as a gauge, and every read the primary took over as a counter.
 */
export function observeReadRouting(): ReadRoutingEvents {
  showState('serving');
  return {
    stateChanged({ state, previous, replica, error, downMs }) {
      showState(state);
      const fields = { replica, state, previous, ...(error ? { error } : {}), ...(downMs ? { downMs } : {}) };
      if (state === 'down') {
        logger().warn(
          fields,
          `read replica ${replica} refused (${error}); reads go to the primary until it answers`,
        );
      } else if (state === 'lagging') {
        logger().warn(
          fields,
          `read replica ${replica} has not replayed the primary's position within DATABASE_READ_MAX_LAG_MS; ` +
            'reads go to the primary until it catches up',
        );
      } else if (state === 'not-a-standby') {
        logger().warn(
          fields,
          `DATABASE_READ_URL (${replica}) is not a standby: it has no replay position to show that it holds what ` +
            'the primary announced, so reads go to DATABASE_URL',
        );
      } else if (previous === 'down') {
        logger().warn(fields, `read replica ${replica} is back after ${downMs} ms; reads return to it`);
      } else {
        logger().info(fields, `read replica ${replica} serves reads again (was ${previous})`);
      }
    },
    readOnPrimary(reason) {
      metrics.readsOnPrimary.inc({ reason });
    },
  };
}
