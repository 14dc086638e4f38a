import { PLANS } from '../../core/plans.ts';
import { RUM_METRICS } from '../../core/rum/metrics.ts';
import { call, createTestUser, startTestApi, TestClock, type TestApi } from '../harness/api.ts';
import { openApiContract } from '../harness/contract.ts';
import { isolatedClickHouse, type IsolatedClickHouse } from '../harness/isolated.ts';
import { insertMetrics, insertRejections, nearestRank, seeded, type MetricRow } from './rum-data.ts';

/**
 * The live-data sites API and its p75 queries against the real app, Postgres and ClickHouse. Measurements
 * are inserted into rum_metrics directly (every column), as the ingest service writes them.
 */
const NOW = new Date('2026-11-18T12:00:00Z');
const ago = (ms: number) => new Date(NOW.getTime() - ms);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

let api: TestApi;
let ch: IsolatedClickHouse;
let conforms: Awaited<ReturnType<typeof openApiContract>>;
let token: string;
let pageViewCounter = 0;

beforeAll(async () => {
  ch = await isolatedClickHouse();
  api = await startTestApi({ clock: new TestClock(NOW), env: { CLICKHOUSE_DATABASE: ch.database } });
  conforms = await openApiContract(api);
  ({ token } = await createTestUser(api, 'agency'));
});

afterAll(async () => {
  await api?.close();
  await ch?.drop();
});

type Site = {
  id: number;
  domain: string;
  active: boolean;
  embed_snippet: string;
  pageviews_this_month: number | null;
  monthly_limit: number;
  created_at: string;
};
type Summary = {
  domain: string;
  period: string;
  device: string;
  cwv_pass: boolean | null;
  cwv_insufficient_data: boolean;
  metrics: Record<string, { p75: number | null; rating: string | null; samples: number }>;
};

