import {
  lighthouseAttemptLimitMs,
  LIGHTHOUSE_ATTEMPT_LIMIT_MS,
  MAX_RUNS,
  scanActivityTimeoutMs,
  scanRunLimitMs,
} from '../../core/scan/lifecycle.ts';

const MINUTE = 60_000;

describe('scan time limits', () => {
  it('are for a one-run scan what they were before scans had runs, so running workflows replay unchanged', () => {
    expect(lighthouseAttemptLimitMs(1)).toBe(3 * MINUTE);
    expect(LIGHTHOUSE_ATTEMPT_LIMIT_MS).toBe(3 * MINUTE);
    expect(scanActivityTimeoutMs(1)).toBe(4 * MINUTE);
    expect(scanRunLimitMs(1)).toBe(15 * MINUTE);
  });

  it('grow with the runs: every run has the time one run had', () => {
    for (let runs = 1; runs <= MAX_RUNS; runs++) {
      expect(lighthouseAttemptLimitMs(runs)).toBe(runs * lighthouseAttemptLimitMs(1));
      // The attempt's own limit ends the runner before Temporal's start-to-close timeout gives up on the attempt.
      expect(scanActivityTimeoutMs(runs)).toBeGreaterThan(lighthouseAttemptLimitMs(runs));
      expect(scanRunLimitMs(runs)).toBeGreaterThanOrEqual(3 * scanActivityTimeoutMs(runs));
    }
    expect(lighthouseAttemptLimitMs(2, 25_000)).toBe(50_000);
    expect(scanRunLimitMs(MAX_RUNS)).toBe(51 * MINUTE);
  });
});
