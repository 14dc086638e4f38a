import { utcMonth } from '../../core/rum/over-limit.ts';
import { periodWindow, type RumPeriod } from '../../core/rum/periods.ts';
import type { Browser, Page } from 'puppeteer-core';
import { RATINGS, rate, RUM_METRICS, type Device, type RumMetric } from '../../core/rum/metrics.ts';
import { createStorage } from '../../db/store/index.ts';
import {
  independentP75,
  insertRejections,
  insertRumRows,
  selectRows,
  siteTraffic,
  type RumRow,
} from '../../fixtures/rum-dashboard.ts';
import { createTestUser, startTestApi, type TestApi } from '../harness/api.ts';
import { launchBrowser, signedInPage as signInWithForm, submit } from '../harness/browser.ts';
import { isolatedClickHouse, type IsolatedClickHouse } from '../harness/isolated.ts';
import { TcpProxy } from '../harness/tcp-proxy.ts';
import { WebClient } from '../harness/web.ts';

/**
 * The live-data pages against the real API process, Postgres and ClickHouse (rows written straight into
 * rum_metrics, every column): sites are added, paused, re-rated and deleted through the forms in Chromium;
 * the dashboard's p75, samples, rating shares, slowest pages and navigation split agree with an independent
 * computation over the same rows, for all devices and one; other users' sites are 404; Free gets the upgrade
 * page; German words; the dashboard fits 360 px with real data (screenshots in /tmp).
 */
let api: TestApi;
let clickhouse: IsolatedClickHouse;
let browser: Browser;
let closeBrowser: () => Promise<void>;
const PASSWORD = 'a-long-password-1';

beforeAll(async () => {
  clickhouse = await isolatedClickHouse();
  api = await startTestApi({ env: { CLICKHOUSE_DATABASE: clickhouse.database } });
  ({ browser, close: closeBrowser } = await launchBrowser());
}, 60_000);

afterAll(async () => {
  await closeBrowser?.();
  await api?.close();
  await clickhouse?.drop();
});

const storage = () => createStorage(api.db.knex);
const text = (page: Page, selector: string) => page.$eval(selector, (el) => (el.textContent ?? '').trim());

async function signedInClient(plan: 'free' | 'starter' | 'pro', locale?: string) {
  const { user } = await createTestUser(api, plan, PASSWORD);
  const client = new WebClient(api.url, api.config.baseUrl, locale ? { 'accept-language': locale } : {});
  expect((await client.signIn(user.email, PASSWORD)).status).toBe(303);
  return { user, client };
}

async function siteFor(userId: number, domain: string) {
  return storage().rumSites.insert({
    userId,
    publicId: `${domain.replace(/[^a-z]/g, '').slice(0, 12)}${String(userId).padStart(8, '0')}`,
    domain,
    sampleRate: 100,
    createdAt: api.clock.read(),
  });
}

/** Each metric card's numbers as the page states them (data attributes next to the words). */
function cards(html: string): Record<RumMetric, { p75: number | null; samples: number }> {
  const found = {} as Record<RumMetric, { p75: number | null; samples: number }>;
  for (const match of html.matchAll(/id="metric-(\w+)" data-metric="\w+" data-p75="([^"]*)" data-samples="(\d+)"/g)) {
    found[match[1] as RumMetric] = { p75: match[2] === '' ? null : Number(match[2]), samples: Number(match[3]) };
  }
  return found;
}

function expectedCards(rows: RumRow[]): Record<RumMetric, { p75: number | null; samples: number }> {
  return Object.fromEntries(
    RUM_METRICS.map((metric) => {
      const values = rows.filter((row) => row.metric === metric).map((row) => row.value);
      return [metric, { p75: independentP75(values), samples: values.length }];
    }),
  ) as Record<RumMetric, { p75: number | null; samples: number }>;
}