async function newSite(domain: string, body: Record<string, unknown> = {}, as = token): Promise<Site> {
  const res = await call(api, '/rum/sites', { token: as, method: 'POST', body: { domain, ...body } });
  if (res.status !== 201) throw new Error(`POST /rum/sites answered ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data as Site;
}

const get = (path: string, as = token) => call(api, path, { token: as });
const insert = (rows: MetricRow[]) => insertMetrics(ch.client, ch.database, rows);
const pv = () => `pv${++pageViewCounter}`;

/** One page view per value, all at `at`. */
function values(
  site: number,
  metric: MetricRow['metric'],
  list: number[],
  extra: Partial<MetricRow> = {},
): MetricRow[] {
  return list.map((value) => ({ site, metric, value, at: ago(HOUR), pageView: pv(), ...extra }));
}

async function summary(site: number, query = ''): Promise<Summary> {
  const res = await get(`/rum/sites/${site}/summary${query}`);
  expect(res.status).toBe(200);
  expect(conforms('get', '/rum/sites/{id}/summary', res)).toEqual([]);
  return res.body.data as Summary;
}

describe('sites', () => {
  it('are created from a host name or URL (lower-case, punycode, host only) with the spec fields and the snippet', async () => {
    const res = await call(api, '/rum/sites', {
      token,
      method: 'POST',
      body: { domain: 'https://WWW.Bücher.Example:8443/shop?x=1', sample_rate: 40 },
    });
    expect(res.status).toBe(201);
    expect(conforms('post', '/rum/sites', res)).toEqual([]);
    const site = res.body.data as Site & {
      public_id: string;
      sample_rate: number;
      alert_count: number;
      rejected_this_month: Record<string, number>;
    };
    expect(site.domain).toBe('www.xn--bcher-kva.example');
    expect(site.sample_rate).toBe(40);
    expect(site.active).toBe(true);
    expect(site.public_id).toMatch(/^[0-9a-hjkmnp-tv-z]{20}$/);
    expect(site.embed_snippet).toBe(
      `<script src="${api.config.ingest.publicUrl}/c/1/rum.js" data-site-id="${site.public_id}" data-sample="40" async></script>`,
    );
    expect(site.monthly_limit).toBe(PLANS.agency.rumMonthlyPageviews);
    expect(site).toMatchObject({ pageviews_this_month: 0, alert_count: 0, rejected_this_month: {} });
  });

  it('refuse IP addresses, localhost, invalid names and a domain already added, each with 422 on domain', async () => {
    await newSite('dup.example');
    for (const domain of [
      '192.0.2.1',
      'http://[::1]/',
      'localhost',
      'app.localhost',
      'intranet',
      'ex_ample.com',
      'a..b.example',
      'ftp://files.example',
      'DUP.example.',
      'https://dup.example/other',
    ]) {
      const res = await call(api, '/rum/sites', { token, method: 'POST', body: { domain } });
      expect([domain, res.status, Object.keys((res.body.errors as object) ?? {})]).toEqual([domain, 422, ['domain']]);
    }
    for (const sample_rate of [0, 101, 5.5, '50']) {
      const res = await call(api, '/rum/sites', {
        token,
        method: 'POST',
        body: { domain: 'rate.example', sample_rate },
      });
      expect([sample_rate, res.status, Object.keys((res.body.errors as object) ?? {})]).toEqual([
        sample_rate,
        422,
        ['sample_rate'],
      ]);
    }
  });

  it('are changed (active, sample_rate) and deleted; other users’ sites are 404 for every endpoint', async () => {
    const site = await newSite('change.example');
    const patched = await call(api, `/rum/sites/${site.id}`, {
      token,
      method: 'PATCH',
      body: { active: false, sample_rate: 10 },
    });
    expect(patched.status).toBe(200);
    expect(conforms('patch', '/rum/sites/{id}', patched)).toEqual([]);
    expect(patched.body.data).toMatchObject({ active: false, sample_rate: 10 });
    expect(
      (await call(api, `/rum/sites/${site.id}`, { token, method: 'PATCH', body: { sample_rate: 0 } })).status,
    ).toBe(422);

    const other = await createTestUser(api, 'pro');
    for (const path of ['', '/summary', '/history?metric=LCP', '/pages']) {
      expect([path, (await get(`/rum/sites/${site.id}${path}`, other.token)).status]).toEqual([path, 404]);
    }
    expect(
      (await call(api, `/rum/sites/${site.id}`, { token: other.token, method: 'PATCH', body: { active: true } }))
        .status,
    ).toBe(404);
    expect((await call(api, `/rum/sites/${site.id}`, { token: other.token, method: 'DELETE' })).status).toBe(404);
    for (const id of ['999999', 'abc', '0', '99999999999999999999'])
      expect([id, (await get(`/rum/sites/${id}`)).status]).toEqual([id, 404]);

    const removed = await fetch(`${api.url}/api/v1/rum/sites/${site.id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(removed.status).toBe(204);
    expect((await get(`/rum/sites/${site.id}`)).status).toBe(404);
  });

  it('are limited by the plan (403 naming the plan that keeps more) and need Starter or higher', async () => {
    const starter = await createTestUser(api, 'starter');
    for (let i = 0; i < PLANS.starter.maxRumSites; i++) await newSite(`s${i}.starter.example`, {}, starter.token);
    const refused = await call(api, '/rum/sites', {
      token: starter.token,
      method: 'POST',
      body: { domain: 'one-more.example' },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.required_plan).toBe('pro');

    const free = await createTestUser(api, 'free');
    for (const path of ['/rum/sites', '/rum/sites/1/summary']) {
      const res = await get(path, free.token);
      expect(res.status).toBe(403);
      expect(res.body.required_plan).toBe('starter');
    }
  });

  it('list paginated (max 50, default 20) with pageviews_this_month scaled by each page view’s sample rate, this UTC month only', async () => {
    const user = await createTestUser(api, 'agency');
    const sites: Site[] = [];
    for (let i = 0; i < 3; i++) sites.push(await newSite(`list${i}.example`, {}, user.token));
    const [a, b] = sites as [Site, Site];
    const rows: MetricRow[] = [];
    // Site a: 3 page views at 100 % and 2 at 25 % (each counts 4) = 11; a page view with three metrics counts once.
    for (const rate of [100, 100, 100, 25, 25]) {
      const pageView = pv();
      for (const metric of ['LCP', 'FCP', 'TTFB'] as const)
        rows.push({ site: a.id, metric, value: 500, at: ago(HOUR), pageView, sampleRate: rate });
    }
    // A resend of a page view (seq 2) is the same page view.
    rows.push({
      site: a.id,
      metric: 'LCP',
      value: 700,
      at: ago(HOUR),
      pageView: rows[0]!.pageView,
      seq: 2,
      sampleRate: 100,
    });
    // Last month does not count (NOW is the 18th).
    rows.push({ site: a.id, metric: 'LCP', value: 500, at: ago(20 * DAY), pageView: pv() });
    rows.push({ site: b.id, metric: 'LCP', value: 500, at: ago(HOUR), pageView: pv(), sampleRate: 10 });
    await insert(rows);
    await insertRejections(ch.client, ch.database, [
      { site: a.id, day: '2026-11-03', reason: 'monthly_limit', beacons: 5 },
      { site: a.id, day: '2026-11-04', reason: 'monthly_limit', beacons: 2 },
      { site: a.id, day: '2026-11-04', reason: 'origin', beacons: 1 },
      { site: a.id, day: '2026-10-31', reason: 'origin', beacons: 9 },
    ]);

    const res = await get('/rum/sites', user.token);
    expect(res.status).toBe(200);
    expect(conforms('get', '/rum/sites', res)).toEqual([]);
    expect((res.body.data as Site[]).map((s) => [s.domain, s.pageviews_this_month])).toEqual([
      ['list0.example', 11],
      ['list1.example', 10],
      ['list2.example', 0],
    ]);
    expect(res.body.meta).toEqual({ current_page: 1, per_page: 20, total: 3, last_page: 1 });
    const paged = await get('/rum/sites?limit=2&page=2', user.token);
    expect((paged.body.data as Site[]).map((s) => s.domain)).toEqual(['list2.example']);
    expect(paged.body.meta).toEqual({ current_page: 2, per_page: 2, total: 3, last_page: 2 });
    for (const query of ['limit=51', 'limit=0', 'page=0', 'limit=x'])
      expect([query, (await get(`/rum/sites?${query}`, user.token)).status]).toEqual([query, 422]);

    await api.db.knex('rum_alerts').insert(
      [1, 2].map((n) => ({
        site_id: a.id,
        title: `t${n}`,
        mode: 'auto',
        window_minutes: 60,
        min_samples: 10,
        consecutive_threshold: 2,
        created_at: NOW,
        updated_at: NOW,
      })),
    );
    const detail = await get(`/rum/sites/${a.id}`, user.token);
    expect(conforms('get', '/rum/sites/{id}', detail)).toEqual([]);
    expect(detail.body.data).toMatchObject({
      pageviews_this_month: 11,
      alert_count: 2,
      sample_rate: 100,
      rejected_this_month: { monthly_limit: 7, origin: 1 },
    });
  });
});

