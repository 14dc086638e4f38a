import { BUSY_RETRY_FIRST_MS, BUSY_RETRY_MAX_MS, busyRetryDelayMs } from '../../core/webhooks/limits.ts';

describe('busyRetryDelayMs (an attempt whose account has every slot taken)', () => {
  it('starts near the first wait and grows with the tries', () => {
    expect(busyRetryDelayMs(1, () => 0.5)).toBe(BUSY_RETRY_FIRST_MS);
    expect(busyRetryDelayMs(2, () => 0.5)).toBe(1500);
    expect(busyRetryDelayMs(3, () => 0.5)).toBeGreaterThan(busyRetryDelayMs(2, () => 0.5));
  });

  it('never waits longer than the cap plus its jitter, however many tries', () => {
    expect(busyRetryDelayMs(1000, () => 0.5)).toBe(BUSY_RETRY_MAX_MS);
    expect(busyRetryDelayMs(1000, () => 0.999)).toBeLessThanOrEqual(BUSY_RETRY_MAX_MS * 1.25);
  });

  it('spreads a backlog: the same try waits between 75 % and 125 % of its base', () => {
    expect(busyRetryDelayMs(4, () => 0)).toBe(Math.round(BUSY_RETRY_FIRST_MS * 1.5 ** 3 * 0.75));
    expect(busyRetryDelayMs(4, () => 1)).toBe(Math.round(BUSY_RETRY_FIRST_MS * 1.5 ** 3 * 1.25));
  });
});
