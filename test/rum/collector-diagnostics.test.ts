import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'puppeteer-core';
import { collectorScriptUrl, embedSnippet } from '../../core/rum/site.ts';
import { countMonthPageviews } from '../../db/clickhouse/rum-ingest.ts';
import { ident, sql } from '../../db/clickhouse/sql.ts';
import { startRumSpaFixture, type RumSpaFixture } from '../../fixtures/rum-spa.ts';
import { waitUntil } from '../../stack/proc.ts';
import {
  isolatedClickHouse,
  isolatedPostgres,
  type IsolatedClickHouse,
  type IsolatedPostgres,
} from '../harness/isolated.ts';
import { useSpa } from '../../fixtures/rum-page.ts';
import { launchVisitorBrowser } from '../harness/browser.ts';
import { createSite, queryRows, startIngest, type IngestProcess } from '../ingest/support.ts';

/**
 * The collector's diagnostics from a real single-page app (fixtures/rum-spa.ts) in Chromium, through the real
 * ingest process into ClickHouse: the INP row names the third-party script and function behind the slow click
 * and carries its phases, the LCP row its four phases with the late hero's load delay, and each client-side
 * route change is a page view of its own. One browser session, one visit.
 *
 * The visitor's browser sends a desktop Chrome user agent (the ingest drops headless ones as bots), and
 * resolves the customer's domain to the fixture on 127.0.0.1, so the beacons carry the Origin a real
 * customer's pages would; widgets.js comes from localhost, another origin.
 */

const DOMAIN = 'spa.example.test';
/** Event Timing rounds an interaction's duration to 8 ms; each phase is rounded to a whole ms. */
const INP_SUM_TOLERANCE_MS = 8 + 3;
/** Four phases, each rounded to a whole ms. */
const LCP_SUM_TOLERANCE_MS = 4;
/** The busy-wait runs at least its delay (less 1 ms for rounding); a preempted end may add some on a busy machine. */
const SCRIPT_BELOW_MS = 1;
const SCRIPT_ABOVE_MS = 100;

interface Row {
  page_view_id: string;
  metric: string;
  value: number;
  navigation: string;
  path: string;
  attr_target: string;
  phases: number[];
  script_urls: string[];
  script_functions: string[];
  script_invokers: string[];
  script_durations: number[];
}

let pg: IsolatedPostgres;
let ch: IsolatedClickHouse;
let ingest: IngestProcess;
let spa: RumSpaFixture;
let browser: Browser;
let closeBrowser: () => Promise<void>;
let siteId: number;
const spoolDir = mkdtempSync(join(tmpdir(), 'diagnostics-spool-'));

beforeAll(async () => {
  [pg, ch] = await Promise.all([isolatedPostgres(), isolatedClickHouse()]);
  const site = await createSite(pg.knex, { domain: DOMAIN });
  siteId = site.id;
  ingest = await startIngest({
    DATABASE_URL: pg.databaseUrl,
    CLICKHOUSE_DATABASE: ch.database,
    INGEST_SPOOL_DIR: spoolDir,
  });
  spa = await startRumSpaFixture(embedSnippet(collectorScriptUrl(ingest.url), site.publicId));
  ({ browser, close: closeBrowser } = await launchVisitorBrowser(DOMAIN));
}, 120_000);

afterAll(async () => {
  await closeBrowser?.();
  await spa?.close();
  await ingest?.service.stop();
  await ch?.drop();
  await pg?.drop();
  rmSync(spoolDir, { recursive: true, force: true });
});

/** Each (page view, metric id) once, with its latest send's values, as every query reads them. */
function latestRows(): Promise<Row[]> {
  return queryRows<Row>(
    ch.client,
    sql`SELECT page_view_id, metric, value, navigation, path, attr_target, phases, script_urls, script_functions,
          script_invokers, script_durations
        FROM ${ident(ch.database)}.rum_metrics ORDER BY seq DESC LIMIT 1 BY page_view_id, metric_id`,
  );
}

const sum = (values: number[]) => values.reduce((total, v) => total + v, 0);

