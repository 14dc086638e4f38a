import type { BeaconMetric, BeaconScript } from '../../core/rum/beacon.ts';
import type { Device } from '../../core/rum/metrics.ts';
import { call, createTestUser, startTestApi, TestClock, type TestApi } from '../harness/api.ts';
import { launchBrowser, signedInPage } from '../harness/browser.ts';
import { isolatedClickHouse, type IsolatedClickHouse } from '../harness/isolated.ts';
import { WebClient } from '../harness/web.ts';
import { insertBeacons, type TestBeacon } from '../rum/rum-data.ts';

/**
 * The live-data dashboard's diagnostics sections over HTTP (server-rendered, no JavaScript needed): top INP
 * culprits with stable row anchors, narrowed by device and by page (`?page=`), LCP phases per page with their
 * bar and written-out values, the empty states, soft navigations in the navigation split, German words. Beacons
 * are written through the ingest's own code into the real ClickHouse.
 */
const NOW = new Date('2026-11-18T12:00:00Z');
const AT = new Date(NOW.getTime() - 3_600_000);
const PASSWORD = 'a-long-password-1';
const APP = 'https://shop.example/app.js';
const GA = 'https://www.google-analytics.com/analytics.js';

let api: TestApi;
let ch: IsolatedClickHouse;
let client: WebClient;
let token: string;
let email: string;

beforeAll(async () => {
  ch = await isolatedClickHouse();
  api = await startTestApi({ clock: new TestClock(NOW), env: { CLICKHOUSE_DATABASE: ch.database } });
  const created = await createTestUser(api, 'pro', PASSWORD);
  token = created.token;
  email = created.user.email;
  client = await signIn();
});

afterAll(async () => {
  await api?.close();
  await ch?.drop();
});

async function signIn(locale?: string): Promise<WebClient> {
  const web = new WebClient(api.url, api.config.baseUrl, locale ? { 'accept-language': locale } : {});
  expect((await web.signIn(email, PASSWORD)).status).toBe(303);
  return web;
}

async function siteWith(domain: string, beacons: TestBeacon[]): Promise<number> {
  const res = await call(api, '/rum/sites', { token, method: 'POST', body: { domain } });
  const id = (res.body.data as { id: number }).id;
  await insertBeacons(ch.client, ch.database, id, AT, beacons);
  return id;
}

let counter = 0;
const s = (src: string, dur: number, fn = 'onClick'): BeaconScript => ({ src, fn, inv: 'event-listener', dur });
function view(
  metrics: Array<Omit<BeaconMetric, 'id' | 'nav'>>,
  extra: { path?: string; device?: Device; seq?: number; pv?: string; nav?: BeaconMetric['nav'] } = {},
): TestBeacon {
  const pv = extra.pv ?? `web-diagnostics-${String(++counter).padStart(4, '0')}`;
  return {
    pv,
    ...(extra.seq ? { seq: extra.seq } : {}),
    ...(extra.path ? { path: extra.path } : {}),
    ...(extra.device ? { device: extra.device } : {}),
    metrics: metrics.map((m) => ({ ...m, id: `${pv}-${m.name}`, nav: extra.nav ?? 'navigate' })),
  };
}
const phases = (ttfb: number, delay: number, load: number, render: number) => ({ ttfb, delay, load, render });

/** The rows of a table: each `<tr id=...>` with its data attributes. */
function rowIds(page: string, table: string): string[] {
  const body = new RegExp(`id="${table}"[\\s\\S]*?</table>`).exec(page)?.[0] ?? '';
  return [...body.matchAll(/<tr id="([^"]+)"/g)].map((m) => m[1]!);
}
const attr = (page: string, id: string, name: string) =>
  new RegExp(`id="${id}"[^>]*?${name}="([^"]*)"`).exec(page)?.[1];