describe('summary', () => {
  it('p75 per metric equals an independent nearest-rank computation on the same data; samples; period windows', async () => {
    const site = await newSite('summary.example');
    const random = seeded(7);
    const lcp = Array.from({ length: 37 }, () => 300 + Math.floor(random() * 5000));
    const cls = Array.from({ length: 23 }, () => Math.floor(random() * 4000) / 10_000);
    const inp = Array.from({ length: 41 }, () => 20 + Math.floor(random() * 700));
    const rows = [...values(site.id, 'LCP', lcp), ...values(site.id, 'CLS', cls), ...values(site.id, 'INP', inp)];
    // Outside the 24h window but inside 7d, and outside 7d but inside 30d.
    rows.push(
      ...values(site.id, 'LCP', [90_000], { at: ago(25 * HOUR) }),
      ...values(site.id, 'LCP', [80_000, 80_001], { at: ago(8 * DAY) }),
    );
    await insert(rows);

    const day = await summary(site.id);
    expect(day).toMatchObject({ domain: 'summary.example', period: '24h', device: 'all' });
    expect(day.metrics.LCP).toEqual({ p75: nearestRank(lcp, 0.75), rating: expect.any(String), samples: 37 });
    expect(day.metrics.CLS!.p75).toBe(nearestRank(cls, 0.75));
    expect(day.metrics.INP!.p75).toBe(nearestRank(inp, 0.75));
    expect(day.metrics.FCP).toEqual({ p75: null, rating: null, samples: 0 });
    expect(Object.keys(day.metrics)).toEqual([...RUM_METRICS]);

    const week = await summary(site.id, '?period=7d');
    expect(week.metrics.LCP).toMatchObject({ p75: nearestRank([...lcp, 90_000], 0.75), samples: 38 });
    const month = await summary(site.id, '?period=30d');
    expect(month.metrics.LCP).toMatchObject({ p75: nearestRank([...lcp, 90_000, 80_000, 80_001], 0.75), samples: 40 });
  });

  it('rates p75 at Google’s boundaries (good up to and including, poor above) and filters by device', async () => {
    const site = await newSite('ratings.example');
    await insert([
      ...values(site.id, 'LCP', [2500], { device: 'desktop' }),
      ...values(site.id, 'LCP', [4000], { device: 'mobile' }),
      ...values(site.id, 'LCP', [4001], { device: 'tablet' }),
      ...values(site.id, 'CLS', [0.1], { device: 'desktop' }),
      ...values(site.id, 'CLS', [0.25], { device: 'mobile' }),
      ...values(site.id, 'CLS', [0.2501], { device: 'tablet' }),
      ...values(site.id, 'INP', [201], { device: 'desktop' }),
    ]);
    const rating = async (device: string) => {
      const s = await summary(site.id, `?device=${device}`);
      expect(s.device).toBe(device);
      return [
        s.metrics.LCP!.p75,
        s.metrics.LCP!.rating,
        s.metrics.CLS!.p75,
        s.metrics.CLS!.rating,
        s.metrics.INP!.rating,
      ];
    };
    expect(await rating('desktop')).toEqual([2500, 'good', 0.1, 'good', 'needs-improvement']);
    expect(await rating('mobile')).toEqual([4000, 'needs-improvement', 0.25, 'needs-improvement', null]);
    expect(await rating('tablet')).toEqual([4001, 'poor', 0.2501, 'poor', null]);
    expect((await summary(site.id)).metrics.LCP!.samples).toBe(3);
  });

  it('gives the CWV verdict only with 20 samples of each of LCP, CLS and INP: null and insufficient at 19, true or false at 20', async () => {
    const site = await newSite('cwv.example');
    const good = (n: number) => [
      ...values(site.id, 'LCP', Array(n).fill(1200)),
      ...values(site.id, 'CLS', Array(n).fill(0.05)),
      ...values(site.id, 'INP', Array(n).fill(120)),
    ];
    await insert(good(19));
    expect(await summary(site.id)).toMatchObject({ cwv_pass: null, cwv_insufficient_data: true });
    await insert(good(1));
    expect(await summary(site.id)).toMatchObject({ cwv_pass: true, cwv_insufficient_data: false });

    const failing = await newSite('cwv-fail.example');
    await insert([
      ...values(failing.id, 'LCP', Array(20).fill(1200)),
      ...values(failing.id, 'CLS', Array(20).fill(0.05)),
      ...values(failing.id, 'INP', Array(20).fill(250)),
    ]);
    expect(await summary(failing.id)).toMatchObject({ cwv_pass: false, cwv_insufficient_data: false });
    // 19 INP samples: no verdict even though LCP and CLS have plenty.
    const short = await newSite('cwv-short.example');
    await insert([
      ...values(short.id, 'LCP', Array(30).fill(1200)),
      ...values(short.id, 'CLS', Array(30).fill(0.05)),
      ...values(short.id, 'INP', Array(19).fill(120)),
    ]);
    expect(await summary(short.id)).toMatchObject({ cwv_pass: null, cwv_insufficient_data: true });
  });

  it('counts a value sent again (seq 2) and exact replays once, with the last send’s value', async () => {
    const site = await newSite('dedupe.example');
    const rows: MetricRow[] = [];
    for (let i = 0; i < 4; i++) {
      const pageView = pv();
      rows.push({
        site: site.id,
        metric: 'CLS',
        value: 0.01,
        at: ago(2 * HOUR),
        pageView,
        metricId: `v1-${i}`,
        seq: 1,
      });
      rows.push({ site: site.id, metric: 'CLS', value: 0.3, at: ago(HOUR), pageView, metricId: `v1-${i}`, seq: 2 });
    }
    await insert(rows);
    await insert(rows); // the whole batch replayed (a spool replay)
    await insert(rows.filter((r) => r.seq === 2)); // and the last sends once more
    const s = await summary(site.id);
    expect(s.metrics.CLS).toEqual({ p75: 0.3, rating: 'poor', samples: 4 });
    const res = await get(`/rum/sites/${site.id}/history?metric=CLS`);
    expect(res.body.data).toEqual([{ date: '2026-11-18', p75: 0.3, p50: 0.3, samples: 4 }]);
  });
});

