import Sequencer from '@jest/test-sequencer';

/**
 * The integration lane's files, longest first (as measured, in each part of the lane), so that no long file
 * starts last and keeps one worker busy while the others have nothing left. Jest orders by the times of an earlier run when its cache has them for
 * every file; a clean clone has none, and jest's fallback, file size, puts some of the longest files (many
 * Lighthouse runs in few lines) in the middle; with times for some files only (after running a few alone),
 * jest runs those last. So unless every file has a time, these, the longest files as measured, go first,
 * longest first, and every other file follows in jest's own order.
 */
const LONGEST_FIRST = [
  // The lighthouse part of the lane (test/harness/lanes.js).
  'test/scans/scan-flow.test.ts',
  'test/web/page-quality.test.ts',
  'test/scaleout/several-of-each.test.ts',
  'test/scans/calibration.test.ts',
  'test/faults/outages.test.ts',
  'test/scans/median-runs.test.ts',
  'test/flows/flow-end-to-end.test.ts',
  'test/scans/lighthouse-report.test.ts',
  'test/flows/flow-runner.test.ts',
  'test/scans/median-variability.test.ts',
  // The services part.
  'test/webhooks/webhook-isolation.test.ts',
  'test/foundation/start-command.test.ts',
  'test/webhooks/webhook-delivery.test.ts',
  'test/scans/fair-scheduling.test.ts',
  'test/scans/s3-assets.test.ts',
  'test/web/account-deletion.test.ts',
  'test/webhooks/webhook-worker-crash.test.ts',
  'test/client/cli.test.ts',
  'test/targets/target-runs.test.ts',
  'test/web/flow-pages.test.ts',
  'test/clickhouse-cluster/replication.test.ts',
  'test/web/docs-page.test.ts',
  'test/webhooks/webhook-direct.test.ts',
  'test/foundation/readiness.test.ts',
];

export default class LongestFirstSequencer extends Sequencer {
  sort(tests) {
    const sorted = super.sort(tests);
    if (sorted.every((test) => test.duration != null)) return sorted;
    const rank = (test) => {
      const index = LONGEST_FIRST.findIndex((path) => test.path.endsWith(`/${path}`));
      return index === -1 ? LONGEST_FIRST.length : index;
    };
    return [...sorted].sort((a, b) => rank(a) - rank(b));
  }
}
