import type { Knex } from 'knex';
import type { ScanTarget } from '../../core/monitoring/target.ts';
import type { RunRecord, ScanResultRecord } from '../../core/scan/result.ts';
import { newPublicId } from '../../core/ids.ts';
import { createStorage } from '../../db/store/index.ts';
import { deleteTargetSchedulesOf } from '../../infra/temporal-client.ts';
import { finishedScan, resultScoring } from '../../fixtures/finished-scan.ts';
import { createTestUser, startTestApi, type TestApi } from '../harness/api.ts';
import { WebClient } from '../harness/web.ts';

/**
 * A target's page charts its lab metrics from its stored scans (the target store's `labHistory`), through the
 * real API process's web routes: each scan's median-run value as a point linking to its report, with the
 * lowest and highest of its runs, per form factor; TTFB once per scan; a result stored before runs still
 * charted, without a spread; the target's budget as a dashed line; and the section in German. Lighthouse's four
 * category scores per form factor, from the results that have them, with the target's minimum.
 */
let api: TestApi;
const PASSWORD = 'a-long-password-1';

beforeAll(async () => {
  api = await startTestApi();
});

afterAll(async () => {
  await deleteTargetSchedulesOf(api.temporal, api.config.temporal.taskQueuePrefix).catch(() => undefined);
  await api?.close();
});

const run = (lcp: number, cls: number, median = false): RunRecord => ({
  performance_score: 80,
  fcp_ms: Math.round(lcp / 2),
  lcp_ms: lcp,
  tbt_ms: Math.round(lcp / 10),
  cls,
  si_ms: lcp,
  interactive_ms: lcp * 2,
  benchmark_index: 1500,
  lighthouse_version: '13.5.0',
  chromium_version: '140.0.0.0',
  overloaded: false,
  repeated: false,
  median,
});

/** A result whose mobile LCP runs are `lcps` (the median run the middle one) and desktop's a third of them. */
function resultWithRuns(lcps: number[] | null, ttfbMs: number): ScanResultRecord {
  const base = resultScoring(75);
  if (!lcps) return { ...base, ttfbMs };
  const sorted = [...lcps].sort((a, b) => a - b);
  const middle = sorted[1]!;
  const metrics = (lcp: number) => ({
    fcp_ms: Math.round(lcp / 2),
    lcp_ms: lcp,
    cls: 0.05,
    tbt_ms: Math.round(lcp / 10),
    request_count: 3,
    total_bytes: 5000,
  });
  return {
    ...base,
    ttfbMs,
    metrics: { mobile: metrics(middle), desktop: metrics(Math.round(middle / 3)) },
    runs: {
      mobile: lcps.map((lcp) => run(lcp, 0.05, lcp === middle)),
      desktop: lcps.map((lcp) => run(Math.round(lcp / 3), 0.05, lcp === middle)),
      overall: [75, 76, 74],
    },
  };
}

/** Stores a finished scheduled scan of the target holding `result` (built by the fixture's finishedScan). */
async function storeScan(knex: Knex, target: ScanTarget, result: ScanResultRecord, finishedAt: Date): Promise<string> {
  const scans = createStorage(knex).scans;
  const scan = finishedScan(result, {
    publicId: newPublicId(finishedAt),
    userId: target.userId,
    url: target.url,
    host: target.host,
    region: target.region,
    finishedAt,
  });
  await scans.insert({ ...scan, cacheKey: null, targetId: target.id });
  await knex('scans')
    .where({ public_id: scan.publicId })
    .update({ target_id: target.id, trigger: 'schedule', runs: 3 });
  await scans.markFinished(scan.publicId, result, finishedAt);
  return scan.publicId;
}

