/**
 * Points a count is priced at per millisecond of its time limit (`COUNT_TIMEOUT_MS`): a count whose filter matches
 * much of a table keeps a database connection busy for the whole limit, whatever page it sits beside.
 */
export const countPointsPerMs = 1;

/** The price of one count (a GraphQL `totalCount`, a REST list's `total`) in cost points: its time limit in milliseconds, at least 1. */
export function countCostOf(countTimeoutMs: number): number {
  return Math.max(1, Math.ceil(countTimeoutMs * countPointsPerMs));
}
