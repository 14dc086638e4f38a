import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { loadConfig } from '../../infra/config.ts';
import { RUM_SLOW_CLICK_MS, startRumFixtureSite, type RumFixtureSite } from '../../fixtures/rum-site.ts';
import { waitUntil } from '../../stack/proc.ts';
import { call, createTestUser, startTestApi, type TestApi } from '../harness/api.ts';
import { launchBrowser } from '../harness/browser.ts';
import { loadArticleAndClick } from '../../fixtures/rum-page.ts';
import { freePort, isolatedClickHouse, type IsolatedClickHouse } from '../harness/isolated.ts';
import { baseTestEnv } from '../harness/shared.ts';
import { metricCounts, queryRows, startIngest, type IngestProcess } from '../ingest/support.ts';

/**
 * Live data end to end, every part real: a site created through the API, its embed_snippet pasted into a
 * fixture site's page, the collector script served by the ingest process, headless Chromium driven like a
 * person (a late image, a layout shift, a real click, real navigations and the back-forward cache), the
 * ingest process writing to ClickHouse, and the API's summary and pages reading it back.
 *
 * Chromium resolves the customer's domain to the fixture site on 127.0.0.1 (--host-resolver-rules), so the
 * beacons carry the Origin a real customer's pages would and pass the ingest service's origin rule.
 */
const DOMAIN = 'shop.example.test';
const base = loadConfig(baseTestEnv());
let ch: IsolatedClickHouse;
let api: TestApi;
let ingest: IngestProcess;
let site: RumFixtureSite;
let browser: Browser;
let closeBrowser: () => Promise<void>;
let token: string;
let siteId: number;
let snippet: string;
const spoolDir = mkdtempSync(join(tmpdir(), 'e2e-spool-'));

beforeAll(async () => {
  ch = await isolatedClickHouse(base);
  const ingestPort = await freePort();
  api = await startTestApi({ env: { CLICKHOUSE_DATABASE: ch.database, INGEST_URL: `http://127.0.0.1:${ingestPort}` } });
  ingest = await startIngest({
    DATABASE_URL: api.db.databaseUrl,
    CLICKHOUSE_DATABASE: ch.database,
    INGEST_PORT: String(ingestPort),
    INGEST_SPOOL_DIR: spoolDir,
    // Headless Chromium is on the bot list; this test's browser is the customer's visitor.
    RUM_ACCEPT_HEADLESS: '1',
  });
  ({ token } = await createTestUser(api, 'pro'));
  const created = await call(api, '/rum/sites', { token, method: 'POST', body: { domain: `https://${DOMAIN}/` } });
  expect(created.status).toBe(201);
  siteId = (created.body.data as { id: number }).id;
  snippet = (created.body.data as { embed_snippet: string }).embed_snippet;
  site = await startRumFixtureSite(() => snippet);
  ({ browser, close: closeBrowser } = await launchBrowser([
    `--host-resolver-rules=MAP ${DOMAIN} 127.0.0.1, MAP www.${DOMAIN} 127.0.0.1`,
  ]));
}, 120_000);

afterAll(async () => {
  await closeBrowser?.();
  await site?.close();
  await ingest?.service.stop();
  await api?.close();
  await ch?.drop();
  rmSync(spoolDir, { recursive: true, force: true });
});

const pageUrl = (path: string) => `http://www.${DOMAIN}:${new URL(site.origin).port}${path}`;

/** One visit: the article (late image, layout shift), a click on the slow button, then away by a real navigation. */
async function visit(page: Page): Promise<void> {
  await loadArticleAndClick(page, pageUrl('/rum/article?campaign=x#top'));
  await page.goto(pageUrl('/rum/elsewhere'));
}

interface SummaryMetric {
  p75: number | null;
  rating: string | null;
  samples: number;
}

/** The API's clock stands still unless set: reads happen now, after the beacons. */
function get(path: string) {
  api.clock.set(new Date());
  return call(api, path, { token });
}

async function summary(): Promise<Record<string, SummaryMetric>> {
  const res = await get(`/rum/sites/${siteId}/summary`);
  expect(res.status).toBe(200);
  return (res.body.data as { metrics: Record<string, SummaryMetric> }).metrics;
}

it('beacons from real page views land in ClickHouse and move the summary, with attribution on the slowest pages', async () => {
  expect(snippet).toContain(`src="http://127.0.0.1:${new URL(ingest.url).port}/c/1/rum.js"`);
  const page = await browser.newPage();
  await visit(page);
  await visit(page);
  await page.close();

  await waitUntil(
    'two page views in the summary',
    async () => (await summary()).LCP?.samples === 2 && (await summary()).INP?.samples === 2,
    30_000,
    200,
  );
  const metrics = await summary();
  for (const name of ['LCP', 'CLS', 'INP', 'FCP', 'TTFB'])
    expect({ name, samples: metrics[name]!.samples }).toEqual({ name, samples: 2 });
  // The click handler blocks the main thread this long: the interaction cannot have been shorter.
  expect(metrics.INP!.p75).toBeGreaterThanOrEqual(RUM_SLOW_CLICK_MS);
  expect(metrics.CLS!.p75).toBeGreaterThan(0);

  const pages = await get(`/rum/sites/${siteId}/pages?metric=LCP`);
  expect(pages.status).toBe(200);
  expect(pages.body.data).toEqual([
    expect.objectContaining({
      path: '/rum/article',
      samples: 2,
      attribution: expect.objectContaining({ target: '#hero', url: `${pageUrl('/rum/hero.png')}` }),
    }),
  ]);

  const detail = await get(`/rum/sites/${siteId}`);
  expect((detail.body.data as { pageviews_this_month: number }).pageviews_this_month).toBe(2);
  // Nothing of the query string or the fragment was stored.
  const paths = await queryRows<{ path: string }>(ch.client, `SELECT DISTINCT path FROM ${ch.database}.rum_metrics`);
  expect(paths).toEqual([{ path: '/rum/article' }]);
}, 120_000);

it('a back-forward-cache restore adds the restored view once and does not count the first view twice', async () => {
  const before = await summary();
  const page = await browser.newPage();
  await visit(page);
  await page.goBack();
  expect(await page.evaluate('window.restores')).toBe(1); // really from the back-forward cache
  await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))');
  await page.goto(pageUrl('/rum/elsewhere'));
  await page.close();

  // The restore's send repeats the first view's metrics (same ids, next seq): more rows, not more samples.
  await waitUntil(
    'the restore stored',
    async () => {
      const [row] = await queryRows<{ n: string }>(
        ch.client,
        `SELECT count() AS n FROM ${ch.database}.rum_metrics WHERE navigation = 'back-forward-cache'`,
      );
      return Number(row!.n) > 0;
    },
    30_000,
    200,
  );
  const counts = await metricCounts(ch.client, ch.database);
  expect(counts.rows).toBeGreaterThan(counts.distinct);
  const [lcp] = await queryRows<{ n: string }>(
    ch.client,
    `SELECT uniqExact(page_view_id, metric_id) AS n FROM ${ch.database}.rum_metrics WHERE metric = 'LCP'`,
  );
  const after = await summary();
  expect(after.LCP!.samples).toBe(Number(lcp!.n));
  // The visit itself adds one LCP, the restore one more (web-vitals reports a restored view's paint anew).
  expect(after.LCP!.samples).toBe(before.LCP!.samples + 2);
  const detail = await get(`/rum/sites/${siteId}`);
  expect((detail.body.data as { pageviews_this_month: number }).pageviews_this_month).toBe(3);
}, 120_000);
