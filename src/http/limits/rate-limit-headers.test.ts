import { describe, expect, it } from 'vitest';
import { rateLimitedHeaders, rateLimitHeaders } from './rate-limit-headers.ts';

const state = { allowed: true, limit: 600, remaining: 599, windowSeconds: 60, resetSeconds: 42 };

describe('rate-limit headers', () => {
  it('writes the policy and the current state as draft-09 structured fields', () => {
    expect(rateLimitHeaders('starter', state)).toEqual({
      'RateLimit-Policy': '"starter";q=600;w=60',
      RateLimit: '"starter";r=599;t=42',
    });
  });

  it('adds Retry-After, equal to the reset, to a refusal', () => {
    const refused = { ...state, allowed: false, remaining: 0, resetSeconds: 17 };
    expect(rateLimitedHeaders('enterprise', refused)).toEqual({
      'RateLimit-Policy': '"enterprise";q=600;w=60',
      RateLimit: '"enterprise";r=0;t=17',
      'Retry-After': '17',
    });
  });
});
