import { formatMs } from '../../core/i18n/locale.ts';
import type { PlanKey } from '../../core/plans.ts';
import { rate, type Device, type RumMetric } from '../../core/rum/metrics.ts';
import { FIELD_DAYS, rollingDaysWindow } from '../../core/rum/periods.ts';
import { rumQueries } from '../../db/clickhouse/rum-queries.ts';
import { createStorage } from '../../db/store/index.ts';
import { setSharing } from '../../services/scans.ts';
import { call, createTestUser, startTestApi, type TestApi } from '../harness/api.ts';
import { insertFinishedScan } from '../harness/scans.ts';
import { freePort, isolatedClickHouse, type IsolatedClickHouse } from '../harness/isolated.ts';
import { WebClient } from '../harness/web.ts';
import { insertMetrics, nearestRank, seeded, type MetricRow } from '../rum/rum-data.ts';

/**
 * The report's "lab and field" part against the real API process, Postgres and ClickHouse (rows written
 * straight into rum_metrics, as the ingest leaves them): the owner's p75 of LCP, INP and CLS over the last
 * 28 days, of the scanned page or, with fewer than 20 page views, of the whole site, agree with an
 * independent nearest-rank computation over the same rows, with the live-data query module and with the
 * live-data API; the page views and the link are there; the host is matched as core/url.ts normalises it;
 * another account's site of the same host is never used; share pages, other viewers, plans without live
 * data and hosts without a site get no part; ClickHouse away leaves the report a 200 with a note.
 */
let api: TestApi;
let clickhouse: IsolatedClickHouse;
const PASSWORD = 'a-long-password-1';
const DAY = 86_400_000;
const METRICS = ['LCP', 'INP', 'CLS'] as const;
const DEVICES: Device[] = ['desktop', 'mobile', 'tablet'];

beforeAll(async () => {
  clickhouse = await isolatedClickHouse();
  api = await startTestApi({ env: { CLICKHOUSE_DATABASE: clickhouse.database } });
}, 60_000);

afterAll(async () => {
  await api?.close();
  await clickhouse?.drop();
});

const storage = () => createStorage(api.db.knex);
const ago = (ms: number) => new Date(api.clock.read().getTime() - ms);
let pageViews = 0;
let sites = 0;

async function signedIn(plan: PlanKey, target: TestApi = api, locale?: string) {
  const { user, token } = await createTestUser(target, plan, PASSWORD);
  const client = new WebClient(target.url, target.config.baseUrl, locale ? { 'accept-language': locale } : {});
  expect((await client.signIn(user.email, PASSWORD)).status).toBe(303);
  return { user, token, client };
}

async function siteFor(userId: number, domain: string, target: TestApi = api) {
  sites += 1;
  return createStorage(target.db.knex).rumSites.insert({
    userId,
    publicId: `fieldsite${String(sites).padStart(11, '0')}`,
    domain,
    sampleRate: 100,
    createdAt: target.clock.read(),
  });
}

/** A finished scan of `url`, as the worker leaves it. */
const finishedScan = (userId: number, url: string, options: { isPublic?: boolean; target?: TestApi } = {}) =>
  insertFinishedScan(options.target ?? api, userId, url, options);

interface View {
  path: string;
  at: Date;
  values: Partial<Record<RumMetric, number>>;
}

/** Page views on one site, each metric a row of its own; one LCP is sent twice (seq 2 wins, as in every query). */
function rowsOf(site: number, views: View[]): MetricRow[] {
  return views.flatMap((view, i) => {
    const pageView = `fieldpv${++pageViews}`;
    return Object.entries(view.values).flatMap(([metric, value]) => {
      const row: MetricRow = {
        site,
        at: view.at,
        metric: metric as RumMetric,
        value: value!,
        pageView,
        path: view.path,
        device: DEVICES[i % DEVICES.length],
      };
      if (metric === 'LCP' && i === 0)
        return [
          { ...row, value: 99_000 },
          { ...row, seq: 2 },
        ];
      return [row];
    });
  });
}

/** `count` page views of `path` within the last 20 days, values from a seeded generator; INP in two of three. */
function views(path: string, count: number, seed: number): View[] {
  const next = seeded(seed);
  return Array.from({ length: count }, (_, i) => ({
    path,
    at: ago(Math.floor(next() * 20 * DAY) + 60_000),
    values: {
      LCP: Math.round(800 + next() * 5000),
      CLS: Math.round(next() * 4000) / 10_000,
      ...(i % 3 === 2 ? {} : { INP: Math.round(40 + next() * 700) }),
    },
  }));
}

