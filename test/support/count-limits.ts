let lastLimit = 10_000;

/**
 * A count time limit (ms) not used before in this worker: counts are reused per query and limit for a while (see
 * countWithinLimit), so a test that changes the data and counts again asks with a new limit.
 */
export function unusedCountLimit(): number {
  lastLimit += 1;
  return lastLimit;
}

/** Count options with {@link unusedCountLimit}. */
export function freshCountOptions(): { timeoutMs: number } {
  return { timeoutMs: unusedCountLimit() };
}
