/**
 * Tokens this instance refused lately, so that a throttled address repeating one (a client still sending a revoked
 * token) is answered without a lookup. A refused token never becomes good: tokens are 256 random bits and a
 * revocation is final. Bounded in size and age; past either, a token is simply looked up again.
 */
export class RefusedTokens {
  private readonly entries = new Map<string, number>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  add(token: string): void {
    this.entries.delete(token);
    this.entries.set(token, Date.now() + this.ttlMs);
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }

  has(token: string): boolean {
    const expires = this.entries.get(token);
    if (expires === undefined) return false;
    if (expires > Date.now()) return true;
    this.entries.delete(token);
    return false;
  }
}
