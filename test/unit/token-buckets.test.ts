import { TokenBuckets } from '../../ingest/token-buckets.ts';

describe('TokenBuckets (the ingest rate limits per address and per site)', () => {
  it('gives a key its burst, then `rate` a second, each key on its own', () => {
    let now = 0;
    const buckets = new TokenBuckets({ rate: 2, burst: 5 }, { now: () => now });
    expect(Array.from({ length: 7 }, () => buckets.take('site-1'))).toEqual([
      true,
      true,
      true,
      true,
      true,
      false,
      false,
    ]);
    expect(buckets.retryAfter('site-1')).toBe(1);
    expect(buckets.take('site-2')).toBe(true);
    now = 1000; // two tokens back, never more than the burst
    expect([buckets.take('site-1'), buckets.take('site-1'), buckets.take('site-1')]).toEqual([true, true, false]);
    now = 60_000;
    expect(Array.from({ length: 6 }, () => buckets.take('site-1')).filter(Boolean)).toHaveLength(5);
  });

  it('stays within maxKeys, dropping full buckets first', () => {
    let now = 0;
    const buckets = new TokenBuckets({ rate: 1, burst: 3 }, { maxKeys: 10, now: () => now });
    for (let i = 0; i < 3; i++) buckets.take('busy');
    now = 100;
    for (let i = 0; i < 50; i++) buckets.take(`one-off-${i}`);
    expect(buckets.size).toBeLessThanOrEqual(10);
  });
});