describe('the sites list', () => {
  it('a Free user sees the upgrade page and cannot add a site', async () => {
    const { user, client } = await signedInClient('free');
    const page = await client.get('/live');
    expect(page.status).toBe(200);
    expect(page.text).toContain('id="plan-required"');
    expect(page.text).toContain('Starter');
    expect(page.text).not.toContain('id="add-site-form"');
    const refused = await client.post('/live', { domain: 'www.example.com' });
    expect(refused.status).toBe(403);
    expect(await storage().rumSites.countOwned(user.id)).toBe(0);
  });

  it('signed out, the pages lead to sign-in', async () => {
    const client = new WebClient(api.url, api.config.baseUrl);
    const response = await client.get('/live/1?period=7d');
    expect(response.status).toBe(302);
    expect(response.headers.location).toBe(`/login?next=${encodeURIComponent('/live/1?period=7d')}`);
  });

  it('in Chromium: add a site, see its snippet, pause and resume it, change its sample rate, delete it', async () => {
    const { user } = await createTestUser(api, 'starter', PASSWORD);
    const page = await signInWithForm(browser, api.url, user.email, PASSWORD);
    await page.goto(`${api.url}/`);
    await Promise.all([page.waitForNavigation(), page.click('nav a[href="/live"]')]);
    expect(await text(page, 'h1')).toBe('Live data');
    expect(await page.$eval('nav a[aria-current="page"]', (el) => el.getAttribute('href'))).toBe('/live');
    expect(await text(page, '#no-sites')).toContain('No sites yet');

    await page.type('#domain', 'not a domain');
    expect(await submit(page, '#add-site-button')).toBe(422);
    expect(await text(page, '#domain-error')).toContain('host name');
    await page.$eval('#domain', (el) => ((el as unknown as { value: string }).value = ''));
    await page.type('#domain', 'https://WWW.Shop.Example/some/path?x=1');
    expect(await submit(page, '#add-site-button')).toBe(200);
    expect(await text(page, '#notice')).toContain('Site added');
    const [site] = (await storage().rumSites.listOwned(user.id, { page: 1, limit: 5 })).items;
    expect(site).toMatchObject({ domain: 'www.shop.example', active: true, sampleRate: 100 });
    expect(await text(page, `#site-${site!.id} h3`)).toBe('www.shop.example');
    const snippet = await page.$eval(`#snippet-${site!.id}`, (el) => (el as unknown as { value: string }).value);
    expect(snippet).toBe(
      `<script src="${api.config.ingest.publicUrl}/c/1/rum.js" data-site-id="${site!.publicId}" async></script>`,
    );
    expect(await text(page, `#snippet-${site!.id}-how`)).toContain('<head>');
    expect(await page.$eval(`#site-${site!.id} .dashboard-link`, (el) => el.getAttribute('href'))).toBe(
      `/live/${site!.id}`,
    );

    // The same domain again is refused in words.
    await page.type('#domain', 'www.shop.example');
    expect(await submit(page, '#add-site-button')).toBe(422);
    expect(await text(page, '#domain-error')).toContain('already');

    expect(await submit(page, `#site-${site!.id} button.toggle`)).toBe(200);
    expect(await text(page, '#notice')).toContain('paused');
    expect(await page.$eval(`#site-${site!.id}`, (el) => el.getAttribute('data-active'))).toBe('false');
    expect((await storage().rumSites.findOwned(user.id, site!.id))!.active).toBe(false);
    expect(await submit(page, `#site-${site!.id} button.toggle`)).toBe(200);
    expect((await storage().rumSites.findOwned(user.id, site!.id))!.active).toBe(true);

    await page.click(`#site-${site!.id} details.sample-rate summary`);
    await page.$eval(`#rate-${site!.id}`, (el) => ((el as unknown as { value: string }).value = '0'));
    // The browser's own check would stop 0; the server must refuse it too.
    await page.$eval(`#rate-${site!.id}`, (el) => el.removeAttribute('min'));
    expect(await submit(page, `#site-${site!.id} button.save-rate`)).toBe(422);
    expect(await text(page, `#rate-${site!.id}-error`)).toContain('1 to 100');
    await page.$eval(`#rate-${site!.id}`, (el) => ((el as unknown as { value: string }).value = '25'));
    expect(await submit(page, `#site-${site!.id} button.save-rate`)).toBe(200);
    expect((await storage().rumSites.findOwned(user.id, site!.id))!.sampleRate).toBe(25);

    await page.click(`#site-${site!.id} details.remove summary`);
    expect(await text(page, `#site-${site!.id} details.remove p`)).toContain('Delete www.shop.example?');
    expect(await submit(page, `#site-${site!.id} button.confirm-delete`)).toBe(200);
    expect(await text(page, '#notice')).toBe('Site deleted.');
    expect(await page.$(`#site-${site!.id}`)).toBeNull();
    expect(await storage().rumSites.findOwned(user.id, site!.id)).toBeUndefined();
    await page.browserContext().close();
  });

  it('another user cannot change, delete or see a site: 404', async () => {
    const { user: owner } = await createTestUser(api, 'starter', PASSWORD);
    const site = await siteFor(owner.id, 'owned.example.com');
    const { client } = await signedInClient('pro');
    await client.get('/live');
    for (const [path, fields] of [
      [`/live/${site.id}/active`, { active: 'false' }],
      [`/live/${site.id}/sample-rate`, { sample_rate: '10' }],
      [`/live/${site.id}/delete`, {}],
    ] as const) {
      expect((await client.post(path, fields)).status).toBe(404);
    }
    const dashboard = await client.get(`/live/${site.id}`);
    expect(dashboard.status).toBe(404);
    expect(dashboard.text).toContain('id="error"');
    expect((await client.get('/live/abc')).status).toBe(404);
    expect((await client.get('/live/99999999999')).status).toBe(404);
    expect(await storage().rumSites.findOwned(owner.id, site.id)).toMatchObject({ active: true, sampleRate: 100 });
  });
});

