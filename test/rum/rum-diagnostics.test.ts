import type { BeaconMetric, BeaconScript } from '../../core/rum/beacon.ts';
import { rumQueries } from '../../db/clickhouse/rum-queries.ts';
import { call, createTestUser, startTestApi, TestClock, type TestApi } from '../harness/api.ts';
import { openApiContract } from '../harness/contract.ts';
import { isolatedClickHouse, type IsolatedClickHouse } from '../harness/isolated.ts';
import { insertBeacons, type TestBeacon } from './rum-data.ts';

/**
 * The live-data diagnostics (top INP culprits, LCP phases) on a hand-computed data set written through the
 * ingest's own code into the real ClickHouse, read through the real API: dedupe by seq (an older send's scripts
 * never count), grouping by first-party URL, third-party-web entity, unknown host and "inline", exact p75s,
 * path and device filters, the response schemas, 422, 404 and the plan's 403.
 */
const NOW = new Date('2026-11-18T12:00:00Z');
const AT = new Date(NOW.getTime() - 3_600_000);

let api: TestApi;
let ch: IsolatedClickHouse;
let conforms: Awaited<ReturnType<typeof openApiContract>>;
let token: string;
let siteId: number;

const APP = 'https://shop.example/app.js';
const VENDOR = 'https://static.shop.example/vendor.js';
const GA = 'https://www.google-analytics.com/analytics.js';
const GA_SSL = 'https://ssl.google-analytics.com/ga.js';
const WIDGET = 'https://widgets.unknown-vendor.test/w.js';

const script = (src: string, fn: string, inv: string, dur: number): BeaconScript => ({ src, fn, inv, dur });
const inp = (pv: string, value: number, scripts: BeaconScript[]): BeaconMetric => ({
  name: 'INP',
  value,
  id: `${pv}-inp`,
  nav: 'navigate',
  ...(scripts.length ? { scripts } : {}),
});
const lcp = (pv: string, value: number, phases: number[] | null, target = '', url = ''): BeaconMetric => ({
  name: 'LCP',
  value,
  id: `${pv}-lcp`,
  nav: 'navigate',
  ...(target ? { target } : {}),
  ...(url ? { url } : {}),
  ...(phases ? { phases: { ttfb: phases[0]!, delay: phases[1]!, load: phases[2]!, render: phases[3]! } } : {}),
});
const pv = (n: number) => `diagnostics-pv-${String(n).padStart(4, '0')}`;

/** Interactions: values and scripts; `pv(1)` was sent twice, and only its second send counts. */
const BEACONS: TestBeacon[] = [
  { pv: pv(1), seq: 1, metrics: [inp(pv(1), 600, [script(GA, 'track', 'event-listener', 300)])] },
  {
    pv: pv(1),
    seq: 2,
    metrics: [inp(pv(1), 350, [script(APP, 'onBuy', 'event-listener', 200), script(VENDOR, 'h', 'user-callback', 50)])],
  },
  {
    pv: pv(2),
    metrics: [
      inp(pv(2), 300, [
        script(APP, 'onBuy', 'event-listener', 100),
        script(GA_SSL, 'send', 'event-listener', 80),
        script(APP, 'render', 'resolve-promise', 20),
      ]),
    ],
  },
  {
    pv: pv(3),
    path: '/cart',
    device: 'mobile',
    metrics: [
      inp(pv(3), 250, [
        script(GA, 'track', 'event-listener', 150),
        script('', '', 'user-callback', 40),
        script(WIDGET, 'init', 'classic-script', 30),
      ]),
    ],
  },
  { pv: pv(4), path: '/cart', metrics: [inp(pv(4), 220, [])] },
  { pv: pv(5), metrics: [inp(pv(5), 150, [script(APP, 'onBuy', 'event-listener', 100)])] },
  { pv: pv(6), metrics: [inp(pv(6), 200, [script(GA, 'track', 'event-listener', 100)])] },
  { pv: pv(7), metrics: [inp(pv(7), 400, [script(GA, 'track', 'event-listener', 90)])] },
  // LCP: '/' has 2000, 3000 (sent twice: the first send's value and phases do not count), 4000 without phases.
  {
    pv: pv(10),
    seq: 1,
    metrics: [lcp(pv(10), 1500, [100, 100, 100, 1200], 'img.hero', 'https://shop.example/hero.jpg')],
  },
  {
    pv: pv(10),
    seq: 2,
    metrics: [lcp(pv(10), 3000, [500, 300, 1200, 1000], 'img.hero', 'https://shop.example/hero.jpg')],
  },
  { pv: pv(11), metrics: [lcp(pv(11), 2000, [400, 100, 900, 600], 'img.hero', 'https://shop.example/hero.jpg')] },
  { pv: pv(12), metrics: [lcp(pv(12), 4000, null, 'h1')] },
  { pv: pv(13), path: '/cart', metrics: [lcp(pv(13), 1000, [200, 50, 300, 450])] },
];