it('stores the slow click’s third-party script and phases, the LCP phases, and one page view per soft navigation', async () => {
  const page = await browser.newPage();
  const port = new URL(spa.origin).port;
  await useSpa(page, `http://${DOMAIN}:${port}/spa/?from=ad#top`, spa.routes);
  await page.goto(`http://${DOMAIN}:${port}/spa/elsewhere`); // hides the app: the collector sends
  await page.close();

  let rows: Row[] = [];
  await waitUntil(
    'the load and both soft navigations stored',
    async () => {
      rows = await latestRows();
      const views = new Set(rows.map((r) => r.page_view_id));
      return views.size === 3 && rows.some((r) => r.metric === 'LCP' && r.path === spa.routes[1]);
    },
    30_000,
    200,
  );

  const load = rows.filter((r) => r.navigation === 'navigate');
  expect(new Set(load.map((r) => `${r.page_view_id} ${r.path}`))).toEqual(new Set([`${load[0]!.page_view_id} /spa/`]));
  const loadId = load[0]!.page_view_id;

  // INP: the third party's named click handler at the top, as long as it blocks (within the stated tolerance).
  const inp = load.find((r) => r.metric === 'INP')!;
  expect(inp.attr_target).toBe('#slow');
  expect(inp.script_urls[0]).toBe(spa.widgetsUrl);
  expect(inp.script_functions[0]).toBe('handleSlowClick');
  expect(inp.script_invokers[0]).toBe('event-listener');
  expect(inp.script_durations[0]).toBeGreaterThanOrEqual(spa.slowClickMs - SCRIPT_BELOW_MS);
  expect(inp.script_durations[0]).toBeLessThanOrEqual(spa.slowClickMs + SCRIPT_ABOVE_MS);
  expect(inp.script_durations).toEqual([...inp.script_durations].sort((a, b) => b - a));
  // Input delay, processing, presentation: the handler runs in processing; together they make the INP value.
  expect(inp.phases).toHaveLength(3);
  expect(inp.phases[1]).toBeGreaterThanOrEqual(spa.slowClickMs - SCRIPT_BELOW_MS);
  expect(Math.abs(sum(inp.phases) - inp.value)).toBeLessThanOrEqual(INP_SUM_TOLERANCE_MS);

  // LCP: TTFB, load delay, load time, render delay; the hero is requested only after the script inserts it.
  const lcp = load.find((r) => r.metric === 'LCP')!;
  expect(lcp.attr_target).toBe('#hero');
  expect(lcp.phases).toHaveLength(4);
  expect(lcp.phases[1]).toBeGreaterThanOrEqual(spa.heroInsertMs - 1);
  expect(Math.abs(sum(lcp.phases) - lcp.value)).toBeLessThanOrEqual(LCP_SUM_TOLERANCE_MS);

  // Each route change: a page view of its own, derived from the load's id, on its own path.
  const soft = rows.filter((r) => r.navigation === 'soft-navigation');
  const softViews = [...new Set(soft.map((r) => `${r.page_view_id} ${r.path}`))].sort();
  expect(softViews).toEqual([`${loadId}-1 ${spa.routes[0]}`, `${loadId}-2 ${spa.routes[1]}`]);
  for (const route of spa.routes) {
    const metrics = soft.filter((r) => r.path === route).map((r) => r.metric);
    // No TTFB (no document is fetched); FCP and LCP from the click to the new content's paint.
    expect({ route, metrics: metrics.filter((m) => m !== 'INP').sort() }).toEqual({
      route,
      metrics: ['CLS', 'FCP', 'LCP'],
    });
  }
  expect(soft.find((r) => r.metric === 'LCP')!.attr_target).toMatch(/^#view>/);
  // No query string or fragment of the page travelled; the monthly count sees three page views.
  expect(rows.every((r) => !r.path.includes('?') && !r.path.includes('#'))).toBe(true);
  expect(await countMonthPageviews(ch.client, ch.database, siteId, new Date().toISOString().slice(0, 7))).toBe(3);
}, 120_000);
