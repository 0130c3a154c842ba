import { beforeEach, inject } from 'vitest';
import type { TestServices } from './test-services.ts';

/** The services the run found or started before any test file (test-services.ts, global setup). */
export const testServices: TestServices = inject('testServices');

/**
 * Skips every test of the enclosing suite (or file), with the reason, when `service` is missing; returns whether it
 * is there, for the suite's hooks to do nothing without it. The run fails instead under ORGRAPH_TEST_REQUIRE_SERVICES=1.
 */
export function needs(service: 'redis' | 'chromium' | 'graphql-tools'): boolean {
  const reason = {
    redis: testServices.redisMissing,
    chromium: testServices.chromiumMissing,
    'graphql-tools': testServices.graphqlToolsMissing,
  }[service];
  if (reason) beforeEach(({ skip }) => skip(reason));
  return !reason;
}