describe('the dashboard', () => {
  let owner: { client: WebClient; userId: number };
  let siteId: number;
  let rows: RumRow[];

  beforeAll(async () => {
    const { user, client } = await signedInClient('starter');
    owner = { client, userId: user.id };
    siteId = (await siteFor(user.id, 'www.bean-and-brew.example')).id;
    rows = siteTraffic({ siteId, now: api.clock.read(), pageViews: 1500, days: 30, seed: 3 });
    // A resend of some values with a higher seq (a later send of the same page view): only the latest counts.
    const resent = rows
      .filter((_, i) => i % 50 === 0)
      .map((row) => ({ ...row, seq: 2, value: row.metric === 'CLS' ? row.value : row.value + 7 }));
    rows = [...rows, ...resent];
    // Another site's rows must not leak into this one's numbers.
    const other = siteTraffic({ siteId: siteId + 1000, now: api.clock.read(), pageViews: 200, seed: 9 });
    await insertRumRows(clickhouse.client, [...rows, ...other]);
    const today = api.clock.read().toISOString().slice(0, 10);
    await insertRejections(clickhouse.client, [{ siteId, day: today, reason: 'over_limit', beacons: 42 }]);
  }, 60_000);

  // The window the page's period covers (24h rolling; 7d and 30d from a UTC midnight), by the one rule.
  const selected = (period: RumPeriod, device: 'all' | Device) =>
    selectRows(rows, { siteId, from: periodWindow(period, api.clock.read()).from, device });

  it.each([
    ['24h', 'all'],
    ['7d', 'all'],
    ['7d', 'mobile'],
    ['30d', 'desktop'],
  ] as const)('period %s, device %s: p75 and samples per metric as computed from the rows', async (period, device) => {
    const query = new URLSearchParams({ period, device }).toString();
    const response = await owner.client.get(`/live/${siteId}?${query}`);
    expect(response.status).toBe(200);
    const expected = expectedCards(selected(period, device));
    expect(expected.LCP.samples).toBeGreaterThan(20);
    expect(cards(response.text)).toEqual(expected);
    // The current filters are marked; the other links keep the other filter.
    expect(response.text).toMatch(new RegExp(`class="filter-period" data-value="${period}" aria-current="true"`));
    expect(response.text).toMatch(new RegExp(`class="filter-device" data-value="${device}" aria-current="true"`));
  });

  it('the device filter changes the numbers', async () => {
    const all = cards((await owner.client.get(`/live/${siteId}?period=30d`)).text);
    const mobile = cards((await owner.client.get(`/live/${siteId}?period=30d&device=mobile`)).text);
    expect(mobile.LCP.samples).toBeLessThan(all.LCP.samples);
    expect(mobile.LCP.p75).not.toBe(all.LCP.p75);
  });

  it('rating shares, verdict, slowest pages with attribution, navigation split, usage and refusals', async () => {
    const page = (await owner.client.get(`/live/${siteId}?period=7d`)).text;
    const week = selected('7d', 'all');
    for (const metric of RUM_METRICS) {
      const values = week.filter((row) => row.metric === metric).map((row) => row.value);
      for (const rating of RATINGS) {
        const count = values.filter((value) => rate(metric, value) === rating).length;
        expect({
          metric,
          rating,
          shown: new RegExp(`id="shares-${metric}"[\\s\\S]*?data-rating="${rating}" data-count="(\\d+)"`).exec(
            page,
          )?.[1],
        }).toEqual({ metric, rating, shown: String(count) });
      }
    }
    const expected = expectedCards(week);
    const cwv = ['LCP', 'CLS', 'INP'] as const;
    const verdict = cwv.every((metric) => rate(metric, expected[metric].p75!) === 'good') ? 'pass' : 'fail';
    expect(page).toContain(`data-verdict="${verdict}"`);

    // Slowest by LCP: the path with the highest p75 first, with its LCP element.
    const lcpByPath = new Map<string, number[]>();
    for (const row of week.filter((r) => r.metric === 'LCP'))
      lcpByPath.set(row.path, [...(lcpByPath.get(row.path) ?? []), row.value]);
    const slowest = [...lcpByPath]
      .map(([path, values]) => ({ path, p75: independentP75(values)! }))
      .sort((a, b) => b.p75 - a.p75)[0]!;
    const firstRow =
      /id="slowest-LCP"[\s\S]*?<tr data-path="([^"]+)" data-p75="([^"]+)">[\s\S]*?<td class="wide attribution"[^>]*>([\s\S]*?)<\/td>/.exec(
        page,
      );
    expect(firstRow?.[1]).toBe(slowest.path);
    expect(Number(firstRow?.[2])).toBe(slowest.p75);
    expect(firstRow?.[3]).toContain(
      week.find((r) => r.metric === 'LCP' && r.path === slowest.path)!.attr_target.replace(/>/g, '&gt;'),
    );
    expect(page).toMatch(/id="slowest-INP"[\s\S]*?<tr data-path/);

    // Navigation split: page views per navigation type.
    const navigations = new Map<string, Set<string>>();
    for (const row of week)
      navigations.set(row.navigation, (navigations.get(row.navigation) ?? new Set()).add(row.page_view_id));
    for (const [type, views] of navigations)
      expect(page).toContain(`data-type="${type}" data-pageviews="${views.size}"`);

    expect(page).toContain('data-reason="over_limit" data-beacons="42"');
    expect(page).toContain('past the monthly limit, not in the 1-in-10 sample');
    expect(page).toMatch(/id="usage-text">[\d,]+ of 100,000 page views/);
    // The month's limit notice shows once the ingest has recorded that the site reached it.
    expect(page).not.toContain('id="limit-reached-notice"');
    await storage().rumSites.recordLimitReached(siteId, utcMonth(api.clock.read()), api.clock.read());
    const noticed = (await owner.client.get(`/live/${siteId}?period=7d`)).text;
    expect(noticed).toMatch(
      /id="limit-reached-notice">The monthly limit was reached on [^<]+\. Until the month ends 1 page view in 10 is measured/,
    );
    // History charts: one per metric, with a point per day.
    for (const metric of RUM_METRICS) expect(page).toContain(`id="history-${metric}"`);
  });

  it('a site without data shows the empty state with its snippet', async () => {
    const site = await siteFor(owner.userId, 'empty.bean-and-brew.example');
    const page = (await owner.client.get(`/live/${site.id}`)).text;
    expect(page).toContain('id="empty-state"');
    expect(page).toContain('No data yet');
    expect(page).toContain(`data-site-id=&quot;${site.publicId}&quot;`);
    expect(page).not.toContain('id="summary"');
    await storage().rumSites.delete(owner.userId, site.id);
  });

  it('speaks German', async () => {
    const { user, client } = await signedInClient('starter', 'de-DE,de;q=0.9');
    const site = await siteFor(user.id, 'www.kaffee.example');
    await insertRumRows(
      clickhouse.client,
      siteTraffic({ siteId: site.id, now: api.clock.read(), pageViews: 60, days: 1, seed: 5 }),
    );
    const page = (await client.get(`/live/${site.id}`)).text;
    expect(page).toContain('<html lang="de"');
    expect(page).toContain('Live-Daten: www.kaffee.example');
    expect(page).toContain('Das 75. Perzentil je Metrik');
    expect(page).toContain('Letzte 24 Stunden');
    expect(page).toContain('Langsamste Seiten');
    const list = (await client.get('/live')).text;
    expect(list).toContain('Ihre Sites');
    expect(list).toContain('Site anlegen');
  });

  it('in Chromium at desktop and 360 px: the numbers are there and nothing scrolls sideways (screenshots in /tmp)', async () => {
    const user = await storage().users.findById(owner.userId);
    const page = await signInWithForm(browser, api.url, user!.email, PASSWORD);
    for (const [width, lang] of [
      [1280, 'en'],
      [360, 'de'],
      [360, 'en'],
    ] as const) {
      await page.setViewport({ width, height: 900 });
      await page.setExtraHTTPHeaders({ 'accept-language': lang });
      await page.goto(`${api.url}/live/${siteId}?period=7d`);
      expect(await page.$eval('#metric-LCP .value', (el) => el.textContent)).toMatch(/\d/);
      expect(await page.$$eval('#history .metric-chart .point', (els) => els.length)).toBeGreaterThan(20);
      const overflow = (await page.evaluate(
        "[document.documentElement, ...document.querySelectorAll('section')].filter((el) => el.scrollWidth > el.clientWidth).map((el) => el.id || el.tagName)",
      )) as string[];
      expect({ width, lang, overflow }).toEqual({ width, lang, overflow: [] });
      await page.screenshot({ path: `/tmp/live-dashboard-${lang}-${width}.png`, fullPage: true });
      // The phone page in screen-sized parts, to look at without scaling it down.
      const height = (await page.evaluate('document.documentElement.scrollHeight')) as number;
      for (let top = 0, part = 0; width === 360 && top < height; top += 1600, part++) {
        await page.screenshot({
          path: `/tmp/live-dashboard-${lang}-360-part${part}.png`,
          clip: { x: 0, y: top, width, height: Math.min(1600, height - top) },
          captureBeyondViewport: true,
        });
      }
    }
    await page.browserContext().close();
  });
});