beforeAll(async () => {
  ch = await isolatedClickHouse();
  api = await startTestApi({ clock: new TestClock(NOW), env: { CLICKHOUSE_DATABASE: ch.database } });
  conforms = await openApiContract(api);
  ({ token } = await createTestUser(api, 'pro'));
  const created = await call(api, '/rum/sites', { token, method: 'POST', body: { domain: 'shop.example' } });
  siteId = (created.body.data as { id: number }).id;
  await insertBeacons(ch.client, ch.database, siteId, AT, BEACONS);
});

afterAll(async () => {
  await api?.close();
  await ch?.drop();
});

const get = (path: string, as = token) => call(api, path, { token: as });

async function culprits(query = '') {
  const res = await get(`/rum/sites/${siteId}/inp-culprits${query}`);
  expect(res.status).toBe(200);
  expect(conforms('get', '/rum/sites/{id}/inp-culprits', res)).toEqual([]);
  return res.body as { data: Record<string, unknown> & { culprits: Array<Record<string, unknown>> }; meta: unknown };
}

describe('top INP culprits', () => {
  it('group the slow interactions’ scripts by first-party URL, entity, host and inline, with exact p75s, ranked by share', async () => {
    const { data, meta } = await culprits();
    expect(meta).toEqual({ period: '24h', device: 'all', path: null });
    // 7 interactions (pv1 once); slow above 200 ms: 350, 300, 250, 220, 400; pv4 carries no scripts.
    expect(data).toMatchObject({ slow_threshold_ms: 200, interactions: 7, slow_interactions: 5, slow_with_scripts: 4 });
    expect(data.culprits).toEqual([
      {
        culprit: 'Google Analytics',
        kind: 'third-party',
        entity: 'Google Analytics',
        anchor: 'culprit-google-analytics',
        scripts: [GA_SSL, GA],
        function: 'track',
        invoker: 'event-listener',
        slow_interactions: 3, // pv2, pv3, pv7; not pv1's first send, not pv6 (200 is not slow)
        share: 0.6,
        inp_p75: 400, // [250, 300, 400] at rank floor(0.75 × 3) = 2
        script_time_p75: 150, // [80, 90, 150]
      },
      {
        culprit: APP,
        kind: 'first-party',
        entity: null,
        anchor: 'culprit-shop-example-app-js',
        scripts: [APP],
        function: 'onBuy',
        invoker: 'event-listener',
        slow_interactions: 2,
        share: 0.4,
        inp_p75: 350, // [300, 350]
        script_time_p75: 200, // pv2: 100 + 20 = 120, pv1: 200
      },
      {
        culprit: VENDOR,
        kind: 'first-party',
        entity: null,
        anchor: 'culprit-static-shop-example-vendor-js',
        scripts: [VENDOR],
        function: 'h',
        invoker: 'user-callback',
        slow_interactions: 1,
        share: 0.2,
        inp_p75: 350,
        script_time_p75: 50,
      },
      {
        culprit: '',
        kind: 'inline',
        entity: null,
        anchor: 'culprit-inline',
        scripts: [],
        function: '',
        invoker: 'user-callback',
        slow_interactions: 1,
        share: 0.2,
        inp_p75: 250,
        script_time_p75: 40,
      },
      {
        culprit: 'widgets.unknown-vendor.test',
        kind: 'third-party',
        entity: null,
        anchor: 'culprit-widgets-unknown-vendor-test',
        scripts: [WIDGET],
        function: 'init',
        invoker: 'classic-script',
        slow_interactions: 1,
        share: 0.2,
        inp_p75: 250,
        script_time_p75: 30,
      },
    ]);
  });

  it('narrow to one page or one device', async () => {
    const cart = await culprits('?path=%2Fcart');
    expect(cart.meta).toEqual({ period: '24h', device: 'all', path: '/cart' });
    expect(cart.data).toMatchObject({ interactions: 2, slow_interactions: 2, slow_with_scripts: 1 });
    expect(cart.data.culprits.map((c) => [c.anchor, c.slow_interactions, c.share])).toEqual([
      ['culprit-inline', 1, 0.5],
      ['culprit-google-analytics', 1, 0.5],
      ['culprit-widgets-unknown-vendor-test', 1, 0.5],
    ]);
    const mobile = await culprits('?device=mobile&period=7d');
    expect(mobile.data).toMatchObject({ interactions: 1, slow_interactions: 1 });
    expect(mobile.data.culprits).toHaveLength(3);
    const none = await culprits('?path=%2Fnowhere');
    expect(none.data).toEqual({
      slow_threshold_ms: 200,
      interactions: 0,
      slow_interactions: 0,
      slow_with_scripts: 0,
      culprits: [],
    });
  });

  it('are the same through the query interface with another site domain: nothing is first party then', async () => {
    const window = { from: new Date(NOW.getTime() - 86_400_000), to: NOW };
    const result = await rumQueries({ client: ch.client, database: ch.database }).inpCulprits(
      { id: siteId, domain: 'other.example' },
      window,
      'all',
    );
    const app = result.culprits.find((c) => c.name === 'shop.example');
    expect(app).toMatchObject({ kind: 'third-party', entity: null, slowInteractions: 2 });
    expect(result.culprits.find((c) => c.name === 'static.shop.example')).toMatchObject({ slowInteractions: 1 });
  });
});

