/**
 * The scores, two ways.
 * 1. Their properties (fixtures/scoring-properties.ts) over many more generated observations than the unit
 *    test runs, from a fresh seed each time (printed, so a failure can be replayed with `--seed`).
 * 2. The calibration set (fixtures/calibration.ts): a dozen pages from clearly fast to clearly slow and a
 *    WordPress-like one, scanned for real (the scan runner, both form factors, the median of `--calibration-runs`),
 *    scored, and printed as a table (page, our six scores, Lighthouse's performance score of the same run, the
 *    metrics) with the order check: every pair of pages whose measured metrics order them must be ordered the
 *    same way by `speed` (and by `overall` when the better page has no fault the other lacks), and `speed` must
 *    stay within 5 points of Lighthouse's score.
 * Exits 1 when a property fails or the calibration is out of order.
 *
 *   ./svc stack up && npm run bench:scores -- [--runs 5000] [--seed N] [--calibration-runs 1] [--no-calibration]
 */
import { parseArgs } from 'node:util';
import { processRunner } from '../activities/lighthouse/process-runner.ts';
import {
  CALIBRATION_PAGES,
  calibrationTable,
  checkOrder,
  scanCalibrationPage,
  startCalibrationSite,
  type CalibrationRow,
} from '../fixtures/calibration.ts';
import { SCORING_PROPERTIES } from '../fixtures/scoring-properties.ts';
import { loadConfig } from '../infra/config.ts';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '5000' },
    seed: { type: 'string' },
    'calibration-runs': { type: 'string', default: '1' },
    'no-calibration': { type: 'boolean', default: false },
  },
});
const numRuns = Number(values.runs);
const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed);
console.log(`scoring properties: ${numRuns} generated observations each, seed ${seed}`);
let failed = 0;
for (const [name, property] of Object.entries(SCORING_PROPERTIES)) {
  const started = performance.now();
  try {
    property({ seed, numRuns });
    console.log(`  holds  ${name} (${Math.round(performance.now() - started)} ms)`);
  } catch (error) {
    failed += 1;
    console.log(`  FAILS  ${name}\n${String(error instanceof Error ? error.message : error)}`);
  }
}

if (!values['no-calibration']) {
  const runs = Number(values['calibration-runs']);
  const config = loadConfig({ ...process.env, OUTBOUND_ALLOW_LOOPBACK: 'true' });
  const site = await startCalibrationSite();
  const runner = processRunner({ chromiumPath: config.chromiumPath, allowLoopback: true, scanUser: config.scanUser });
  const rows: CalibrationRow[] = [];
  try {
    console.log(`\ncalibration: ${CALIBRATION_PAGES.length} pages, median of ${runs} run(s), desktop and mobile`);
    for (const page of CALIBRATION_PAGES) rows.push(await scanCalibrationPage(runner, site, page, runs));
  } finally {
    runner.close();
    await site.close();
  }
  console.log(calibrationTable(rows));
  const check = checkOrder(rows);
  const pairs = (list: Array<[string, string]>) => list.map(([a, b]) => `${a} > ${b}`).join(', ') || 'none';
  console.log(
    `pairs ordered by their measured metrics: ${check.ordered.length} of ${(rows.length * (rows.length - 1)) / 2}`,
  );
  console.log(`  speed out of that order: ${pairs(check.speedViolations)}`);
  console.log(`  overall out of that order: ${pairs(check.overallViolations)}`);
  console.log(`  speed more than 5 points from Lighthouse's mean score: ${check.offLighthouse.join(', ') || 'none'}`);
  if (check.speedViolations.length || check.overallViolations.length || check.offLighthouse.length) failed += 1;
}
process.exit(failed ? 1 : 0);
