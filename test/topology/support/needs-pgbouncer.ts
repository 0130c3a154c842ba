import { beforeAll, beforeEach } from 'vitest';
import { pgbouncerBinary } from './pgbouncer.ts';

/**
 * Skips the enclosing suite, with the reason, when PgBouncer is not installed; under ORGRAPH_TEST_REQUIRE_SERVICES=1
 * (CI, whose .ci/run installs it) its absence fails the suite instead. Returns whether it is there.
 */
export function needsPgbouncer(): boolean {
  if (pgbouncerBinary) return true;
  const reason = 'PgBouncer is not installed (apt-get install -y pgbouncer, or set PGBOUNCER_PATH)';
  if (process.env.ORGRAPH_TEST_REQUIRE_SERVICES === '1') {
    beforeAll(() => {
      throw new Error(reason);
    });
  } else beforeEach(({ skip }) => skip(reason));
  return false;
}