describe('the alerts page', () => {
  it('adds, lists and deletes alert configurations; refuses bad values in words; other users get 404', async () => {
    const { user, client } = await signedInClient('starter');
    const site = await siteFor(user.id, 'alerts.bean-and-brew.example');
    const empty = await client.get(`/live/${site.id}/alerts`);
    expect(empty.status).toBe(200);
    expect(empty.text).toContain('id="no-alerts"');

    const base = {
      title: 'Checkout slow',
      mode: 'manual',
      metric: 'INP',
      threshold: '',
      window_minutes: '30',
      min_samples: '50',
      consecutive_threshold: '2',
    };
    const refused = await client.post(`/live/${site.id}/alerts`, { ...base, window_minutes: '2' });
    expect(refused.status).toBe(422);
    expect(refused.text).toContain('id="alert-threshold-error"');
    expect(refused.text).toContain('id="alert-window_minutes-error"');
    expect(refused.text).toContain('value="Checkout slow"');
    expect(await storage().rumAlerts.listForSite(site.id)).toEqual([]);

    const added = await client.post(`/live/${site.id}/alerts`, { ...base, threshold: '300' });
    expect(added.status).toBe(303);
    expect(added.headers.location).toBe(`/live/${site.id}/alerts?notice=added`);
    expect(
      (await client.post(`/live/${site.id}/alerts`, { ...base, title: 'Core Web Vitals', mode: 'auto' })).status,
    ).toBe(303);
    const [manual, auto] = await storage().rumAlerts.listForSite(site.id);
    expect(manual).toMatchObject({
      title: 'Checkout slow',
      mode: 'manual',
      metric: 'INP',
      threshold: 300,
      windowMinutes: 30,
      minSamples: 50,
      consecutiveThreshold: 2,
      status: 'active',
    });
    expect(auto).toMatchObject({ title: 'Core Web Vitals', mode: 'auto', metric: null, threshold: null });

    const list = await client.get(`/live/${site.id}/alerts?notice=added`);
    expect(list.text).toContain('Alert added.');
    expect(list.text).toContain(`id="rum-alert-${manual!.id}" data-status="active"`);
    expect(list.text).toContain(
      'INP p75 above 300 ms over the last 30 minutes; at least 50 measurements, 2 checks in a row.',
    );
    expect(list.text).toContain('Watching');
    expect((await client.get(`/live/${site.id}`)).text).toContain('id="alerts-link">Alerts (2)</a>');

    const { client: stranger } = await signedInClient('pro');
    await stranger.get('/live');
    expect((await stranger.get(`/live/${site.id}/alerts`)).status).toBe(404);
    expect((await stranger.post(`/live/${site.id}/alerts/${manual!.id}/delete`, {})).status).toBe(404);
    expect((await stranger.post(`/live/${site.id}/alerts`, { ...base, threshold: '300' })).status).toBe(404);

    const removed = await client.post(`/live/${site.id}/alerts/${manual!.id}/delete`, {});
    expect(removed.status).toBe(303);
    expect((await storage().rumAlerts.listForSite(site.id)).map((a) => a.id)).toEqual([auto!.id]);
    expect((await client.post(`/live/${site.id}/alerts/${manual!.id}/delete`, {})).status).toBe(404);
  });
});

