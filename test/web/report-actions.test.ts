import type { Browser } from 'puppeteer-core';
import { newPublicId } from '../../core/ids.ts';
import { PLANS } from '../../core/plans.ts';
import { buildResultRecord } from '../../core/scan/result.ts';
import { scoreScan } from '../../core/scoring/index.ts';
import { createStorage } from '../../db/store/index.ts';
import { startFixtureSites, type FixtureSites } from '../../fixtures/sites.ts';
import { startRegressionSite, type RegressionSite } from '../../fixtures/regression-site.ts';
import { markFinished } from '../../services/scans.ts';
import { call, createTestUser, TestClock } from '../harness/api.ts';
import { launchBrowser, signedInPage } from '../harness/browser.ts';
import { openApiContract } from '../harness/contract.ts';
import { startScanStack, waitForScan, type ScanStack } from '../harness/scans.ts';
import { WebClient } from '../harness/web.ts';
import { cleanObservation, SCANNED_AT } from '../unit/observation-builder.ts';

/**
 * A report's own parts for its owner, through the real API process's web routes and a real worker: "Scan
 * again" and the cached answer that says how old it is (and the API's `cached: true`), "Share", which
 * turns the spec's share link on and off from the report, with the copy button working under the page's CSP,
 * and the comparison with the previous scan at the top of the report, in the API's `previous` and on share pages.
 */
let stack: ScanStack;
let sites: FixtureSites;
let regression: RegressionSite;
let browser: Browser;
let closeBrowser: () => Promise<void>;
const clock = new TestClock();
const PASSWORD = 'a-long-password-1';

beforeAll(async () => {
  sites = await startFixtureSites();
  regression = await startRegressionSite();
  stack = await startScanStack({ clock, runner: 'replay' });
  ({ browser, close: closeBrowser } = await launchBrowser());
}, 180_000);

afterAll(async () => {
  await closeBrowser?.();
  await stack?.close();
  await sites?.close();
  await regression?.close();
});

const storage = () => createStorage(stack.api.db.knex);

async function signedIn(plan: 'free' | 'starter') {
  const { user, token } = await createTestUser(stack.api, plan, PASSWORD);
  const web = new WebClient(stack.api.url, stack.api.config.baseUrl);
  expect((await web.signIn(user.email, PASSWORD)).status).toBe(303);
  await web.get('/');
  return { user, token, web };
}

/** A finished scan of the user stored as the worker leaves one (no Chromium). */
async function finishedScan(userId: number, options: { isPublic?: boolean } = {}): Promise<string> {
  const publicId = newPublicId(clock.read());
  await storage().scans.insert({
    publicId,
    userId,
    url: 'https://shop.example/',
    host: 'shop.example',
    region: stack.api.config.regions.default,
    isPublic: options.isPublic ?? false,
    authType: null,
    authSecret: null,
    requestedAt: clock.read(),
    cacheKey: null,
  });
  const observation = cleanObservation();
  await markFinished(
    storage().scans,
    publicId,
    buildResultRecord(observation, scoreScan(observation, SCANNED_AT)),
    clock.read(),
  );
  return publicId;
}

/** The hidden fields of the form with this id. */
function formOf(page: string, id: string): { action: string; fields: Record<string, string> } {
  const form = new RegExp(`<form method="post" action="([^"]+)" id="${id}"[^>]*>([\\s\\S]*?)</form>`).exec(page)!;
  const fields = Object.fromEntries(
    [...form[2]!.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [
      m[1]!,
      m[2]!.replaceAll('&amp;', '&').replaceAll('&quot;', '"'),
    ]),
  );
  return { action: form[1]!, fields };
}

const usedHourlyScans = async (userId: number, count: number) => {
  for (let i = 0; i < count; i++) await finishedScan(userId);
};

