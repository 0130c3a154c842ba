import type { Plugin } from '@envelop/core';

/**
 * Operations executing at once in one process. A nested query holds megabytes of rows until it is
 * answered, so without a bound the server's memory grew with the number of concurrent queries
 * (bench/NOTES.md 7); two cores and a pool of ten connections gain nothing from running more than a few at a
 * time, so the rest wait their turn.
 */
export const maxConcurrentExecutions = 8;

/** Lets at most `limit` operations execute at once; the others wait, first come first served. */
export function useExecutionGate(limit = maxConcurrentExecutions): Plugin {
  let running = 0;
  const waiting: (() => void)[] = [];
  const acquire = (): Promise<void> => {
    if (running < limit) {
      running += 1;
      return Promise.resolve();
    }
    return new Promise((resolve) => waiting.push(resolve));
  };
  // The slot passes straight to the next in line, so `running` only drops when nobody waits.
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  };
  return {
    onExecute({ executeFn, setExecuteFn }) {
      setExecuteFn(async (args) => {
        await acquire();
        try {
          return await executeFn(args);
        } finally {
          release();
        }
      });
    },
  };
}