describe('with ClickHouse away', () => {
  it('the list still shows the sites and their snippets (no counts); the dashboard answers a 503 page in words', async () => {
    const upstream = new URL(api.config.clickhouse.url);
    const proxy = new TcpProxy(upstream.hostname, Number(upstream.port));
    await proxy.start();
    const cut = await startTestApi({
      env: { CLICKHOUSE_DATABASE: clickhouse.database, CLICKHOUSE_URL: `http://127.0.0.1:${proxy.port}` },
    });
    try {
      const { user } = await createTestUser(cut, 'starter', PASSWORD);
      const site = await createStorage(cut.db.knex).rumSites.insert({
        userId: user.id,
        publicId: 'awayaway000000000000',
        domain: 'away.example.com',
        sampleRate: 100,
        createdAt: cut.clock.read(),
      });
      const client = new WebClient(cut.url, cut.config.baseUrl);
      expect((await client.signIn(user.email, PASSWORD)).status).toBe(303);
      expect((await client.get(`/live/${site.id}`)).status).toBe(200);
      await proxy.cut();
      const list = await client.get('/live');
      expect(list.status).toBe(200);
      expect(list.text).toContain('data-site-id=&quot;awayaway000000000000&quot;');
      expect(list.text).toContain('— of 100,000 page views this month');
      const dashboard = await client.get(`/live/${site.id}`);
      expect(dashboard.status).toBe(503);
      expect(dashboard.headers['retry-after']).toBe('30');
      expect(dashboard.text).toContain('The live data cannot be read just now.');
      await proxy.restore();
      expect((await client.get(`/live/${site.id}`)).status).toBe(200);
    } finally {
      await proxy.cut();
      await cut.close();
    }
  });
});

