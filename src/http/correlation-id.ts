import { randomUUID } from 'node:crypto';

const saneCorrelationId = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

/** The caller's `X-Correlation-ID` when it is one a log line can carry safely, else a new one. */
export function correlationIdOf(offered: string | undefined): string {
  return offered && saneCorrelationId.test(offered) ? offered : randomUUID();
}