describe('scan again and the cached answer', () => {
  it('a cached answer says so with its age (web) and cached: true (API); scanning now from it gives a fresh scan', async () => {
    const conforms = await openApiContract(stack.api);
    const { user, token, web } = await signedIn('starter');
    const url = `${sites.origin}/fast/?again`;
    const first = await web.post('/scans', { url, region: stack.api.config.regions.default });
    expect(first.status).toBe(303);
    const firstId = String(first.headers.location).split('/')[2]!;
    const before = await waitForScan(stack.api, token, firstId);
    expect(before.status).toBe('finished');

    // Twenty minutes later the same address is answered from the cache: the page says so, with the age.
    const finishedAt = (await storage().scans.find(firstId))!.finishedAt!;
    clock.set(new Date(finishedAt.getTime() + 20 * 60_000));
    const cached = await web.post('/scans', { url, region: stack.api.config.regions.default });
    expect(cached.status).toBe(303);
    expect(cached.headers.location).toBe(`/reports/${firstId}?cached=1`);
    const report = (await web.get(String(cached.headers.location))).text;
    expect(report).toContain(
      '<p class="notice cached" role="status" id="cached-notice">This is the result of a scan 20 minutes ago.',
    );
    expect(report).toContain('id="scan-again" aria-describedby="rescan-hint">Scan now</button>');
    // Opened by itself, the report has "Scan again" and no such notice.
    const plain = (await web.get(`/reports/${firstId}`)).text;
    expect(plain).not.toContain('cached-notice');
    expect(plain).toContain('>Scan again</button>');

    // The API answers the same request with the spec's 200 and cached: true, and the result's time.
    const api = await call(stack.api, '/scans', { token, method: 'POST', body: { url } });
    expect(api.status).toBe(200);
    expect(api.body.data).toEqual({
      id: firstId,
      status: 'finished',
      url: before.submitted_url,
      cached: true,
      auth_type: null,
      finished_at: before.finished_at,
    });
    expect(conforms('post', '/scans', api)).toEqual([]);

    // "Scan now" posts a forced scan: a new scan, its progress page, a fresh result.
    const form = formOf(report, 'rescan-form');
    expect(form).toEqual({
      action: '/scans',
      fields: expect.objectContaining({
        url: before.submitted_url,
        force: '1',
        runs: '1',
        region: stack.api.config.regions.default,
      }),
    });
    const again = await web.post(form.action, form.fields);
    expect(again.status).toBe(303);
    expect(String(again.headers.location)).toMatch(/^\/scans\/[0-9a-z]{26}$/);
    const secondId = String(again.headers.location).split('/')[2]!;
    expect(secondId).not.toBe(firstId);
    const after = await waitForScan(stack.api, token, secondId);
    expect(after.status).toBe('finished');
    expect(new Date(after.finished_at as string).getTime()).toBeGreaterThan(
      new Date(before.finished_at as string).getTime(),
    );
    expect(await storage().scans.find(secondId)).toMatchObject({ userId: user.id, trigger: 'request' });
    // From now on the fresh result is the one reused.
    const reused = await call(stack.api, '/scans', { token, method: 'POST', body: { url } });
    expect(reused.body.data).toMatchObject({ id: secondId, cached: true, finished_at: after.finished_at });
  }, 600_000);

  it('respects the hourly scan limit: the dashboard shows the reason, as for the URL box', async () => {
    const { user, web } = await signedIn('free');
    const scanId = await finishedScan(user.id);
    const form = formOf((await web.get(`/reports/${scanId}`)).text, 'rescan-form');
    await usedHourlyScans(user.id, PLANS.free.hourlyScanLimit);
    const refused = await web.post(form.action, form.fields);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.text).toMatch(/You have used your 5 scans for this hour\. Try again in \d+ minute/);
    expect(refused.text).toContain('value="https://shop.example/"');
  });
});

