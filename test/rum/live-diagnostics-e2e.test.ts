import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'puppeteer-core';
import { lcpPageAnchor } from '../../core/rum/anchors.ts';
import { startRumSpaFixture, type RumSpaFixture } from '../../fixtures/rum-spa.ts';
import { waitUntil } from '../../stack/proc.ts';
import { call, createTestUser, startTestApi, type TestApi } from '../harness/api.ts';
import { freePort, isolatedClickHouse, type IsolatedClickHouse } from '../harness/isolated.ts';
import { useSpa } from '../../fixtures/rum-page.ts';
import { launchVisitorBrowser } from '../harness/browser.ts';
import { insertFinishedScan } from '../harness/scans.ts';
import { WebClient } from '../harness/web.ts';
import { startIngest, type IngestProcess } from '../ingest/support.ts';
import { cleanObservation, formFactor } from '../unit/observation-builder.ts';

/**
 * Live-data diagnostics end to end, every part real: a site created through the API, its snippet in a
 * single-page app (fixtures/rum-spa.ts: a late hero image, a third party's 300 ms click handler, two client-side
 * route changes) visited in Chromium with a visitor's user agent, the ingest process, ClickHouse, and the API's
 * culprits, LCP phases and navigation types read back. Then the lab side: a finished scan of the app's page
 * whose findings name the same script and whose LCP element is the field's, and the links both ways between
 * the scan report and the live-data dashboard.
 *
 * The lab scan's result is built from an observation (as report tests do): the scan runner resolves host
 * names through DNS, which cannot name this test's customer domain; the link rules read only the stored result.
 */

const DOMAIN = 'spa.example.test';
const PASSWORD = 'a-long-password-1';
/** The INP of the slow click: at least the handler's busy-wait, at most 200 ms more (input delay and paint on a busy machine). */
const INP_ABOVE_HANDLER_MS = 200;

let ch: IsolatedClickHouse;
let api: TestApi;
let ingest: IngestProcess;
let spa: RumSpaFixture;
let browser: Browser;
let closeBrowser: () => Promise<void>;
let token: string;
let userId: number;
let email: string;
let siteId: number;
let snippet = '';
const spoolDir = mkdtempSync(join(tmpdir(), 'diagnostics-e2e-spool-'));

beforeAll(async () => {
  ch = await isolatedClickHouse();
  const ingestPort = await freePort();
  api = await startTestApi({ env: { CLICKHOUSE_DATABASE: ch.database, INGEST_URL: `http://127.0.0.1:${ingestPort}` } });
  ingest = await startIngest({
    DATABASE_URL: api.db.databaseUrl,
    CLICKHOUSE_DATABASE: ch.database,
    INGEST_PORT: String(ingestPort),
    INGEST_SPOOL_DIR: spoolDir,
  });
  const created = await createTestUser(api, 'pro', PASSWORD);
  ({ token } = created);
  userId = created.user.id;
  email = created.user.email;
  const site = await call(api, '/rum/sites', { token, method: 'POST', body: { domain: DOMAIN } });
  expect(site.status).toBe(201);
  siteId = (site.body.data as { id: number }).id;
  snippet = (site.body.data as { embed_snippet: string }).embed_snippet;
  spa = await startRumSpaFixture(() => snippet);
  ({ browser, close: closeBrowser } = await launchVisitorBrowser(DOMAIN));
}, 120_000);

afterAll(async () => {
  await closeBrowser?.();
  await spa?.close();
  await ingest?.service.stop();
  await api?.close();
  await ch?.drop();
  rmSync(spoolDir, { recursive: true, force: true });
});

const appUrl = (path: string) => `http://${DOMAIN}:${new URL(spa.origin).port}${path}`;

/** The API's clock stands still unless set: reads happen now, after the beacons. */
function get(path: string) {
  api.clock.set(new Date());
  return call(api, path, { token });
}

interface Culprits {
  slow_interactions: number;
  culprits: Array<{
    kind: string;
    culprit: string;
    scripts: string[];
    function: string;
    invoker: string;
    share: number;
    slow_interactions: number;
    inp_p75: number;
  }>;
}

interface LcpPhases {
  pages: Array<{
    path: string;
    p75: number;
    attribution: { target: string | null } | null;
    phases: Record<string, number | null>;
  }>;
}