describe('the dashboard’s diagnostics', () => {
  let siteId: number;
  beforeAll(async () => {
    siteId = await siteWith('shop.example', [
      view([{ name: 'INP', value: 600, scripts: [s(GA, 300, 'track')] }], { pv: 'web-diagnostics-resent', seq: 1 }),
      view([{ name: 'INP', value: 350, scripts: [s(APP, 200)] }], { pv: 'web-diagnostics-resent', seq: 2 }),
      view([{ name: 'INP', value: 300, scripts: [s(APP, 100), s('https://ssl.google-analytics.com/ga.js', 80)] }], {
        path: '/cart',
      }),
      view([{ name: 'INP', value: 250, scripts: [s(GA, 150, 'track')] }], { path: '/cart', device: 'mobile' }),
      view(
        [
          { name: 'INP', value: 100 },
          { name: 'LCP', value: 1800 },
        ],
        { path: '/products/42', nav: 'soft-navigation' },
      ),
      view([{ name: 'LCP', value: 3000, target: 'img.hero', phases: phases(500, 300, 1200, 1000) }]),
    ]);
  });

  it('lists the culprits with anchors, counts and p75s; LCP phases per page; soft navigations by name', async () => {
    const page = (await client.get(`/live/${siteId}`)).text;
    expect(page).toContain('id="inp-culprits"');
    expect(page).toMatch(/id="culprits-counts">3 of 4 interactions were slow; 3 of them carry script data\./);
    // Both culprits have 2 slow interactions; the first party's INP p75 is higher (350 against 300).
    expect(rowIds(page, 'culprits-table')).toEqual(['culprit-shop-example-app-js', 'culprit-google-analytics']);
    expect(attr(page, 'culprit-google-analytics', 'data-count')).toBe('2'); // not the older send's GA script
    expect(attr(page, 'culprit-shop-example-app-js', 'data-kind')).toBe('first-party');
    expect(page).toContain('Google Analytics');

    expect(rowIds(page, 'lcp-phases-table')).toEqual(['lcp-site', 'lcp-page-root', 'lcp-page-products-42']);
    expect(attr(page, 'lcp-page-root', 'data-phase-samples')).toBe('1');
    expect(page).toMatch(/data-phase="load" data-p75="1200"><span [^>]*><\/span>Resource load duration: 1\.2/);
    expect(page).toContain('No phases yet: they arrive from collectors of this version on.');
    expect(page).toMatch(/data-type="soft-navigation"[^>]*><td class="wide">Soft navigation \(route change\)/);
  });

  it('narrows the culprits to a device and to one page, keeping the page across filter links', async () => {
    const mobile = (await client.get(`/live/${siteId}?device=mobile`)).text;
    expect(rowIds(mobile, 'culprits-table')).toEqual(['culprit-google-analytics']);
    expect(attr(mobile, 'culprit-google-analytics', 'data-count')).toBe('1');

    const cart = (await client.get(`/live/${siteId}?page=%2Fcart`)).text;
    expect(cart).toContain('Page /cart only.');
    expect(rowIds(cart, 'culprits-table')).toEqual(['culprit-google-analytics', 'culprit-shop-example-app-js']);
    expect(attr(cart, 'culprit-shop-example-app-js', 'data-count')).toBe('1');
    expect(cart).toContain(`href="/live/${siteId}?device=mobile&amp;page=%2Fcart"`);
    expect(cart).toContain(`href="/live/${siteId}#inp-culprits"`);

    const all = (await client.get(`/live/${siteId}`)).text;
    expect(all).toContain(`href="/live/${siteId}?page=%2Fcart#inp-culprits"`);
    // Not a path: ignored, the whole site's culprits.
    expect((await client.get(`/live/${siteId}?page=cart`)).text).not.toContain('id="culprits-page"');
  });

  it('in Chromium without JavaScript at 1280 and 360 px: nothing scrolls sideways; a culprit anchor lands on its row (screenshots in /tmp)', async () => {
    const { browser, close } = await launchBrowser();
    try {
      const page = await signedInPage(browser, api.url, email, PASSWORD, { javascript: false });
      for (const width of [1280, 360]) {
        await page.setViewport({ width, height: 800 });
        await page.goto(`${api.url}/live/${siteId}#culprit-google-analytics`);
        const overflow = (await page.evaluate(
          "[document.documentElement, ...document.querySelectorAll('section')].filter((el) => el.scrollWidth > el.clientWidth).map((el) => el.id || el.tagName)",
        )) as string[];
        expect({ width, overflow }).toEqual({ width, overflow: [] });
        const rowTop = (await page.$eval(
          '#culprit-google-analytics',
          (el) => el.getBoundingClientRect().top,
        )) as number;
        expect({ width, landed: rowTop >= 0 && rowTop < 800 }).toEqual({ width, landed: true });
        expect(await page.$$eval('#lcp-page-root .phase-bar .part', (parts) => parts.length)).toBe(4);
        await page.screenshot({ path: `/tmp/live-diagnostics-${width}.png`, fullPage: true });
      }
    } finally {
      await close();
    }
  }, 60_000);

  it('speaks German', async () => {
    const page = (await (await signIn('de')).get(`/live/${siteId}`)).text;
    expect(page).toContain('LCP-Phasen');
    expect(page).toContain('Top-Verursacher langsamer Interaktionen (INP)');
    expect(page).toContain('Soft Navigation (Routenwechsel)');
    expect(page).toContain('Ladedauer der Ressource');
  });
});

describe('the diagnostics’ empty states', () => {
  it('explain: no interactions, no slow ones, slow ones without script data', async () => {
    const cases: Array<[TestBeacon[], string]> = [
      [[view([{ name: 'LCP', value: 2000 }])], 'No interactions measured in this period.'],
      [[view([{ name: 'INP', value: 120 }])], 'No slow interactions in this period: every interaction took 200'],
      [[view([{ name: 'INP', value: 420 }])], 'None of the slow interactions carries script data.'],
    ];
    for (const [i, [beacons, words]] of cases.entries()) {
      const id = await siteWith(`empty${i}.example`, beacons);
      const page = (await client.get(`/live/${id}`)).text;
      expect([i, page.includes(words), page.includes('id="culprits-table"')]).toEqual([i, true, false]);
    }
  });
});
