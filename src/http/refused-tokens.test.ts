import { afterEach, describe, expect, it, vi } from 'vitest';
import { RefusedTokens } from './refused-tokens.ts';

afterEach(() => vi.useRealTimers());

describe('RefusedTokens', () => {
  it('remembers a token for its time to live only', () => {
    vi.useFakeTimers({ now: 0 });
    const refused = new RefusedTokens(1_000);
    refused.add('a');
    expect(refused.has('a')).toBe(true);
    expect(refused.has('b')).toBe(false);
    vi.setSystemTime(999);
    expect(refused.has('a')).toBe(true);
    vi.setSystemTime(1_000);
    expect(refused.has('a')).toBe(false);
  });

  it('forgets the oldest token past its size', () => {
    const refused = new RefusedTokens(60_000, 2);
    refused.add('a');
    refused.add('b');
    refused.add('a'); // refreshed: now the newest
    refused.add('c');
    expect([refused.has('a'), refused.has('b'), refused.has('c')]).toEqual([true, false, true]);
  });
});
