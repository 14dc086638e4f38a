/**
 * The integration lane runs as two parts side by side (`./svc test`): the files that run real Lighthouse or a
 * real flow in Chromium, which keep a core busy for most of their time, and every other integration file,
 * which mostly waits on the stack (Temporal, Postgres, processes it starts) and so can run more at a time.
 * `WEBPERF_INTEGRATION_PART=lighthouse|services` selects one part (jest.config.js); unset, the lane is whole.
 * docs/testing.md says why each file here runs real Lighthouse.
 */
export const LIGHTHOUSE_FILES = [
  'test/scans/scan-flow.test.ts',
  'test/web/page-quality.test.ts',
  'test/faults/outages.test.ts',
  'test/scaleout/several-of-each.test.ts',
  'test/scans/calibration.test.ts',
  'test/scans/median-runs.test.ts',
  'test/scans/median-variability.test.ts',
  'test/scans/worker-crash.test.ts',
  'test/scans/scan-isolation.test.ts',
  'test/scans/lighthouse-report.test.ts',
  'test/scans/actionable-report.test.ts',
  'test/scans/clues-report.test.ts',
  'test/scans/process-runner.test.ts',
  'test/scans/runner-credentials.test.ts',
  'test/scans/credential-redaction.test.ts',
  'test/flows/flow-end-to-end.test.ts',
  'test/flows/flow-runner.test.ts',
];

/** Jest workers per part, unless TEST_WORKERS_LIGHTHOUSE / TEST_WORKERS_SERVICES say otherwise. */
export const PART_WORKERS = {
  lighthouse: Number(process.env.TEST_WORKERS_LIGHTHOUSE ?? 2),
  services: Number(process.env.TEST_WORKERS_SERVICES ?? 3),
};

const escape = (path) => path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The integration project's file selection for a part (none: every integration file). */
export function partSelection(part) {
  const lighthouse = LIGHTHOUSE_FILES.map((file) => `<rootDir>/${file}`);
  if (part === 'lighthouse') return { testMatch: lighthouse, testPathIgnorePatterns: ['/node_modules/'] };
  const ignored = ['/node_modules/', '<rootDir>/test/unit/'];
  if (part === 'services') ignored.push(...LIGHTHOUSE_FILES.map((file) => `<rootDir>/${escape(file)}$`));
  else if (part) throw new Error(`WEBPERF_INTEGRATION_PART=${part}: expected lighthouse or services`);
  return { testMatch: ['<rootDir>/test/**/*.test.ts'], testPathIgnorePatterns: ignored };
}