it('charts each scan’s median and its runs’ spread per form factor, and TTFB once, linking to the reports', async () => {
  const { user } = await createTestUser(api, 'starter', PASSWORD);
  const storage = createStorage(api.db.knex);
  const target = await storage.targets.insert({
    userId: user.id,
    url: 'https://lab.example/',
    host: 'lab.example',
    region: api.config.regions.default,
    isActive: true,
    thresholds: { overall: { warning: 70, critical: 50 } },
    budgets: { mobile: { lcp_ms: 2500 } },
    createdAt: new Date(),
  });
  const day = (n: number) => new Date(Date.UTC(2026, 10, 10 + n, 4, 0));
  const stored = [
    { lcps: [2400, 2100, 3000], ttfb: 120 },
    { lcps: null, ttfb: 150 }, // stored before runs were: a point without a spread
    { lcps: [1800, 2000, 1900], ttfb: 90 },
  ];
  const ids: string[] = [];
  for (const [i, s] of stored.entries())
    ids.push(await storeScan(api.db.knex, target, resultWithRuns(s.lcps, s.ttfb), day(i)));

  const web = new WebClient(api.url, api.config.baseUrl);
  expect((await web.signIn(user.email, PASSWORD)).status).toBe(303);
  const page = await web.get(`/targets/${target.id}`);
  expect(page.status).toBe(200);
  expect(page.text).toContain('<h2 id="lab-metrics-heading">Lab metrics</h2>');
  // The lab section follows the score chart.
  expect(page.text.indexOf('id="lab-metrics"')).toBeGreaterThan(page.text.indexOf('id="history-chart"'));

  const points = (figureId: string) => {
    const figure = new RegExp(`<figure class="chart lab-chart" id="${figureId}"[\\s\\S]*?</figure>`).exec(page.text);
    expect(figure).not.toBeNull();
    return [
      ...figure![0].matchAll(
        /<a class="point" href="([^"]+)" data-scan-id="([^"]+)" data-value="([^"]*)" data-min="([^"]*)" data-max="([^"]*)"/g,
      ),
    ].map((m) => ({ href: m[1], id: m[2], value: m[3], min: m[4], max: m[5] }));
  };
  expect(points('lab-lcp_ms-mobile')).toEqual([
    { href: `/reports/${ids[0]}`, id: ids[0], value: '2400', min: '2100', max: '3000' },
    { href: `/reports/${ids[1]}`, id: ids[1], value: '200', min: '', max: '' },
    { href: `/reports/${ids[2]}`, id: ids[2], value: '1900', min: '1800', max: '2000' },
  ]);
  expect(points('lab-lcp_ms-desktop').map((p) => [p.value, p.min, p.max])).toEqual([
    ['800', '700', '1000'],
    ['200', '', ''],
    ['633', '600', '667'],
  ]);
  expect(points('lab-tbt_ms-mobile').map((p) => [p.value, p.min, p.max])).toEqual([
    ['240', '210', '300'],
    ['0', '', ''],
    ['190', '180', '200'],
  ]);
  expect(points('lab-ttfb_ms').map((p) => [p.value, p.min])).toEqual([
    ['120', ''],
    ['150', ''],
    ['90', ''],
  ]);
  // The target's mobile LCP budget is drawn on that chart only.
  const budgetLines = [...page.text.matchAll(/<figure class="chart lab-chart" id="([^"]+)"[\s\S]*?<\/figure>/g)]
    .map((m) => [m[1], /<line class="budget" aria-hidden="true" data-value="(\d+)"/.exec(m[0])?.[1]])
    .filter(([, value]) => value);
  expect(budgetLines).toEqual([['lab-lcp_ms-mobile', '2500']]);
  for (const id of ['lab-cls-mobile', 'lab-cls-desktop', 'lab-fcp_ms-mobile', 'lab-fcp_ms-desktop'])
    expect(points(id)).toHaveLength(3);

  await web.get('/language/de');
  const german = await web.get(`/targets/${target.id}`);
  expect(german.text).toContain('<h2 id="lab-metrics-heading">Labormesswerte</h2>');
  expect(german.text).toContain('LCP (mobil): mittlerer Lauf jedes Scans');
});

it('shows no lab section for a target without finished scans', async () => {
  const { user } = await createTestUser(api, 'starter', PASSWORD);
  const target = await createStorage(api.db.knex).targets.insert({
    userId: user.id,
    url: 'https://lab-empty.example/',
    host: 'lab-empty.example',
    region: api.config.regions.default,
    isActive: true,
    thresholds: { overall: { warning: 70, critical: 50 } },
    createdAt: new Date(),
  });
  const web = new WebClient(api.url, api.config.baseUrl);
  await web.signIn(user.email, PASSWORD);
  const page = await web.get(`/targets/${target.id}`);
  expect(page.status).toBe(200);
  expect(page.text).not.toContain('id="lab-metrics"');
});

it('shows Lighthouse’s four scores per form factor from the stored results, with the target’s minimum', async () => {
  const { user } = await createTestUser(api, 'starter', PASSWORD);
  const storage = createStorage(api.db.knex);
  const target = await storage.targets.insert({
    userId: user.id,
    url: 'https://lab-lighthouse.example/',
    host: 'lab-lighthouse.example',
    region: api.config.regions.default,
    isActive: true,
    thresholds: { overall: { warning: 70, critical: 50 } },
    budgets: { lighthouse: { mobile: { accessibility: 90 } } },
    createdAt: new Date(),
  });
  const withLighthouse = (accessibility: number): ScanResultRecord => {
    const scores = { performance: 80, accessibility, best_practices: 96, seo: 91 };
    return {
      ...resultScoring(75),
      lighthouse: { categories: { mobile: scores, desktop: { ...scores, accessibility: 100 } }, failures: [] },
    };
  };
  const day = (n: number) => new Date(Date.UTC(2026, 10, 10 + n, 4, 0));
  await storeScan(api.db.knex, target, withLighthouse(95), day(0));
  await storeScan(api.db.knex, target, resultScoring(75), day(1)); // stored before scans ran the four categories
  await storeScan(api.db.knex, target, withLighthouse(82), day(2));

  const web = new WebClient(api.url, api.config.baseUrl);
  expect((await web.signIn(user.email, PASSWORD)).status).toBe(303);
  const page = (await web.get(`/targets/${target.id}`)).text;
  const section = page.slice(page.indexOf('id="lighthouse-history"'));
  const row = section.slice(
    section.indexOf('data-category="accessibility"'),
    section.indexOf('</tr>', section.indexOf('data-category="accessibility"')),
  );
  expect(row).toContain('data-form-factor="mobile" data-latest="82"');
  expect(row).toContain('data-form-factor="desktop" data-latest="100"');
  expect(row).toContain('Accessibility (Mobile): from 95 to 82 over 2 scans, lowest 82, highest 95, minimum 90');
  expect(row).toContain('class="sparkline-threshold"');
  await web.get('/language/de');
  expect((await web.get(`/targets/${target.id}`)).text).toContain('Scores von Lighthouse');
});
