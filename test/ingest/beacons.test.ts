import type { RumSite } from '../../core/rum/site.ts';
import { waitUntil } from '../../stack/proc.ts';
import {
  beacon,
  createSite,
  type IngestBed,
  ingestBed,
  type IngestProcess,
  metric,
  pageViewId,
  queryRows,
  send,
} from './support.ts';

/** The real ingest process against the shared ClickHouse (a database of its own) and a copy of the migrated Postgres. */
let bed: IngestBed;
let ingest: IngestProcess;
let site: RumSite;

beforeAll(async () => {
  bed = await ingestBed();
  site = await createSite(bed.db.knex, { domain: 'example.com' });
  ingest = await bed.start('spool');
}, 120_000);

afterAll(async () => {
  await bed?.close();
});

async function rowsFor(pv: string): Promise<Array<Record<string, unknown>>> {
  const rows = await queryRows<Record<string, unknown>>(
    bed.ch.client,
    `SELECT * FROM ${bed.ch.database}.rum_metrics ORDER BY metric`,
  );
  return rows.filter((r) => r.page_view_id === pv);
}

async function rejections(siteId: number): Promise<Record<string, number>> {
  const rows = await queryRows<{ reason: string; beacons: string }>(
    bed.ch.client,
    `SELECT reason, sum(beacons) AS beacons FROM ${bed.ch.database}.rum_rejections WHERE site_id = ${siteId} GROUP BY reason`,
  );
  return Object.fromEntries(rows.map((r) => [r.reason, Number(r.beacons)]));
}

describe('a valid beacon', () => {
  it('is answered 204 and lands in rum_metrics with every column', async () => {
    const b = beacon(site.publicId);
    const answer = await send(ingest.url, b);
    expect(answer.status).toBe(204);
    expect(answer.headers['access-control-allow-origin']).toBe('*');
    await waitUntil('rows in ClickHouse', async () => (await rowsFor(b.pv)).length === 3, 20_000, 100);
    const rows = await rowsFor(b.pv);
    const today = new Date().toISOString().slice(0, 10);
    expect(rows.map((r) => ({ ...r, ts: String(r.ts).slice(0, 10) }))).toEqual([
      {
        site_id: site.id,
        ts: today,
        page_view_id: b.pv,
        seq: 1,
        metric_id: `v5-${b.pv}-lcp`,
        metric: 'LCP',
        value: 2345.6,
        device: 'mobile',
        navigation: 'navigate',
        path: '/products/shoes',
        sample_rate: 100,
        attr_target: 'main > img.hero',
        attr_url: 'https://cdn.example.com/hero.jpg',
        attr_type: '',
        source: expect.any(Number),
        keep_one_in: 1,
        phases: [400, 145.6, 1200, 600],
        script_urls: [],
        script_functions: [],
        script_invokers: [],
        script_durations: [],
      },
      {
        site_id: site.id,
        ts: today,
        page_view_id: b.pv,
        seq: 1,
        metric_id: `v5-${b.pv}-cls`,
        metric: 'CLS',
        value: 0.042,
        device: 'mobile',
        navigation: 'navigate',
        path: '/products/shoes',
        sample_rate: 100,
        attr_target: 'div.banner',
        attr_url: '',
        attr_type: '',
        source: expect.any(Number),
        keep_one_in: 1,
        phases: [],
        script_urls: [],
        script_functions: [],
        script_invokers: [],
        script_durations: [],
      },
      {
        site_id: site.id,
        ts: today,
        page_view_id: b.pv,
        seq: 1,
        metric_id: `v5-${b.pv}-inp`,
        metric: 'INP',
        value: 184,
        device: 'mobile',
        navigation: 'navigate',
        path: '/products/shoes',
        sample_rate: 100,
        attr_target: 'button#buy',
        attr_url: '',
        attr_type: 'pointer',
        source: expect.any(Number),
        keep_one_in: 1,
        phases: [4, 150, 30],
        script_urls: ['https://cdn.example.com/cart.js', ''],
        script_functions: ['addToCart', ''],
        script_invokers: ['event-listener', 'user-callback'],
        script_durations: [120, 22.5],
      },
    ]);
  });

  it('is accepted from a subdomain, with Referer when Origin is missing, and cut of a query in the resource URL', async () => {
    const fromShop = beacon(site.publicId);
    expect((await send(ingest.url, fromShop, { origin: 'https://shop.example.com' })).status).toBe(204);
    const b = beacon(site.publicId, {
      metrics: [
        { name: 'LCP', value: 1000, id: 'lcp-1', nav: 'reload', url: 'https://cdn.example.com/a.jpg?token=secret#x' },
      ],
    });
    expect((await send(ingest.url, b, { origin: '', referer: 'https://www.example.com/page?q=1' })).status).toBe(204);
    await waitUntil('referer beacon stored', async () => (await rowsFor(b.pv)).length === 1, 20_000, 100);
    expect((await rowsFor(b.pv))[0]).toMatchObject({ attr_url: 'https://cdn.example.com/a.jpg', navigation: 'reload' });
  });

  it('answers a CORS preflight for the fetch fallback', async () => {
    const answer = await send(
      ingest.url,
      '',
      { origin: 'https://example.com', 'access-control-request-method': 'POST' },
      'OPTIONS',
    );
    expect(answer.status).toBe(204);
    expect(answer.headers['access-control-allow-origin']).toBe('*');
    expect(answer.headers['access-control-allow-methods']).toBe('POST');
  });
});

