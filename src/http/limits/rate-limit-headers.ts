import type { QuotaState } from './quotas.ts';

/**
 * The `RateLimit-Policy` and `RateLimit` fields of the IETF httpapi draft "RateLimit header fields for HTTP"
 * (draft-ietf-httpapi-ratelimit-headers-09): Structured Field lists whose items are the policy name (an sf-string)
 * with `q` (quota) and `w` (window, seconds), and `r` (remaining) and `t` (seconds until the quota resets).
 * The policy is named after the plan, whose names are plain `[a-z0-9_-]` and need no escaping.
 */
export function rateLimitHeaders(policy: string, state: QuotaState): Record<string, string> {
  return {
    'RateLimit-Policy': `"${policy}";q=${state.limit};w=${state.windowSeconds}`,
    RateLimit: `"${policy}";r=${state.remaining};t=${state.resetSeconds}`,
  };
}

/** The headers of a refusal: the same fields, plus when to retry. */
export function rateLimitedHeaders(policy: string, state: QuotaState): Record<string, string> {
  return { ...rateLimitHeaders(policy, state), 'Retry-After': String(state.resetSeconds) };
}
