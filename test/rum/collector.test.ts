import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'puppeteer-core';
import type { Beacon, BeaconMetric } from '../../core/rum/beacon.ts';
import { collectorScriptUrl, embedSnippet, newRumSitePublicId } from '../../core/rum/site.ts';
import { RUM_SLOW_CLICK_MS, startRumFixtureSite, type RumFixtureSite } from '../../fixtures/rum-site.ts';
import { serveCollectorScript } from '../../ingest/collector-script.ts';
import { createLogger } from '../../infra/logger.ts';
import { loadConfig } from '../../infra/config.ts';
import { launchBrowser } from '../harness/browser.ts';
import { idle, loadArticleAndClick } from '../../fixtures/rum-page.ts';
import { baseTestEnv } from '../harness/shared.ts';

/**
 * The collector script as customers run it: the real snippet on a fixture site (127.0.0.1), the script served
 * by the ingest module that serves it in production, in headless Chromium driven like a person (a real click,
 * real navigations that hide the page, the back button and Chromium's back-forward cache). The beacons go to
 * a stand-in for the ingest service's /b, which only records them (the real endpoint is tested with ingest).
 */

interface Received {
  beacon: Beacon;
  contentType: string | undefined;
  cookie: string | undefined;
}

const received: Received[] = [];
let receiver: Server;
let ingestOrigin: string;
let site: RumFixtureSite;
let browser: Browser;
let closeBrowser: () => Promise<void>;

/** Per site id, what the article page's head carries: the snippet as the dashboard shows it, or variants. */
const snippets = new Map<string, string>();