describe('share from the report', () => {
  it('creates the link, says the report is private and the link on, copies it, and turns it off in the same place', async () => {
    const { user, token, web } = await signedIn('starter');
    const scanId = await finishedScan(user.id);
    const off = (await web.get(`/reports/${scanId}`)).text;
    expect(off).toContain('id="report-visibility" data-public="no">This report is private');
    expect(off).toContain('id="share-state" data-share="off">Sharing is off');
    expect(off).not.toContain('/live/copy.js');
    const enable = formOf(off, 'share-enable-form');
    expect(enable.action).toBe(`/reports/${scanId}/share/enable`);

    const enabled = await web.post(enable.action, enable.fields);
    expect(enabled.status).toBe(303);
    expect(enabled.headers.location).toBe(`/reports/${scanId}?notice=shared#share`);
    const on = (await web.get(`/reports/${scanId}?notice=shared`)).text;
    const detail = (await call(stack.api, `/scans/${scanId}`, { token })).body.data as { share_url: string };
    expect(detail.share_url).toMatch(/\/share\/[A-Za-z0-9_-]{32}$/);
    expect(on).toContain(`<input id="share-url" type="text" readonly value="${detail.share_url}"`);
    expect(on).toContain('id="share-state" data-share="on">Sharing is on');
    expect(on).toContain('role="status" id="share-notice">Sharing is on.');
    expect(on).toContain('<script src="/live/copy.js" defer></script>');
    const sharePath = new URL(detail.share_url).pathname;
    const shared = await fetch(`${stack.api.url}${sharePath}`);
    expect(shared.status).toBe(200);
    // The share page is for anyone: none of the owner's parts.
    const sharedPage = await shared.text();
    expect(sharedPage).not.toContain('id="share"');
    expect(sharedPage).not.toContain('id="rescan"');

    // In Chromium under the page's CSP the copy button appears and copies the link.
    const page = await signedInPage(browser, stack.api.url, user.email, PASSWORD, { javascript: true });
    await page.browserContext().overridePermissions(stack.api.url, ['clipboard-read', 'clipboard-write']);
    await page.goto(`${stack.api.url}/reports/${scanId}`);
    await page.waitForSelector('#share button.copy:not([hidden])');
    await page.click('#share button.copy');
    await page.waitForFunction(
      () =>
        (
          globalThis as unknown as { document: { querySelector(s: string): { textContent: string } } }
        ).document.querySelector('#share button.copy').textContent === 'Copied',
    );
    expect(
      await page.evaluate(() =>
        (
          globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }
        ).navigator.clipboard.readText(),
      ),
    ).toBe(detail.share_url);
    await page.browserContext().close();

    const disable = formOf(on, 'share-disable-form');
    expect(disable.action).toBe(`/reports/${scanId}/share/disable`);
    expect((await web.post(disable.action, disable.fields)).status).toBe(303);
    const offAgain = (await web.get(`/reports/${scanId}`)).text;
    expect(offAgain).toContain('Turning it on again brings back the same link.');
    expect(offAgain).toContain('id="share-on">Turn sharing on again</button>');
    expect((await fetch(`${stack.api.url}${sharePath}`)).status).toBe(404);
    expect((await call(stack.api, `/scans/${scanId}`, { token })).body.data).toMatchObject({
      share_enabled: false,
      share_url: null,
    });
    // On again: the same link, as the API promises.
    expect((await web.post(enable.action, enable.fields)).status).toBe(303);
    expect((await call(stack.api, `/scans/${scanId}`, { token })).body.data).toMatchObject({
      share_url: detail.share_url,
    });
    // Another account's scan, and a form without the page's token: nothing changes.
    const { web: stranger } = await signedIn('starter');
    expect((await stranger.post(disable.action, {})).status).toBe(404);
    expect((await web.post(disable.action, { _csrf: 'forged' })).status).toBe(403);
    expect((await fetch(`${stack.api.url}${sharePath}`)).status).toBe(200);
  }, 120_000);

  it('says when a report is public; a Free plan sees why it cannot share, and no button', async () => {
    const { user, web } = await signedIn('free');
    const scanId = await finishedScan(user.id, { isPublic: true });
    const page = (await web.get(`/reports/${scanId}`)).text;
    expect(page).toContain('id="report-visibility" data-public="yes">This report is public');
    expect(page).toContain('id="share-plan">Share links come with the Starter plan and higher; your plan is Free.');
    expect(page).not.toContain('id="share-on"');
    expect(page).not.toContain('/share/enable');
    // Posted anyway: refused, and sharing stays off.
    const refused = await web.post(`/reports/${scanId}/share/enable`, {});
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('Share links come with the Starter plan and higher');
    expect(await storage().scans.find(scanId)).toMatchObject({ shareEnabled: false, shareToken: null });
  });
});

