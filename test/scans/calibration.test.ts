import { processRunner } from '../../activities/lighthouse/process-runner.ts';
import {
  CALIBRATION_PAGES,
  checkOrder,
  lighthouseMean,
  scanCalibrationPage,
  startCalibrationSite,
  type CalibrationRow,
  type CalibrationSite,
} from '../../fixtures/calibration.ts';
import { loadConfig } from '../../infra/config.ts';
import { baseTestEnv } from '../harness/shared.ts';

/**
 * Part of the calibration set (fixtures/calibration.ts), scanned for real with the scan runner: the fast page,
 * the same page with one small uncached image, the slowest page and the WordPress-like page. The whole set,
 * with its table, is `npm run bench:scores`; here the order check runs on the four, and what each of them is
 * known to be is checked: the small uncached image costs next to nothing, the slow page is clearly below the
 * fast one in every score it is measured on, and the WordPress checks see the WordPress page only.
 */
const NAMES = ['fast', 'fast-uncached-icon', 'very-slow', 'wordpress'];
let site: CalibrationSite;
let runner: ReturnType<typeof processRunner>;
const rows = new Map<string, CalibrationRow>();
const row = (name: string) => rows.get(name)!;

beforeAll(async () => {
  site = await startCalibrationSite();
  const config = loadConfig(baseTestEnv());
  runner = processRunner({ chromiumPath: config.chromiumPath, allowLoopback: true, scanUser: config.scanUser });
  for (const page of CALIBRATION_PAGES.filter((p) => NAMES.includes(p.name)))
    rows.set(page.name, await scanCalibrationPage(runner, site, page, 1));
}, 400_000);

afterAll(async () => {
  runner?.close();
  await site?.close();
});

it('orders the pages as their measured metrics do, speed within 5 points of Lighthouse', () => {
  const check = checkOrder([...rows.values()]);
  // Not vacuous: the slowest page is measured worse than the fast one on every metric of both form factors.
  expect(check.ordered).toContainEqual(['fast', 'very-slow']);
  expect(check).toMatchObject({ speedViolations: [], overallViolations: [], offLighthouse: [] });
  for (const r of rows.values()) expect(Math.abs(r.scores.speed - lighthouseMean(r))).toBeLessThanOrEqual(5);
});

it('scores the fast page with one small uncached image as a fast page', () => {
  const fast = row('fast');
  const withIcon = row('fast-uncached-icon');
  expect(withIcon.findingCodes).toContain('caching.short-lifetime');
  expect(withIcon.scores.caching).toBeGreaterThanOrEqual(99);
  expect(withIcon.scores.overall).toBeGreaterThanOrEqual(90);
  expect(withIcon.scores.overall).toBeGreaterThanOrEqual(fast.scores.overall - 1);
});

it('puts the slow page clearly below the fast one', () => {
  const fast = row('fast');
  const slow = row('very-slow');
  for (const key of ['overall', 'speed', 'images', 'caching'] as const)
    expect({ key, below: fast.scores[key] - slow.scores[key] >= 30 }).toEqual({ key, below: true });
  expect(slow.findingCodes).toEqual(
    expect.arrayContaining(['speed.lcp-slow', 'speed.tbt-high', 'caching.no-compression', 'images.large-payload']),
  );
});

it('judges the WordPress-like page, and only it, by the WordPress checks', () => {
  const wp = row('wordpress');
  expect(wp.isWordPress).toBe(true);
  expect(wp.notApplicable).not.toContain('wordpress');
  expect(wp.findingCodes).toEqual(
    expect.arrayContaining([
      'wordpress.version-exposed',
      'wordpress.no-page-cache',
      'wordpress.emoji-script',
      'wordpress.jquery-migrate',
    ]),
  );
  expect(wp.scores.wordpress).toBeLessThan(100);
  for (const name of ['fast', 'fast-uncached-icon', 'very-slow']) {
    expect({ name, wordpress: row(name).isWordPress }).toEqual({ name, wordpress: false });
    expect(row(name).notApplicable).toContain('wordpress');
  }
});