beforeAll(async () => {
  const log = createLogger(loadConfig(baseTestEnv(), { keys: false }), 'test-ingest');
  receiver = createServer((req, res) => {
    if (serveCollectorScript(req, res, log)) return;
    if (req.method === 'POST' && req.url === '/b') {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received.push({
          beacon: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Beacon,
          contentType: req.headers['content-type'],
          cookie: req.headers.cookie,
        });
        res.writeHead(204).end();
      });
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', () => resolve()));
  ingestOrigin = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  site = await startRumFixtureSite((url) => snippets.get(url.searchParams.get('site') ?? '') ?? '');
  ({ browser, close: closeBrowser } = await launchBrowser());
});

afterAll(async () => {
  await closeBrowser?.();
  await site?.close();
  receiver?.closeAllConnections();
  await new Promise((resolve) => receiver?.close(resolve));
});

/** A new site id whose article page carries the real snippet (or `tag(snippet)` for variants). */
function newSite(tag: (snippet: string) => string = (snippet) => snippet): string {
  const id = newRumSitePublicId();
  snippets.set(id, tag(embedSnippet(collectorScriptUrl(ingestOrigin), id)));
  return id;
}

function beaconsOf(siteId: string): Beacon[] {
  return received.filter((r) => r.beacon.site === siteId).map((r) => r.beacon);
}

async function waitForBeacons(siteId: string, count: number): Promise<Beacon[]> {
  const deadline = Date.now() + 15_000;
  while (beaconsOf(siteId).length < count) {
    if (Date.now() > deadline)
      throw new Error(`expected ${count} beacons for ${siteId}, got ${JSON.stringify(beaconsOf(siteId))}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return beaconsOf(siteId).sort((a, b) => a.seq - b.seq);
}

/** Loads the article page (with a query and a fragment), waits for its LCP image and its layout shift, clicks the slow button. */
async function loadAndInteract(page: Page, siteId: string): Promise<void> {
  await loadArticleAndClick(page, `${site.origin}/rum/article?site=${siteId}&q=1#x`);
}

/** Leaves the page by a real navigation, which hides it. */
async function leave(page: Page): Promise<void> {
  await page.goto(`${site.origin}/rum/elsewhere`);
}

function byName(metrics: BeaconMetric[], name: string, nav = 'navigate'): BeaconMetric | undefined {
  return metrics.find((m) => m.name === name && m.nav === nav);
}

describe('the collector script in Chromium', () => {
  it('sends one beacon when the page is hidden, with the five metrics, their attribution, the path without query and the device', async () => {
    const siteId = newSite();
    const page = await browser.newPage();
    await loadAndInteract(page, siteId);
    const stored = await page.evaluate(
      '({ cookie: document.cookie, local: localStorage.length, session: sessionStorage.length })',
    );
    await leave(page);
    const [beacon, ...more] = await waitForBeacons(siteId, 1);
    await page.close();

    expect(more).toEqual([]);
    expect(beacon).toMatchObject({ v: 1, site: siteId, seq: 1, path: '/rum/article', device: 'desktop', rate: 100 });
    expect(beacon!.pv).toMatch(/^[A-Za-z0-9_-]{16,32}$/);
    const metrics = beacon!.metrics;
    expect(metrics.map((m) => m.name).sort()).toEqual(['CLS', 'FCP', 'INP', 'LCP', 'TTFB']);
    expect(metrics.every((m) => m.nav === 'navigate')).toBe(true);
    expect(byName(metrics, 'LCP')).toMatchObject({ target: '#hero', url: `${site.origin}/rum/hero.png` });
    expect(byName(metrics, 'CLS')).toMatchObject({ target: '#shifted' });
    expect(byName(metrics, 'CLS')!.value).toBeGreaterThan(0);
    // The handler blocks the main thread this long, so the interaction cannot have been shorter.
    expect(byName(metrics, 'INP')).toMatchObject({ target: '#slow', type: 'pointer' });
    expect(byName(metrics, 'INP')!.value).toBeGreaterThanOrEqual(RUM_SLOW_CLICK_MS);
    expect(byName(metrics, 'FCP')!.value).toBeGreaterThan(0);
    expect(byName(metrics, 'TTFB')!.value).toBeGreaterThanOrEqual(0);
    // Nothing of the query, the fragment or the image's token travels; nothing is stored in the browser.
    const raw = JSON.stringify(beacon);
    for (const secret of ['q=1', '#x', 'token', 'secret', 'v=3', `site=${siteId}`]) expect(raw).not.toContain(secret);
    expect(stored).toEqual({ cookie: '', local: 0, session: 0 });
    const delivery = received.find((r) => r.beacon.site === siteId)!;
    expect(delivery.contentType).toBe('text/plain;charset=UTF-8');
    expect(delivery.cookie).toBeUndefined();
  });

  it('after a back-forward-cache restore sends the restored view under new metric ids, with the next seq, and the earlier ids unchanged', async () => {
    const siteId = newSite();
    const page = await browser.newPage();
    await loadAndInteract(page, siteId);
    await leave(page);
    const [first] = await waitForBeacons(siteId, 1);

    await page.goBack();
    expect(await page.evaluate('window.restores')).toBe(1); // really from the bfcache
    await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))');
    await idle(page);
    await leave(page);
    const [, second, ...more] = await waitForBeacons(siteId, 2);
    await page.close();

    expect(more).toEqual([]);
    expect(second).toMatchObject({
      v: 1,
      site: siteId,
      pv: first!.pv,
      seq: 2,
      path: '/rum/article',
      device: 'desktop',
    });
    const firstIds = new Map(first!.metrics.map((m) => [m.id, m]));
    const restored = second!.metrics.filter((m) => m.nav === 'back-forward-cache');
    // No interaction after the restore, so no INP for it; the others are measured again from the restore.
    expect(restored.map((m) => m.name).sort()).toEqual(['CLS', 'FCP', 'LCP', 'TTFB']);
    for (const metric of restored) expect(firstIds.has(metric.id)).toBe(false);
    // Each id once per send; ids of the first view repeated with the values already sent.
    expect(new Set(second!.metrics.map((m) => m.id)).size).toBe(second!.metrics.length);
    const repeated = second!.metrics.filter((m) => m.nav !== 'back-forward-cache');
    expect(repeated.map((m) => m.id).sort()).toEqual([...firstIds.keys()].sort());
    for (const metric of repeated) expect(metric).toEqual(firstIds.get(metric.id));
  });

  it('keeps each send within the 20-metric limit after many restores: the newest values first, the ones left out sent before', async () => {
    const siteId = newSite();
    const page = await browser.newPage();
    await page.goto(`${site.origin}/rum/article?site=${siteId}`, { waitUntil: 'load' });
    await leave(page);
    const restores = 5; // 4 metrics per restore (no interaction): 4 + 5 × 4 = 24 metric ids in all
    for (let i = 1; i <= restores; i++) {
      await waitForBeacons(siteId, i);
      await page.goBack();
      expect(await page.evaluate('window.restores')).toBe(i); // the same document, from the bfcache
      await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))');
      await idle(page);
      await leave(page);
    }
    const beacons = await waitForBeacons(siteId, restores + 1);
    await page.close();

    expect(beacons.map((b) => b.seq)).toEqual([1, 2, 3, 4, 5, 6]);
    const allIds = new Set(beacons.flatMap((b) => b.metrics.map((m) => m.id)));
    expect(allIds.size).toBe(24);
    const last = beacons.at(-1)!;
    expect(last.metrics).toHaveLength(20);
    expect(Buffer.byteLength(JSON.stringify(last))).toBeLessThanOrEqual(8192);
    // The last restore's four metrics are in the last send; the four left out went in earlier sends.
    const previous = new Set(beacons.slice(0, -1).flatMap((b) => b.metrics.map((m) => m.id)));
    expect(last.metrics.slice(0, 4).every((m) => m.nav === 'back-forward-cache' && !previous.has(m.id))).toBe(true);
    const omitted = [...allIds].filter((id) => !last.metrics.some((m) => m.id === id));
    expect(omitted).toHaveLength(4);
    for (const id of omitted) expect(previous.has(id)).toBe(true);
  });

  it('reports a phone from client hints and a tablet from the user agent', async () => {
    const phone = newSite();
    const tablet = newSite();
    const phonePage = await browser.newPage();
    await phonePage.setUserAgent({
      userAgent:
        'Mozilla/5.0 (Linux; Android 14; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Mobile Safari/537.36',
      userAgentMetadata: {
        mobile: true,
        platform: 'Android',
        platformVersion: '14',
        architecture: '',
        model: 'Pixel 8',
      },
    });
    await phonePage.goto(`${site.origin}/rum/article?site=${phone}`, { waitUntil: 'load' });
    await leave(phonePage);
    const tabletPage = await browser.newPage();
    await tabletPage.setUserAgent({
      userAgent:
        'Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
    });
    await tabletPage.goto(`${site.origin}/rum/article?site=${tablet}`, { waitUntil: 'load' });
    await leave(tabletPage);

    expect((await waitForBeacons(phone, 1))[0]!.device).toBe('mobile');
    expect((await waitForBeacons(tablet, 1))[0]!.device).toBe('tablet');
    await Promise.all([phonePage.close(), tabletPage.close()]);
  });

  it('sends only well-formed text: a lone surrogate in an element id reaches the beacon as U+FFFD, not as an escape the ingest refuses', async () => {
    // The page names its LCP image with a lone high surrogate before the image paints.
    const rename = `<script>document.addEventListener('DOMContentLoaded', () => { document.getElementById('hero').id = 'hero\\ud800'; });</script>`;
    const siteId = newSite((snippet) => rename + snippet);
    const page = await browser.newPage();
    await page.goto(`${site.origin}/rum/article?site=${siteId}`, { waitUntil: 'load' });
    await page.evaluate(`new Promise((resolve) => new PerformanceObserver((list, observer) => {
      if (list.getEntries().some((entry) => entry.element && entry.element.id.startsWith('hero'))) { observer.disconnect(); resolve(); }
    }).observe({ type: 'largest-contentful-paint', buffered: true }))`);
    await idle(page);
    await leave(page);
    const [beacon] = await waitForBeacons(siteId, 1);
    await page.close();

    const strings: string[] = [];
    JSON.stringify(beacon, (_key, value: unknown) => (typeof value === 'string' && strings.push(value), value));
    expect(strings.filter((text) => !text.isWellFormed())).toEqual([]);
    expect(byName(beacon!.metrics, 'LCP')).toMatchObject({ target: '#hero\ufffd' });
  });

  it('sends nothing at a sample rate of 0, the rate it applied otherwise, and one page view when the snippet is pasted twice', async () => {
    const unsampled = newSite((snippet) => snippet.replace(' async>', ' data-sample="0" async>'));
    const half = newSite((snippet) => snippet.replace(' async>', ' data-sample="50" async>'));
    const twice = newSite((snippet) => snippet + snippet);
    const page = await browser.newPage();
    await page.goto(`${site.origin}/rum/article?site=${unsampled}`, { waitUntil: 'load' });
    await leave(page);
    await page.goto(`${site.origin}/rum/article?site=${twice}`, { waitUntil: 'load' });
    await leave(page);
    const [once, ...more] = await waitForBeacons(twice, 1);
    // Half the page views report at 50 %: enough loads that at least one does (1 - 2^-20 of the time).
    for (let i = 0; i < 20 && beaconsOf(half).length === 0; i++) {
      await page.goto(`${site.origin}/rum/article?site=${half}`, { waitUntil: 'load' });
      await leave(page);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const [sampled] = await waitForBeacons(half, 1);
    await page.close();

    // The 0 % page was hidden before the pasted-twice page's beacon arrived: nothing came from it.
    expect(beaconsOf(unsampled)).toEqual([]);
    expect(more).toEqual([]);
    expect(once!.seq).toBe(1);
    expect(new Set(once!.metrics.map((m) => m.name)).size).toBe(once!.metrics.length);
    expect(sampled!.rate).toBe(50);
  });
});