describe('history', () => {
  it('one item per UTC day with data, newest first, p75 and p50 by nearest rank, meta echo, days window', async () => {
    const site = await newSite('history.example');
    const today = [100, 200, 300, 400, 500];
    const yesterday = [1000, 3000, 2000, 4000];
    await insert([
      ...values(site.id, 'TTFB', today, { at: new Date('2026-11-18T00:00:00Z') }),
      ...values(site.id, 'TTFB', yesterday, { at: new Date('2026-11-17T23:59:59Z') }),
      ...values(site.id, 'TTFB', [777], { at: new Date('2026-11-12T00:00:00Z') }), // inside days=7 (12th..18th)
      ...values(site.id, 'TTFB', [888], { at: new Date('2026-11-11T23:59:59Z') }), // outside it
      ...values(site.id, 'TTFB', [999], { at: new Date('2026-11-17T10:00:00Z'), device: 'mobile' }),
      ...values(site.id, 'LCP', [5000], { at: new Date('2026-11-16T10:00:00Z') }),
    ]);
    const res = await get(`/rum/sites/${site.id}/history?metric=TTFB&days=7&device=desktop`);
    expect(res.status).toBe(200);
    expect(conforms('get', '/rum/sites/{id}/history', res)).toEqual([]);
    expect(res.body.meta).toEqual({ metric: 'TTFB', days: 7, device: 'desktop' });
    expect(res.body.data).toEqual([
      { date: '2026-11-18', p75: nearestRank(today, 0.75), p50: nearestRank(today, 0.5), samples: 5 },
      { date: '2026-11-17', p75: nearestRank(yesterday, 0.75), p50: nearestRank(yesterday, 0.5), samples: 4 },
      { date: '2026-11-12', p75: 777, p50: 777, samples: 1 },
    ]);
    const all = await get(`/rum/sites/${site.id}/history?metric=TTFB`);
    expect(all.body.meta).toEqual({ metric: 'TTFB', days: 30, device: 'all' });
    expect((all.body.data as Array<{ date: string; samples: number }>).map((d) => [d.date, d.samples])).toEqual([
      ['2026-11-18', 5],
      ['2026-11-17', 5],
      ['2026-11-12', 1],
      ['2026-11-11', 1],
    ]);
  });
});