describe('refused beacons', () => {
  const script = { src: 'https://cdn.example.com/a.js', fn: 'f', inv: 'event-listener', dur: 100 };
  it('are refused with their reason, counted in /metrics and, for a known site, in rum_rejections', async () => {
    const before = await metric(ingest.metricsUrl, 'rum_ingest_beacons_rejected_total', 'reason="origin_mismatch"');
    const cases: Array<{ reason: string; status: number; body: string | object; headers?: Record<string, string> }> = [
      { reason: 'origin_mismatch', status: 403, body: beacon(site.publicId), headers: { origin: 'https://evil.test' } },
      {
        reason: 'origin_mismatch',
        status: 403,
        body: beacon(site.publicId),
        headers: { origin: 'https://badexample.com' },
      },
      {
        reason: 'origin_mismatch',
        status: 403,
        body: beacon(site.publicId),
        headers: { origin: 'https://example.com.evil.net' },
      },
      { reason: 'origin_mismatch', status: 403, body: beacon(site.publicId), headers: { origin: '' } },
      { reason: 'oversize', status: 413, body: { ...beacon(site.publicId), path: `/${'a'.repeat(9000)}` } },
      {
        reason: 'oversize',
        status: 413,
        body: beacon(site.publicId, {
          metrics: [{ name: 'LCP', value: 1, id: 'x', nav: 'navigate', target: 't'.repeat(300) }],
        }),
      },
      {
        reason: 'oversize',
        status: 413,
        body: beacon(site.publicId, {
          metrics: [{ name: 'INP', value: 300, id: 'x', nav: 'navigate', scripts: Array(6).fill(script) }],
        }),
      },
      { reason: 'bad_json', status: 400, body: '{"v":1,"site":' },
      {
        reason: 'bad_shape',
        status: 400,
        body: beacon(site.publicId, {
          metrics: [
            { name: 'CLS', value: 0.1, id: 'x', nav: 'navigate', phases: { input: 1, processing: 2, presentation: 3 } },
          ],
        }),
      },
      {
        reason: 'bad_shape',
        status: 400,
        body: beacon(site.publicId, {
          metrics: [
            { name: 'LCP', value: 900, id: 'x', nav: 'navigate', phases: { ttfb: 100, delay: 200, load: 300 } },
          ],
        }),
      },
      {
        reason: 'bad_shape',
        status: 400,
        body: beacon(site.publicId, {
          metrics: [{ name: 'LCP', value: 900, id: 'x', nav: 'navigate', scripts: [script] }],
        }),
      },
      {
        reason: 'bad_shape',
        status: 400,
        body: beacon(site.publicId, {
          metrics: [{ name: 'INP', value: 300, id: 'x', nav: 'navigate', scripts: [{ ...script, inv: 'telepathy' }] }],
        }),
      },
      {
        reason: 'value_range',
        status: 400,
        body: beacon(site.publicId, {
          metrics: [{ name: 'INP', value: 300, id: 'x', nav: 'navigate', scripts: [{ ...script, dur: -1 }] }],
        }),
      },
      { reason: 'bad_shape', status: 400, body: { ...beacon(site.publicId), device: 'fridge' } },
      {
        reason: 'bad_shape',
        status: 400,
        body: beacon(site.publicId, { metrics: [{ name: 'LCP', value: 1, id: 'x', nav: 'teleport' as 'navigate' }] }),
      },
      { reason: 'bad_shape', status: 400, body: beacon(site.publicId, { pv: 'short' }) },
      {
        reason: 'bad_metric',
        status: 400,
        body: beacon(site.publicId, { metrics: [{ name: 'FID' as 'LCP', value: 1, id: 'x', nav: 'navigate' }] }),
      },
      {
        reason: 'value_range',
        status: 400,
        body: beacon(site.publicId, { metrics: [{ name: 'LCP', value: -5, id: 'x', nav: 'navigate' }] }),
      },
      {
        reason: 'value_range',
        status: 400,
        body: beacon(site.publicId, { metrics: [{ name: 'CLS', value: 1000, id: 'x', nav: 'navigate' }] }),
      },
      {
        reason: 'value_range',
        status: 400,
        body: `{"v":1,"site":"${site.publicId}","pv":"${pageViewId()}","seq":1,"path":"/","device":"desktop","rate":100,"metrics":[{"name":"LCP","value":"NaN","id":"x","nav":"navigate"}]}`,
      },
      { reason: 'bad_path', status: 400, body: beacon(site.publicId, { path: '/search?q=me' }) },
      { reason: 'bad_path', status: 400, body: beacon(site.publicId, { path: 'products' }) },
      {
        reason: 'bot',
        status: 204,
        body: beacon(site.publicId),
        headers: { 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' },
      },
      {
        reason: 'bot',
        status: 204,
        body: beacon(site.publicId),
        headers: {
          'user-agent':
            'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36',
        },
      },
      {
        reason: 'bot',
        status: 204,
        body: beacon(site.publicId),
        headers: { 'user-agent': 'Mozilla/5.0 (Linux; Android 11) Chrome/131 Mobile Safari/537.36 Chrome-Lighthouse' },
      },
      { reason: 'bot', status: 204, body: beacon(site.publicId), headers: { 'user-agent': '' } },
      { reason: 'unknown_site', status: 404, body: beacon('0123456789abcdefghjk') },
      { reason: 'unknown_site', status: 404, body: beacon('not-a-site-id') },
    ];
    for (const c of cases) {
      const answer = await send(ingest.url, c.body, c.headers);
      expect({ reason: c.reason, status: answer.status }).toEqual({ reason: c.reason, status: c.status });
      if (c.status !== 204) expect(JSON.parse(answer.body)).toMatchObject({ error: c.reason });
    }
    const counted = (reason: string) => cases.filter((c) => c.reason === reason).length;
    expect(await metric(ingest.metricsUrl, 'rum_ingest_beacons_rejected_total', 'reason="origin_mismatch"')).toBe(
      before + counted('origin_mismatch'),
    );
    for (const reason of [
      'oversize',
      'bad_json',
      'bad_shape',
      'bad_metric',
      'value_range',
      'bad_path',
      'bot',
      'unknown_site',
    ]) {
      expect({
        reason,
        n: await metric(ingest.metricsUrl, 'rum_ingest_beacons_rejected_total', `reason="${reason}"`),
      }).toEqual({ reason, n: counted(reason) });
    }
    // Per site and day: only what could be tied to the site (not garbage JSON, oversize bodies or unknown ids).
    const expected = {
      origin_mismatch: 4,
      oversize: 2,
      bad_shape: 7,
      bad_metric: 1,
      value_range: 4,
      bad_path: 2,
      bot: 4,
    };
    const sorted = (counts: Record<string, number>) => JSON.stringify(Object.entries(counts).sort());
    await waitUntil(
      'rejections flushed',
      async () => sorted(await rejections(site.id)) === sorted(expected),
      20_000,
      200,
    ).catch(() => undefined);
    expect(await rejections(site.id)).toEqual(expected);
    // Nothing of them reached rum_metrics.
    const stored = await queryRows<{ n: string }>(
      bed.ch.client,
      `SELECT count() AS n FROM ${bed.ch.database}.rum_metrics WHERE metric_id = 'x'`,
    );
    expect(Number(stored[0]!.n)).toBe(0);
  });

  it('refuses an inactive site (counted for it) and keeps /metrics off the public port', async () => {
    const inactive = await createSite(bed.db.knex, { active: false });
    const answer = await send(ingest.url, beacon(inactive.publicId));
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body)).toEqual({ message: 'Site is not active.', error: 'inactive_site' });
    await waitUntil('inactive counted', async () => (await rejections(inactive.id)).inactive_site === 1, 20_000, 200);
    expect((await fetch(`${ingest.url}/metrics`)).status).toBe(404);
    const text = await (await fetch(ingest.metricsUrl)).text();
    for (const name of [
      'rum_ingest_beacons_accepted_total',
      'rum_ingest_buffered_beacons',
      'rum_ingest_spooled_rows',
      'rum_ingest_flush_duration_seconds_count',
      'rum_ingest_clickhouse_insert_errors_total',
      'process_resident_memory_bytes',
    ]) {
      expect(text).toContain(name);
    }
    expect(await metric(ingest.metricsUrl, 'rum_ingest_beacons_accepted_total')).toBeGreaterThanOrEqual(3);
    // Ready (the spool has room), by the same checks as /readyz.
    expect(await metric(ingest.metricsUrl, 'webperf_ready', 'service="ingest"')).toBe(1);
  });
});