describe('every scan compared with the previous one', () => {
  /** The report's section on the previous scan, and one row's cell of it. */
  const section = (page: string) => {
    const start = page.indexOf('<section id="previous"');
    return start < 0 ? '' : page.slice(start, page.indexOf('</section>', start));
  };
  const mobileCell = (html: string, metric: string) => {
    const row = html.slice(html.indexOf(`data-metric="${metric}"`));
    return row.slice(row.indexOf('data-label="Mobile"'), row.indexOf('</tr>'));
  };

  it('a slow page, then "Scan again" once it is fixed: "faster, a real change" by the rank test at the top, in the API, and on share pages only when both are shared', async () => {
    const conforms = await openApiContract(stack.api);
    const { token, web } = await signedIn('starter');
    // The regression site's page with its heavy hero (its recorded run: mobile LCP 1.2 s later than the normal page's).
    regression.set('compared', { heroSide: 300 });
    const started = await web.post('/scans', {
      url: regression.url('compared'),
      region: stack.api.config.regions.default,
      runs: '3',
    });
    expect(started.status).toBe(303);
    const slowId = String(started.headers.location).split('/')[2]!;
    expect((await waitForScan(stack.api, token, slowId)).status).toBe('finished');
    // The first scan of the address has nothing to compare with: no section, and `previous: null`.
    const slowReport = (await web.get(`/reports/${slowId}`)).text;
    expect(section(slowReport)).toBe('');
    const slowDetail = await call(stack.api, `/scans/${slowId}`, { token });
    expect(slowDetail.body.data).toMatchObject({ previous: null });
    expect(conforms('get', '/scans/{id}', slowDetail)).toEqual([]);

    // The page is fixed; "Scan again" on the slow scan's report asks for its three runs and names it.
    regression.set('compared', { heroSide: 0 });
    const form = formOf(slowReport, 'rescan-form');
    expect(form.fields).toMatchObject({ runs: '3', rescan_of: slowId, force: '1' });
    const again = await web.post(form.action, form.fields);
    expect(again.status).toBe(303);
    const fastId = String(again.headers.location).split('/')[2]!;
    expect((await waitForScan(stack.api, token, fastId)).status).toBe('finished');
    // Its progress page, once finished, lands on its report, which opens with the comparison.
    const landed = await web.get(`/scans/${fastId}`);
    expect(landed.status).toBe(303);
    expect(landed.headers.location).toBe(`/reports/${fastId}`);
    const fastReport = (await web.get(`/reports/${fastId}`)).text;
    const top = section(fastReport);
    expect(fastReport.indexOf('<section id="previous"')).toBeLessThan(fastReport.indexOf('id="scores"'));
    expect(top).toMatch(/<p id="previous-summary">LCP [^;]*faster on mobile, a real change;/);
    const lcp = mobileCell(top, 'lcp_ms');
    expect(lcp).toContain('data-change="better">−1');
    expect(lcp).toContain('rank test over 3 vs 3 runs: p = 0.05, shift −1');
    expect(top).toContain(`<a id="previous-report" href="/reports/${slowId}">`);
    expect(top).toContain(`<a id="previous-compare" href="/compare?scan=${slowId}&amp;scan=${fastId}">`);
    // The full comparison says the same of the same row.
    const compared = (await web.get(`/compare?scan=${slowId}&scan=${fastId}`)).text;
    const compareRow = compared.slice(
      compared.indexOf('data-metric="lcp_ms"', compared.indexOf('id="metrics-mobile"')),
    );
    const shift = /shift (−[\d.]+ s)/.exec(lcp)![1]!;
    expect(compareRow.slice(0, compareRow.indexOf('</tr>'))).toContain(`p = 0.05, shift ${shift}`);
    expect(compared).toContain('data-metric="ttfb_ms"');

    // The API: `previous` with the scan id, the sentence and each metric's change and verdict.
    const detail = await call(stack.api, `/scans/${fastId}`, { token, headers: { 'accept-language': 'de' } });
    expect(conforms('get', '/scans/{id}', detail)).toEqual([]);
    const previous = (
      detail.body.data as { previous: { summary: string; metrics: { mobile: { lcp_ms: { change: number } } } } }
    ).previous;
    expect(previous).toMatchObject({
      scan_id: slowId,
      compare_url: `${stack.api.config.baseUrl}/compare?scan=${slowId}&scan=${fastId}`,
      metrics: {
        mobile: { lcp_ms: { verdict: 'better', rule: 'rank_test', p: 0.05, values: { before: 3, after: 3 } } },
      },
    });
    expect(previous.metrics.mobile.lcp_ms.change).toBeLessThan(-1000);
    expect(previous.summary).toMatch(/^LCP [^;]*auf Mobilgeräten [\d,]+ s schneller, eine echte Änderung;/);

    // "Scan again" on the slow scan's report once more: the new scan is compared with that one, not the latest.
    const third = await web.post(form.action, form.fields);
    const thirdId = String(third.headers.location).split('/')[2]!;
    expect((await waitForScan(stack.api, token, thirdId)).status).toBe('finished');
    expect((await call(stack.api, `/scans/${thirdId}`, { token })).body.data).toMatchObject({
      previous: { scan_id: slowId },
    });

    // Share pages: only the fast scan shared, its share page has no comparison and nothing of the slow scan.
    const share = async (id: string) =>
      new URL(
        (
          (await call(stack.api, `/scans/${id}/share/enable`, { token, method: 'POST', body: {} })).body.data as {
            share_url: string;
          }
        ).share_url,
      ).pathname;
    const fastShare = await share(fastId);
    const alone = await (await fetch(`${stack.api.url}${fastShare}`)).text();
    expect(alone).toContain('id="scores"');
    expect(section(alone)).toBe('');
    expect(alone).not.toContain(slowId);
    // Both shared: the comparison, linking the slow scan's share page, never its report or the compare page.
    const slowShare = await share(slowId);
    const both = section(await (await fetch(`${stack.api.url}${fastShare}`)).text());
    expect(both).toMatch(/<p id="previous-summary">LCP [^;]*faster on mobile, a real change;/);
    expect(both).toContain(`<a id="previous-report" href="${slowShare}">`);
    expect(both).not.toContain('/compare');
    expect(both).not.toContain(slowId);
  }, 600_000);
});