describe('hostile input', () => {
  it('odd query values fall back to the defaults; odd form values are refused in words, never a 500', async () => {
    const { user, client } = await signedInClient('starter');
    const site = await siteFor(user.id, 'hostile.example.com');
    // A NUL byte is the input guard's 400 before any route (http/input-guard.ts).
    expect((await client.get(`/live/${site.id}?period=%00`)).status).toBe(400);
    for (const query of ['device=%F0%9F%92%A9', 'period=7d&period=30d', `device=${'x'.repeat(5000)}`, 'period=-1']) {
      const page = await client.get(`/live/${site.id}?${query}`);
      expect({ query, status: page.status }).toEqual({ query, status: 200 });
      expect(page.text).toContain('class="filter-period" data-value="24h" aria-current="true"');
    }
    await client.get('/live');
    for (const domain of [
      'a\u0000b.example.com',
      'x'.repeat(3000),
      'a b.example',
      'javascript:alert(1)',
      '127.0.0.1',
      'localhost',
    ]) {
      const answer = await client.post('/live', { domain });
      expect({ domain: domain.slice(0, 20), ok: [400, 422].includes(answer.status) }).toEqual({
        domain: domain.slice(0, 20),
        ok: true,
      });
    }
    const alert = {
      title: 'a\u0000b',
      mode: 'auto',
      metric: 'LCP',
      threshold: '',
      window_minutes: '60',
      min_samples: '20',
      consecutive_threshold: '3',
    };
    for (const fields of [
      alert,
      { ...alert, title: 'x'.repeat(300) },
      { ...alert, title: 'ok', mode: 'manual', metric: 'NOPE', threshold: '1e9' },
      { ...alert, title: 'ok', window_minutes: '99999999999999' },
    ]) {
      const answer = await client.post(`/live/${site.id}/alerts`, fields);
      expect([400, 422]).toContain(answer.status);
    }
    expect(await storage().rumAlerts.listForSite(site.id)).toEqual([]);
    expect(await storage().rumSites.countOwned(user.id)).toBe(1);
  });
});
