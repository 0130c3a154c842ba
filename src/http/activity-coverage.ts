import type { Viewer } from '../auth/tokens.ts';
import { DomainError } from '../domain/errors.ts';

/**
 * Filtering organisations by activity (`activity_type`, `activity_period`; `activityTypes`, `activityPeriod` in the
 * graph) answers questions about events — which organisations raised funding this week — so it needs a plan
 * covering `events`, as the events themselves do. Refused (FORBIDDEN) rather than ignored: a list that silently
 * dropped a filter would look filtered. The default scope of the list (organisations with any recorded activity)
 * is the interface's and stays open to every plan.
 */
export function requireActivityCoverage(
  viewer: Viewer | null,
  filter: { activityTypes?: readonly unknown[] | undefined; activityPeriod?: unknown },
): void {
  const filtersByActivity = (filter.activityTypes?.length ?? 0) > 0 || filter.activityPeriod !== undefined;
  if (!filtersByActivity || viewer?.plan.covers.includes('events')) return;
  throw new DomainError(
    'FORBIDDEN',
    `Your plan (${viewer?.plan.name ?? 'none'}) does not cover events, which filtering organisations by activity ` +
      `needs; it covers ${viewer?.plan.covers.join(', ') || 'nothing'}.`,
  );
}