describe('LCP phases', () => {
  it('per page and for the site: LCP p75, its most frequent element and each phase’s p75 over the values that carry phases', async () => {
    const res = await get(`/rum/sites/${siteId}/lcp-phases`);
    expect(res.status).toBe(200);
    expect(conforms('get', '/rum/sites/{id}/lcp-phases', res)).toEqual([]);
    const attribution = { target: 'img.hero', url: 'https://shop.example/hero.jpg' };
    expect(res.body).toEqual({
      data: {
        site: {
          p75: 4000, // [1000, 2000, 3000, 4000] at rank 3
          samples: 4,
          attribution,
          phase_samples: 3,
          phases: { ttfb: 500, delay: 300, load: 1200, render: 1000 },
        },
        pages: [
          {
            path: '/',
            anchor: 'lcp-page-root',
            p75: 4000,
            samples: 3,
            attribution,
            phase_samples: 2, // pv10's second send and pv11; pv10's first send's phases do not count
            phases: { ttfb: 500, delay: 300, load: 1200, render: 1000 },
          },
          {
            path: '/cart',
            anchor: 'lcp-page-cart',
            p75: 1000,
            samples: 1,
            attribution: null,
            phase_samples: 1,
            phases: { ttfb: 200, delay: 50, load: 300, render: 450 },
          },
        ],
      },
      meta: { period: '24h', device: 'all', limit: 25 },
    });
    const limited = await get(`/rum/sites/${siteId}/lcp-phases?limit=1&device=mobile`);
    expect(limited.body).toEqual({
      data: { site: null, pages: [] },
      meta: { period: '24h', device: 'mobile', limit: 1 },
    });
    expect(
      ((await get(`/rum/sites/${siteId}/lcp-phases?limit=1`)).body.data as { pages: unknown[] }).pages,
    ).toHaveLength(1);
  });
});

describe('the diagnostics endpoints', () => {
  it('refuse bad parameters with 422 naming them, other users’ sites with 404, Free with the plan 403', async () => {
    const cases: Array<[string, string]> = [
      ['/inp-culprits?period=30d', 'period'],
      ['/inp-culprits?device=watch', 'device'],
      ['/inp-culprits?path=cart', 'path'],
      ['/inp-culprits?path=', 'path'],
      [`/inp-culprits?path=/${'a'.repeat(1024)}`, 'path'],
      ['/lcp-phases?limit=0', 'limit'],
      ['/lcp-phases?limit=101', 'limit'],
      ['/lcp-phases?period=1h', 'period'],
    ];
    for (const [query, field] of cases) {
      const res = await get(`/rum/sites/${siteId}${query}`);
      expect([query, res.status, Object.keys((res.body.errors as object) ?? {})]).toEqual([query, 422, [field]]);
      expect(typeof res.body.message).toBe('string');
    }
    const other = await createTestUser(api, 'pro');
    const free = await createTestUser(api, 'free');
    for (const path of ['/inp-culprits', '/lcp-phases']) {
      expect([path, (await get(`/rum/sites/${siteId}${path}`, other.token)).status]).toEqual([path, 404]);
      const refused = await get(`/rum/sites/${siteId}${path}`, free.token);
      expect([path, refused.status, refused.body.required_plan]).toEqual([path, 403, 'starter']);
    }
  });

  it('are documented as extensions', async () => {
    const doc = (await (await fetch(`${api.url}/api/v1/openapi.json`)).json()) as {
      paths: Record<string, Record<string, Record<string, unknown>>>;
    };
    for (const path of ['/rum/sites/{id}/inp-culprits', '/rum/sites/{id}/lcp-phases']) {
      const operation = doc.paths[path]?.get;
      expect([path, operation?.['x-extension']]).toEqual([path, true]);
      expect(Object.keys(operation!.responses as object)).toEqual(
        expect.arrayContaining(['200', '401', '403', '404', '422', '503']),
      );
    }
  });
});
