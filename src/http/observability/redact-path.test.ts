import { describe, expect, it } from 'vitest';
import { redactPath } from './redact-path.ts';

describe('redactPath', () => {
  it('replaces a token in the path and leaves the rest as it was', () => {
    const token = `orgr_${'a'.repeat(43)}-_Zq9x1`;
    expect(redactPath(`/reconcile/${token}/suggest/entity`)).toBe(
      '/reconcile/orgr_[redacted]/suggest/entity',
    );
    expect(redactPath('/v1/organisations/3f0c')).toBe('/v1/organisations/3f0c');
  });
});
