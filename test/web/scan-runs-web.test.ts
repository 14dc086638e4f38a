import { createStorage } from '../../db/store/index.ts';
import type { RunRecord } from '../../core/scan/result.ts';
import { FORM_FACTORS } from '../../core/scan/observation.ts';
import { startFixtureSites, type FixtureSites } from '../../fixtures/sites.ts';
import { setSharing } from '../../services/scans.ts';
import { spreadValue, SPREAD_METRICS } from '../../web/scans/report-spread.ts';
import { createTestUser } from '../harness/api.ts';
import { startScanStack, waitForScan, type ScanStack } from '../harness/scans.ts';
import { WebClient } from '../harness/web.ts';

/**
 * Runs from the web area, through the real API process's web routes and a real worker (Lighthouse in
 * Chromium against a fixture page): the URL box offers the runs the plan allows (none on Free, with the way
 * to more), refuses more than the plan allows or than any plan allows on the form as the API does, and a
 * scan of three runs started from it leads to a report whose spread shows the stored runs' numbers, on the
 * owner's report and on its share page.
 */
let stack: ScanStack;
let sites: FixtureSites;
const PASSWORD = 'a-long-password-1';

beforeAll(async () => {
  sites = await startFixtureSites();
  stack = await startScanStack({ runner: 'replay' });
}, 180_000);

afterAll(async () => {
  await stack?.close();
  await sites?.close();
});

const storage = () => createStorage(stack.api.db.knex);

async function signedIn(plan: 'free' | 'starter') {
  const { user, token } = await createTestUser(stack.api, plan, PASSWORD);
  const web = new WebClient(stack.api.url, stack.api.config.baseUrl);
  expect((await web.signIn(user.email, PASSWORD)).status).toBe(303);
  return { user, token, web };
}

const runOptions = (page: string) =>
  [...page.matchAll(/<select id="scan-runs" name="runs"[^>]*>([\s\S]*?)<\/select>/g)].flatMap((m) =>
    [...m[1]!.matchAll(/<option value="(\d+)"/g)].map((o) => Number(o[1])),
  );

describe('the URL box’s runs', () => {
  it('offers 1 to 3 on Starter, and on Free no choice but the plan that allows more, with a link to the plan page', async () => {
    const starter = await signedIn('starter');
    const dashboard = (await starter.web.get('/')).text;
    expect(runOptions(dashboard)).toEqual([1, 2, 3]);
    expect(dashboard).toContain('id="runs-hint">Page loads per form factor (up to 3 on your plan).');

    const free = await signedIn('free');
    const page = (await free.web.get('/')).text;
    expect(runOptions(page)).toEqual([]);
    expect(page).toMatch(
      /<p class="hint" id="runs-upgrade">Your plan scans each page once per form factor\. The Starter plan loads it up to 3 times[^<]*<a href="\/settings\/plan" class="plan-link">/,
    );
  });

  it('refuses more runs than the plan allows (403) or than any plan allows (422) on the form, and stores nothing', async () => {
    const { user, web } = await signedIn('starter');
    await web.get('/');
    const url = `${sites.origin}/fast/?refused`;
    const overPlan = await web.post('/scans', { url, region: stack.api.config.regions.default, runs: '5' });
    expect(overPlan.status).toBe(403);
    expect(overPlan.text).toMatch(
      /<p class="error" id="form-error">5 page loads per scan need the Pro plan or higher; your plan allows 3\. <a href="\/settings\/plan"/,
    );
    // The address typed stays in the box, and the choice falls back to the most the plan allows.
    expect(overPlan.text).toContain(`value="${url.replaceAll('&', '&amp;')}"`);
    expect(overPlan.text).toMatch(/<option value="3" selected>/);

    for (const runs of ['9', '0', 'three', '2.5']) {
      const res = await web.post('/scans', { url, region: stack.api.config.regions.default, runs });
      expect({ runs, status: res.status }).toEqual({ runs, status: 422 });
      expect(res.text).toContain('<p class="error" id="runs-error">The runs must be a whole number from 1 to 5.</p>');
      expect(res.text).toContain('aria-invalid="true" aria-describedby="runs-error runs-hint"');
    }
    expect(await stack.api.db.knex('scans').where({ user_id: user.id })).toHaveLength(0);

    // On Free, a forced runs=2 gets the plan's refusal too.
    const free = await signedIn('free');
    await free.web.get('/');
    const freeRes = await free.web.post('/scans', { url, region: stack.api.config.regions.default, runs: '2' });
    expect(freeRes.status).toBe(403);
    expect(freeRes.text).toContain('2 page loads per scan need the Starter plan or higher; your plan allows 1.');
  });
});

describe('a scan of three runs from the web', () => {
  it('is stored with three runs per form factor, and its report and share page show each metric’s spread from them', async () => {
    const { token, web } = await signedIn('starter');
    await web.get('/');
    const started = await web.post('/scans', {
      url: `${sites.origin}/fast/?runs-from-the-web`,
      region: stack.api.config.regions.default,
      runs: '3',
    });
    expect(started.status).toBe(303);
    const id = String(started.headers.location).split('/')[2]!;
    expect((await waitForScan(stack.api, token, id, 400_000)).status).toBe('finished');
    const scan = (await storage().scans.find(id))!;
    expect(scan.runs).toBe(3);
    const runs = scan.result!.runs!;
    for (const factor of FORM_FACTORS) expect(runs[factor].length).toBeGreaterThanOrEqual(3);

    const report = (await web.get(`/reports/${id}`)).text;
    expect(report).toContain('<h2>Spread of the runs</h2>');
    const expectSpread = (page: string) => {
      // The spread's own table (the metrics table above has rows of the same names).
      const section = /<section id="run-spread"[\s\S]*?<\/section>/.exec(page)![0];
      for (const { key } of SPREAD_METRICS) {
        const row = new RegExp(`<tr data-metric="${key}">([\\s\\S]*?)</tr>`).exec(section)![1]!;
        for (const factor of FORM_FACTORS) {
          const values = runs[factor].map((run: RunRecord) => run[key]);
          const median = runs[factor].find((run) => run.median)![key];
          const [min, max] = [Math.min(...values), Math.max(...values)];
          const cell = new RegExp(
            `<td data-factor="${factor}" data-min="([^"]*)" data-max="([^"]*)" data-median="([^"]*)" data-runs="(\\d+)"><span class="spread-range">([^<]*)</span>`,
          ).exec(row);
          expect({ key, factor, cell: cell?.slice(1) }).toEqual({
            key,
            factor,
            cell: [
              String(min),
              String(max),
              String(median),
              String(values.length),
              `${spreadValue(key, min, 'en')} – ${spreadValue(key, max, 'en')}`,
            ],
          });
          // The median run is the report's own value, and it is the one large dot.
          if (key !== 'si_ms') expect(median).toBe(scan.result!.metrics[factor][key]);
        }
        expect(row.match(/class="run run-median/g)).toHaveLength(2);
      }
    };
    expectSpread(report);

    const shared = await setSharing(storage().scans, scan, true);
    const visitor = new WebClient(stack.api.url, stack.api.config.baseUrl);
    const sharePage = await visitor.get(`/share/${shared.shareToken}`);
    expect(sharePage.status).toBe(200);
    expectSpread(sharePage.text);
  }, 480_000);
});
