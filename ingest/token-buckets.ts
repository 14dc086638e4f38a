import type { TokenBucketRule } from '../infra/config.ts';

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * Token buckets by key, in this process's memory: each key may take `burst` at once, then `rate` a second.
 * Buckets that have filled up again carry no information and are dropped when the map grows past
 * `maxKeys`; if it is still too large (a flood of distinct keys), the oldest entries go, which at worst hands
 * such a key a fresh burst.
 */
export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();
  private readonly rule: TokenBucketRule;
  private readonly maxKeys: number;
  private readonly now: () => number;

  constructor(rule: TokenBucketRule, options: { maxKeys?: number; now?: () => number } = {}) {
    this.rule = rule;
    this.maxKeys = options.maxKeys ?? 100_000;
    this.now = options.now ?? Date.now;
  }

  /** Takes one token; false when the key's bucket is empty. */
  take(key: string): boolean {
    const now = this.now();
    const bucket = this.buckets.get(key);
    if (!bucket) {
      if (this.buckets.size >= this.maxKeys) this.shrink(now);
      this.buckets.set(key, { tokens: this.rule.burst - 1, at: now });
      return true;
    }
    bucket.tokens = Math.min(this.rule.burst, bucket.tokens + ((now - bucket.at) / 1000) * this.rule.rate);
    bucket.at = now;
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }

  /** Seconds until the key has a token again (for Retry-After), at least 1. */
  retryAfter(key: string): number {
    const bucket = this.buckets.get(key);
    if (!bucket) return 1;
    return Math.max(1, Math.ceil((1 - bucket.tokens) / this.rule.rate));
  }

  get size(): number {
    return this.buckets.size;
  }

  private shrink(now: number): void {
    for (const [key, bucket] of this.buckets) {
      if (bucket.tokens + ((now - bucket.at) / 1000) * this.rule.rate >= this.rule.burst) this.buckets.delete(key);
    }
    const excess = this.buckets.size - Math.floor(this.maxKeys * 0.9);
    if (excess <= 0) return;
    let dropped = 0;
    for (const key of this.buckets.keys()) {
      if (dropped++ >= excess) break;
      this.buckets.delete(key);
    }
  }
}