describe('pages', () => {
  it('slowest paths by p75 with samples, limit, meta echo and the most frequent attribution', async () => {
    const site = await newSite('pages.example');
    await insert([
      ...values(site.id, 'LCP', [1000, 1100, 1200, 1300], { path: '/fast' }),
      ...values(site.id, 'LCP', [4000, 4200], {
        path: '/slow',
        target: 'img.hero',
        url: 'https://cdn.example/hero.jpg',
      }),
      ...values(site.id, 'LCP', [3900], { path: '/slow', target: 'h1' }),
      ...values(site.id, 'LCP', [2000, 2500, 3000], { path: '/middle' }),
      ...values(site.id, 'LCP', [9000], { path: '/old', at: ago(2 * DAY) }),
      ...values(site.id, 'FCP', [9999], { path: '/fast' }),
    ]);
    const res = await get(`/rum/sites/${site.id}/pages`);
    expect(res.status).toBe(200);
    expect(conforms('get', '/rum/sites/{id}/pages', res)).toEqual([]);
    expect(res.body.meta).toEqual({ metric: 'LCP', period: '24h', device: 'all' });
    expect(res.body.data).toEqual([
      {
        path: '/slow',
        p75: 4200,
        samples: 3,
        attribution: { target: 'img.hero', url: 'https://cdn.example/hero.jpg' },
      },
      { path: '/middle', p75: 3000, samples: 3 },
      { path: '/fast', p75: nearestRank([1000, 1100, 1200, 1300], 0.75), samples: 4 },
    ]);
    const limited = await get(`/rum/sites/${site.id}/pages?limit=1&period=7d&metric=LCP`);
    expect(limited.body.data).toEqual([{ path: '/old', p75: 9000, samples: 1 }]);
    expect(limited.body.meta).toEqual({ metric: 'LCP', period: '7d', device: 'all' });
    expect((await get(`/rum/sites/${site.id}/pages?metric=FCP`)).body.data).toEqual([
      { path: '/fast', p75: 9999, samples: 1 },
    ]);
  });
});