describe('the monthly page-view limit', () => {
  it("counts page views by the site's configured sample rate (not the beacon's claim), seeded from ClickHouse", async () => {
    const starter = await createSite(bed.db.knex, { plan: 'starter', domain: 'shop.test' }); // 100 %, 100,000 page views a month
    // 999 page views stored earlier this month at a 1 % sample rate: 99,900 page views.
    const values = Array.from(
      { length: 999 },
      (_, i) =>
        `(${starter.id}, now(), 'seed${i}', 1, 'm', 'LCP', 1000, 'desktop', 'navigate', '/', 1, '', '', '', ${i}, 1)`,
    ).join(',');
    await bed.ch.client.command({
      query: `INSERT INTO ${bed.ch.database}.rum_metrics (site_id, ts, page_view_id, seq, metric_id, metric, value, device, navigation, path, sample_rate, attr_target, attr_url, attr_type, source, keep_one_in) VALUES ${values}`,
    });
    const headers = { origin: 'https://shop.test' };
    // Claims a 1 % sample; the site's 100 % counts: 99,901, still under the limit, so the next one is kept in full.
    const first = beacon(starter.publicId, { rate: 1 });
    expect((await send(ingest.url, first, headers)).status).toBe(204);
    const second = beacon(starter.publicId, { rate: 1 });
    expect((await send(ingest.url, second, headers)).status).toBe(204);
    await waitUntil(
      'both stored',
      async () => (await rowsFor(second.pv)).length === 3 && (await rowsFor(first.pv)).length === 3,
      20_000,
      100,
    );
    expect((await rowsFor(second.pv)).map((r) => [r.sample_rate, r.keep_one_in])).toEqual([
      [100, 1],
      [100, 1],
      [100, 1],
    ]);

    // A Free owner has no live data: every beacon is over its limit of 0.
    const free = await createSite(bed.db.knex, { plan: 'free', domain: 'free.test' });
    const refused = await send(ingest.url, beacon(free.publicId), { origin: 'https://free.test' });
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.body)).toMatchObject({ error: 'monthly_limit' });
  });
});