const expectedOf = (list: View[]) =>
  Object.fromEntries(
    METRICS.map((metric) => {
      const values = list.flatMap((view) => (view.values[metric] === undefined ? [] : [view.values[metric]!]));
      return [metric, { p75: values.length ? nearestRank(values, 0.75) : null, samples: values.length }];
    }),
  );

/** The part's numbers as the page states them (data attributes beside the words). */
function field(page: string) {
  const section = /<section id="field"[^>]*data-state="([^"]+)" data-site-id="(\d+)"/.exec(page);
  if (!section) return null;
  const scope = /id="field-scope" data-scope="(\w+)" data-page-views="(\d+)"/.exec(page);
  const metrics = Object.fromEntries(
    [...page.matchAll(/<tr data-metric="(\w+)" data-p75="([^"]*)" data-samples="(\d+)"/g)].map((m) => [
      m[1],
      { p75: m[2] === '' ? null : Number(m[2]), samples: Number(m[3]) },
    ]),
  );
  const link = /<a id="field-link" href="([^"]+)"/.exec(page)?.[1];
  return {
    state: section[1],
    siteId: Number(section[2]),
    scope: scope?.[1],
    pageViews: scope ? Number(scope[2]) : undefined,
    metrics,
    link,
  };
}

describe('the owner with a live-data site for the host', () => {
  let owner: Awaited<ReturnType<typeof signedIn>>;
  let site: Awaited<ReturnType<typeof siteFor>>;
  // Made once the app (and its clock) is up.
  let shop: View[];
  let home: View[];
  let few: View[];

  beforeAll(async () => {
    shop = views('/shop', 24, 7);
    home = views('/', 10, 8);
    few = views('/few', 3, 9);
    owner = await signedIn('starter');
    site = await siteFor(owner.user.id, 'field.example');
    // Rows older than the window, on the same pages: they must not count.
    const old = [...views('/shop', 5, 10), ...views('/few', 30, 11)].map((view) => ({
      ...view,
      at: ago(31 * DAY + 3_600_000),
      values: { LCP: 50_000, CLS: 3, INP: 9_000 },
    }));
    await insertMetrics(clickhouse.client, clickhouse.database, rowsOf(site.id, [...shop, ...home, ...few, ...old]));
  });

  it("shows the page's p75, page views and the link, equal to an independent count and to the live-data queries", async () => {
    const scan = await finishedScan(owner.user.id, 'https://field.example/shop?utm_source=mail#top');
    const page = await owner.client.get(`/reports/${scan.publicId}`);
    expect(page.status).toBe(200);
    const shown = field(page.text)!;
    expect(shown).toMatchObject({
      state: 'measured',
      siteId: site.id,
      scope: 'page',
      pageViews: 24,
      link: `/live/${site.id}?period=30d`,
    });
    expect(shown.metrics).toEqual(expectedOf(shop));
    // The same module the API and dashboard ask, over the same window.
    const queries = rumQueries({ client: clickhouse.client, database: clickhouse.database });
    const summary = await queries.summary(site.id, rollingDaysWindow(FIELD_DAYS, api.clock.read()), 'all', '/shop');
    for (const metric of METRICS)
      expect([metric, shown.metrics[metric]]).toEqual([
        metric,
        { p75: summary[metric].p75, samples: summary[metric].samples },
      ]);
    // Words: the page and its page views; each value rated by the Core Web Vitals thresholds; the lab beside it.
    expect(page.text).toContain('Field data of this page (/shop): 24 page views measured.');
    const lcp = shown.metrics.LCP!.p75!;
    expect(page.text).toMatch(
      new RegExp(
        `<td data-field="page" data-label="Field, p75 \\(this page\\)"><span class="field-value rating-${rate('LCP', lcp)}" data-rating="${rate('LCP', lcp)}">${formatMs(lcp, 'en')}</span>`,
      ),
    );
    const lab = scan.result!.metrics.desktop.lcp_ms;
    expect(page.text).toContain(
      `<td data-lab="desktop" data-label="Lab, desktop"><span class="field-value rating-${rate('LCP', lab)}" data-rating="${rate('LCP', lab)}">${formatMs(lab, 'en')}</span>`,
    );
    expect(page.text).toContain('good ≤ 2.5 s, poor &gt; 4 s');
  });

  it("falls back to the whole site's numbers when the page has too few page views, and says so; they equal the live-data API's", async () => {
    const scan = await finishedScan(owner.user.id, 'https://FIELD.example:443/few');
    const page = await owner.client.get(`/reports/${scan.publicId}`);
    expect(page.status).toBe(200);
    const shown = field(page.text)!;
    const all = [...shop, ...home, ...few];
    expect(shown).toMatchObject({ state: 'measured', scope: 'site', pageViews: all.length });
    expect(shown.metrics).toEqual(expectedOf(all));
    expect(page.text).toContain(
      `This page (/few) had fewer than 20 page views measured, so the field data is of the whole site field.example: ${all.length} page views measured.`,
    );
    // Every row in the window is younger than 30 days and every older one older than 31: the API's 30-day summary has the same rows.
    const res = await call(api, `/rum/sites/${site.id}/summary?period=30d`, { token: owner.token });
    expect(res.status).toBe(200);
    const metrics = (res.body.data as { metrics: Record<string, { p75: number | null; samples: number }> }).metrics;
    for (const metric of METRICS)
      expect([metric, shown.metrics[metric]]).toEqual([
        metric,
        { p75: metrics[metric]!.p75, samples: metrics[metric]!.samples },
      ]);
  });

  it('matches the host as core/url.ts normalises it: a port is not part of it, www. is another host', async () => {
    const withPort = await finishedScan(owner.user.id, 'https://field.example:8443/shop');
    expect(field((await owner.client.get(`/reports/${withPort.publicId}`)).text)).toMatchObject({
      siteId: site.id,
      scope: 'page',
      pageViews: 24,
    });
    const www = await finishedScan(owner.user.id, 'https://www.field.example/shop');
    const page = await owner.client.get(`/reports/${www.publicId}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('id="metrics"');
    expect(field(page.text)).toBeNull();
  });

  it('is not on the share page, nor for anyone else who sees a public report', async () => {
    const scan = await finishedScan(owner.user.id, 'https://field.example/shop', { isPublic: true });
    expect(field((await owner.client.get(`/reports/${scan.publicId}`)).text)).toMatchObject({ scope: 'page' });

    const shared = await setSharing(storage().scans, scan, true);
    const sharePage = await new WebClient(api.url, api.config.baseUrl).get(`/share/${shared.shareToken}`);
    expect(sharePage.status).toBe(200);
    expect(sharePage.text).toContain('id="metrics"');
    expect(field(sharePage.text)).toBeNull();
    // Even with the owner signed in: a share page is for anyone.
    expect(field((await owner.client.get(`/share/${shared.shareToken}`)).text)).toBeNull();

    const visitor = await new WebClient(api.url, api.config.baseUrl).get(`/reports/${scan.publicId}`);
    expect(visitor.status).toBe(200);
    expect(field(visitor.text)).toBeNull();
    const { client: stranger } = await signedIn('pro');
    const strangers = await stranger.get(`/reports/${scan.publicId}`);
    expect(strangers.status).toBe(200);
    expect(field(strangers.text)).toBeNull();
  });

  it("never shows another account's site of the same host; each account sees its own", async () => {
    const other = await signedIn('pro');
    const otherSite = await siteFor(other.user.id, 'field.example');
    const theirs = views('/shop', 21, 12).map((view) => ({ ...view, values: { LCP: 7777, CLS: 0.5, INP: 999 } }));
    await insertMetrics(clickhouse.client, clickhouse.database, rowsOf(otherSite.id, theirs));

    const ownScan = await finishedScan(owner.user.id, 'https://field.example/shop');
    const own = field((await owner.client.get(`/reports/${ownScan.publicId}`)).text)!;
    expect(own).toMatchObject({ siteId: site.id, pageViews: 24 });
    expect(own.metrics).toEqual(expectedOf(shop));

    const otherScan = await finishedScan(other.user.id, 'https://field.example/shop');
    const seen = field((await other.client.get(`/reports/${otherScan.publicId}`)).text)!;
    expect(seen).toMatchObject({ siteId: otherSite.id, scope: 'page', pageViews: 21 });
    expect(seen.metrics.LCP).toEqual({ p75: 7777, samples: 21 });

    // An account without a site for the host sees no part, although two accounts have one.
    const third = await signedIn('pro');
    const thirdScan = await finishedScan(third.user.id, 'https://field.example/shop');
    const page = await third.client.get(`/reports/${thirdScan.publicId}`);
    expect(page.status).toBe(200);
    expect(field(page.text)).toBeNull();
    expect(page.text).not.toContain(`/live/${site.id}`);
    expect(page.text).not.toContain(`/live/${otherSite.id}`);
  });
});

describe('windows, empty sites, plans and words', () => {
  it('counts only the last 28 days', async () => {
    const { user, client } = await signedIn('starter');
    const site = await siteFor(user.id, 'window.example');
    const inside = Array.from({ length: 20 }, (_, i) => ({
      path: '/',
      at: ago(FIELD_DAYS * DAY - 60_000),
      values: { LCP: 1000 + i * 10, CLS: 0.01, INP: 100 },
    }));
    const outside = Array.from({ length: 20 }, () => ({
      path: '/',
      at: ago(FIELD_DAYS * DAY + 60_000),
      values: { LCP: 9000, CLS: 0.9, INP: 900 },
    }));
    await insertMetrics(clickhouse.client, clickhouse.database, rowsOf(site.id, [...inside, ...outside]));
    const scan = await finishedScan(user.id, 'https://window.example/');
    const shown = field((await client.get(`/reports/${scan.publicId}`)).text)!;
    expect(shown).toMatchObject({ scope: 'page', pageViews: 20 });
    expect(shown.metrics).toEqual(expectedOf(inside));
  });

  it('a site without page views: a note and the link, no table', async () => {
    const { user, client } = await signedIn('starter');
    const site = await siteFor(user.id, 'empty.example');
    const scan = await finishedScan(user.id, 'https://empty.example/');
    const page = await client.get(`/reports/${scan.publicId}`);
    expect(page.status).toBe(200);
    expect(field(page.text)).toMatchObject({ state: 'no-data', siteId: site.id, link: `/live/${site.id}?period=30d` });
    expect(page.text).not.toContain('id="field-metrics"');
    expect(page.text).toContain('measured no page views in the last 28 days');
  });

  it('no site for the host, or a plan without live data: no part', async () => {
    const { user, client } = await signedIn('starter');
    await siteFor(user.id, 'elsewhere.example');
    const scan = await finishedScan(user.id, 'https://nosite.example/');
    const page = await client.get(`/reports/${scan.publicId}`);
    expect(page.status).toBe(200);
    expect(field(page.text)).toBeNull();

    // A site left from a paid plan, with data, after moving to Free.
    const free = await signedIn('free');
    const site = await siteFor(free.user.id, 'downgraded.example');
    await insertMetrics(clickhouse.client, clickhouse.database, rowsOf(site.id, views('/', 25, 13)));
    const freeScan = await finishedScan(free.user.id, 'https://downgraded.example/');
    const freePage = await free.client.get(`/reports/${freeScan.publicId}`);
    expect(freePage.status).toBe(200);
    expect(field(freePage.text)).toBeNull();
  });

  it('in German', async () => {
    const { user, client } = await signedIn('starter', api, 'de');
    const site = await siteFor(user.id, 'deutsch.example');
    await insertMetrics(clickhouse.client, clickhouse.database, rowsOf(site.id, views('/', 3, 14)));
    const scan = await finishedScan(user.id, 'https://deutsch.example/seite');
    const page = await client.get(`/reports/${scan.publicId}`);
    expect(field(page.text)).toMatchObject({ scope: 'site', pageViews: 3 });
    expect(page.text).toContain('<h2 id="field-heading">Labor und Feld</h2>');
    expect(page.text).toContain(
      'Für diese Seite (/seite) wurden weniger als 20 Seitenaufrufe gemessen, daher sind die Felddaten die der ganzen Website deutsch.example: 3 Seitenaufrufe gemessen.',
    );
    expect(page.text).toContain('Live-Daten von deutsch.example öffnen');
  });
});

describe('with ClickHouse away', () => {
  it('the report is still a 200, with a note where the field data would be', async () => {
    const away = await startTestApi({ env: { CLICKHOUSE_URL: `http://127.0.0.1:${await freePort()}` } });
    try {
      const { user, client } = await signedIn('starter', away);
      const site = await siteFor(user.id, 'away.example', away);
      const scan = await finishedScan(user.id, 'https://away.example/', { target: away });
      const page = await client.get(`/reports/${scan.publicId}`);
      expect(page.status).toBe(200);
      expect(page.text).toContain('id="metrics"');
      expect(page.text).toContain('id="findings"');
      expect(field(page.text)).toMatchObject({ state: 'unavailable', siteId: site.id });
      expect(page.text).toContain('The live data cannot be read just now');
    } finally {
      await away.close();
    }
  });
});