it('names the third-party script behind slow clicks, the LCP phases per page and each route change as a page view', async () => {
  const page = await browser.newPage();
  await useSpa(page, appUrl('/spa/?from=ad'), spa.routes);
  await page.goto(appUrl('/spa/elsewhere')); // hides the app: the collector sends
  await page.close();

  let culprits: Culprits | undefined;
  await waitUntil(
    'the slow click in the culprits',
    async () => {
      const res = await get(`/rum/sites/${siteId}/inp-culprits?period=24h`);
      culprits = res.body.data as Culprits;
      return res.status === 200 && culprits.slow_interactions > 0;
    },
    30_000,
    250,
  );
  // The script from the second origin (localhost: no entity third-party-web knows, so grouped by its host).
  const top = culprits!.culprits[0]!;
  expect(top).toMatchObject({ kind: 'third-party', culprit: 'localhost', function: 'handleSlowClick' });
  expect(top.scripts).toEqual([spa.widgetsUrl]);
  expect(top.invoker).toBe('event-listener');
  expect(top.share).toBe(1);
  expect(top.inp_p75).toBeGreaterThanOrEqual(spa.slowClickMs);
  expect(top.inp_p75).toBeLessThanOrEqual(spa.slowClickMs + INP_ABOVE_HANDLER_MS);

  // The first page's LCP phases: the hero is requested only when the script inserts it.
  const phases = (await get(`/rum/sites/${siteId}/lcp-phases?period=24h`)).body.data as LcpPhases;
  const first = phases.pages.find((p) => p.path === '/spa/')!;
  expect(first.attribution?.target).toBe('#hero');
  expect(first.phases.delay).toBeGreaterThanOrEqual(spa.heroInsertMs - 1);
  for (const phase of ['ttfb', 'load', 'render']) expect(first.phases[phase]).toEqual(expect.any(Number));

  // One hard load and two soft page views, each on its own path.
  let navigation: Array<{ type: string; page_views: number }> = [];
  await waitUntil(
    'three page views',
    async () => {
      navigation = (
        (await get(`/rum/sites/${siteId}/summary?period=24h`)).body.data as { navigation: typeof navigation }
      ).navigation;
      return navigation.reduce((sum, n) => sum + n.page_views, 0) === 3;
    },
    15_000,
    250,
  );
  expect(navigation).toEqual([
    { type: 'soft-navigation', page_views: 2 },
    { type: 'navigate', page_views: 1 },
  ]);
  const pages = (await get(`/rum/sites/${siteId}/pages?metric=LCP&period=24h`)).body.data as Array<{ path: string }>;
  expect(pages.map((p) => p.path).sort()).toEqual(['/spa/', ...spa.routes].sort());

  // The extensions are in the OpenAPI document.
  const openapi = (await call(api, '/openapi.json', {})).body as { paths: Record<string, { get: object }> };
  for (const path of ['/rum/sites/{id}/inp-culprits', '/rum/sites/{id}/lcp-phases'])
    expect(openapi.paths[path]?.get).toMatchObject({ 'x-extension': true });

  // The lab: the owner's finished scan of the app's page, Lighthouse naming widgets.js (bootup-time behind a
  // high TBT) and the hero as the LCP element.
  const scanId = await finishedLabScan(appUrl('/spa/'));
  const web = new WebClient(api.url, api.config.baseUrl);
  expect((await web.signIn(email, PASSWORD)).status).toBe(303);

  const report = await web.get(`/reports/${scanId}`);
  expect(report.status).toBe(200);
  const dashboard = `/live/${siteId}?period=30d`;
  expect(report.text).toContain('id="field-agreement"');
  expect(report.text).toContain(`href="${dashboard}#culprit-localhost"`);
  expect(report.text).toContain(`href="${dashboard}#${lcpPageAnchor('/spa/')}"`);
  expect(report.text).toMatch(/id="finding-speed-tbt-high"/);

  const live = await web.get(`/live/${siteId}`);
  expect(live.status).toBe(200);
  const culpritRow = /<tr id="culprit-localhost"[\s\S]*?<\/tr>/.exec(live.text)?.[0] ?? '';
  expect(culpritRow).toContain(`href="/reports/${scanId}#finding-speed-tbt-high"`);
  const lcpRow = new RegExp(`<tr id="${lcpPageAnchor('/spa/')}"[\\s\\S]*?</tr>`).exec(live.text)?.[0] ?? '';
  expect(lcpRow).toContain(`href="/reports/${scanId}#diagnostics"`);
}, 120_000);

/** A finished scan of `url` by the site's owner, as the worker stores it (scored from the observation). */
async function finishedLabScan(url: string): Promise<string> {
  const bootup = {
    score: 0.2,
    numericValue: 400,
    items: [],
    checklist: {},
    evidence: { items: [{ url: `${spa.widgetsUrl}?v=2`, main_thread_ms: 350 }], savings: { ms: 350, bytes: null } },
  };
  const diagnostics = {
    lcp: { element: { selector: 'body > img#hero', snippet: '<img id="hero">', label: '', box: null }, phases: null },
    layout_shifts: [],
    render_blocking: [],
    third_parties: [{ entity: 'localhost', recognized: false, transfer_bytes: 300, main_thread_ms: 350 }],
    main_thread: [],
  };
  const slow = formFactor({
    metrics: { fcpMs: 800, lcpMs: 1200, cls: 0.01, tbtMs: 900, speedIndexMs: 900, interactiveMs: 1300 },
    audits: { 'bootup-time': bootup },
    diagnostics,
  });
  const observation = cleanObservation({ requestedUrl: url, finalUrl: url, desktop: slow, mobile: slow });
  return (await insertFinishedScan(api, userId, url, { observation })).publicId;
}