describe('invalid parameters', () => {
  it('are 422 in the spec’s shape, naming the parameter', async () => {
    const site = await newSite('params.example');
    const cases: Array<[string, string]> = [
      ['/summary?period=1h', 'period'],
      ['/summary?period=', 'period'],
      ['/summary?device=phone', 'device'],
      ['/history', 'metric'],
      ['/history?metric=lcp', 'metric'],
      ['/history?metric=LCP&days=14', 'days'],
      ['/history?metric=LCP&days=abc', 'days'],
      ['/history?metric=LCP&device=watch', 'device'],
      ['/pages?metric=CLS', 'metric'],
      ['/pages?metric=INP', 'metric'],
      ['/pages?period=30d', 'period'],
      ['/pages?limit=0', 'limit'],
      ['/pages?limit=101', 'limit'],
      ['/pages?limit=2.5', 'limit'],
      ['/pages?limit=1e309', 'limit'],
    ];
    for (const [query, field] of cases) {
      const res = await get(`/rum/sites/${site.id}${query}`);
      expect([query, res.status, Object.keys((res.body.errors as object) ?? {})]).toEqual([query, 422, [field]]);
      expect(typeof res.body.message).toBe('string');
    }
  });
});

describe('OpenAPI', () => {
  it('lists the spec’s live-data operations and marks the management ones as extensions', async () => {
    const doc = (await (await fetch(`${api.url}/api/v1/openapi.json`)).json()) as {
      paths: Record<string, Record<string, Record<string, unknown>>>;
    };
    for (const [method, path] of [
      ['get', '/rum/sites'],
      ['get', '/rum/sites/{id}'],
      ['get', '/rum/sites/{id}/summary'],
      ['get', '/rum/sites/{id}/history'],
      ['get', '/rum/sites/{id}/pages'],
    ] as const) {
      expect([method, path, doc.paths[path]?.[method]?.['x-extension']]).toEqual([method, path, undefined]);
      const statuses = [
        '200',
        '401',
        '403',
        '429',
        ...(path.includes('{id}') ? ['404'] : []),
        ...(/\/(summary|history|pages)$/.test(path) ? ['503'] : []),
      ];
      expect(Object.keys(doc.paths[path]![method]!.responses as object)).toEqual(expect.arrayContaining(statuses));
    }
    for (const [method, path] of [
      ['post', '/rum/sites'],
      ['patch', '/rum/sites/{id}'],
      ['delete', '/rum/sites/{id}'],
    ] as const) {
      expect([method, path, doc.paths[path]?.[method]?.['x-extension']]).toEqual([method, path, true]);
    }
  });
});
