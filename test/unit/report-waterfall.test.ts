import { readFileSync } from 'node:fs';
import { networkBreakdown, roundedPhases } from '../../activities/lighthouse/details.ts';
import type { UpstreamTiming } from '../../activities/lighthouse/egress-proxy.ts';
import {
  initiatorOf,
  isRenderBlocking,
  phaseEndsOf,
  type RequestTiming,
  siteTimingOf,
} from '../../activities/lighthouse/request-timings.ts';
import {
  DETAIL_LIMITS,
  INITIATOR_KINDS,
  type NetworkBreakdown,
  REQUEST_PRIORITIES,
  type WaterfallRequest,
} from '../../core/scan/details.ts';
import { FORM_FACTORS, type FormFactor, type ScanObservation } from '../../core/scan/observation.ts';
import { buildResultRecord } from '../../core/scan/result.ts';
import { scoreScan } from '../../core/scoring/index.ts';
import { auditRows, type Lhr } from '../../fixtures/actionable-results.ts';
import { finishedScan } from '../../fixtures/finished-scan.ts';
import { installedLighthouseVersion, readRecording, RECORD_COMMAND } from '../../fixtures/recorded-lighthouse.ts';
import { reportPage } from '../../web/scans/report-page.ts';
import { filtersOf, typeGroup } from '../../web/scans/report-waterfall.ts';
import { WATERFALL_FILTERS } from '../../web/scans/waterfall-labels.ts';

/**
 * The request waterfall over a recorded real run of the fixture page /waterfall/ (fixtures/sites.ts: a blocking
 * stylesheet and script, a preloaded image, the hero the parser finds, an image behind a redirect, an async
 * third-party script, a fetch from an inline script, an image a deferred script adds), desktop and mobile, made by
 * the real runner (`npm run record:lighthouse`): the requests the runner kept (phases, initiators and render-blocking
 * from Chromium's protocol log, activities/lighthouse/request-timings.ts) against Lighthouse's JSON of the same
 * run, and the report page drawing them. test/scans/scan-flow.test.ts checks the phases on a real load.
 */
const ORIGIN = 'http://127.0.0.1:4321';
const PAGE = `${ORIGIN}/waterfall/`;
const lhr = {} as Record<FormFactor, Lhr>;
let obs: ScanObservation;

beforeAll(() => {
  const version = installedLighthouseVersion();
  const recording = readRecording(version, PAGE);
  if (recording?.kind !== 'observation')
    throw new Error(`no recording of /waterfall/ for Lighthouse ${version}: run ${RECORD_COMMAND}`);
  for (const report of recording.reports) lhr[report.formFactor] = JSON.parse(report.json) as Lhr;
  obs = recording.observation as ScanObservation;
});

const network = (factor: FormFactor): NetworkBreakdown => obs[factor].network!;
const byPath = (factor: FormFactor, path: string): WaterfallRequest => {
  const found = network(factor).requests.find((r) => new URL(r.url).pathname === path);
  if (!found) throw new Error(`no request for ${path} on ${factor}`);
  return found;
};
const sum = (r: WaterfallRequest) => r.phases!.reduce<number>((total, ms) => total + (ms ?? 0), 0);

describe("the runner's requests against Lighthouse's JSON of the same run", () => {
  it("keeps Lighthouse's rows: URLs, start and end, priority, and its entity classification for third parties", () => {
    for (const factor of FORM_FACTORS) {
      const rows = [...auditRows(lhr[factor].audits['network-requests'])].sort(
        (a, b) => Number(a.networkRequestTime) - Number(b.networkRequestTime),
      );
      const requests = network(factor).requests;
      expect(requests.map((r) => r.url)).toEqual(rows.map((r) => r.url));
      expect(requests.map((r) => [r.start_ms, r.end_ms])).toEqual(
        rows.map((r) => [Math.round(Number(r.networkRequestTime)), Math.round(Number(r.networkEndTime))]),
      );
      expect(requests.map((r) => r.priority)).toEqual(rows.map((r) => r.priority));
      const firstParty = new Set(lhr[factor].entities!.filter((e) => e.isFirstParty).map((e) => e.name));
      expect(requests.map((r) => r.third_party ?? null)).toEqual(
        rows.map((r) => (firstParty.has(String(r.entity)) ? null : String(r.entity))),
      );
      expect(byPath(factor, '/widget.js').third_party).toBe('localhost');
      // Extracting again from Lighthouse's JSON alone gives the same rows, without what only the protocol log has.
      const again = networkBreakdown(lhr[factor]);
      expect(again.requests.map((r) => [r.url, r.start_ms, r.end_ms, r.priority, r.third_party])).toEqual(
        requests.map((r) => [r.url, r.start_ms, r.end_ms, r.priority, r.third_party]),
      );
      expect(again.requests.some((r) => r.phases)).toBe(false);
    }
  });

  it('splits each request into phases that add up to its duration', () => {
    for (const factor of FORM_FACTORS) {
      const requests = network(factor).requests;
      const phased = requests.filter((r) => r.phases);
      // Every request that reached the network has Chromium's timing.
      expect(phased.length).toBeGreaterThanOrEqual(requests.length - 1);
      for (const r of phased) {
        expect({ url: r.url, sum: sum(r) }).toEqual({ url: r.url, sum: r.end_ms - r.start_ms });
        expect(r.phases!.every((ms) => ms === null || (Number.isInteger(ms) && ms >= 0))).toBe(true);
        expect(r.phases![3]).toBeNull(); // plain HTTP: no TLS
      }
      // The document opened the first connection; the hero was held 400 ms by the server: waiting for its first byte.
      expect(byPath(factor, '/waterfall/').phases![2]).not.toBeNull();
      // Nothing to look up for 127.0.0.1; the egress proxy looked up "localhost" once, for the first load (desktop).
      expect(requests.filter((r) => r.url.startsWith(ORIGIN)).every((r) => r.phases?.[1] === null)).toBe(true);
      if (factor === 'desktop') expect(byPath(factor, '/widget.js').phases![1]).not.toBeNull();
      expect(byPath(factor, '/waterfall/hero.png').phases![4]).toBeGreaterThanOrEqual(350);
      expect(byPath(factor, '/waterfall/style.css').phases![4]).toBeGreaterThanOrEqual(150);
    }
  });

  it('names what initiated each request: the parser, a script with its URL, a preload, a redirect', () => {
    for (const factor of FORM_FACTORS) {
      expect(byPath(factor, '/waterfall/').initiator).toEqual({ kind: 'other' });
      expect(byPath(factor, '/waterfall/hero.png').initiator).toEqual({ kind: 'parser', url: PAGE });
      expect(byPath(factor, '/waterfall/style.css').initiator).toEqual({ kind: 'parser', url: PAGE });
      expect(byPath(factor, '/waterfall/preloaded.png').initiator).toEqual({ kind: 'preload', url: PAGE });
      // The inline script's fetch names the document it is in; the deferred script's image names the script.
      expect(byPath(factor, '/waterfall/data.json').initiator).toEqual({ kind: 'script', url: PAGE });
      expect(byPath(factor, '/waterfall/added.png').initiator).toEqual({
        kind: 'script',
        url: `${ORIGIN}/waterfall/app.js`,
      });
      expect(byPath(factor, '/waterfall/small.png').initiator).toEqual({
        kind: 'redirect',
        url: `${ORIGIN}/waterfall/moved.png`,
      });
      expect(byPath(factor, '/widget.js').initiator).toEqual({ kind: 'parser', url: PAGE });
      const kinds = new Set(network(factor).requests.map((r) => r.initiator?.kind));
      expect([...kinds].every((k) => (INITIATOR_KINDS as readonly unknown[]).includes(k))).toBe(true);
    }
  });

  it("marks render-blocking requests, every one Lighthouse's render-blocking insight lists among them", () => {
    for (const factor of FORM_FACTORS) {
      const blocking = network(factor)
        .requests.filter((r) => r.render_blocking)
        .map((r) => new URL(r.url).pathname);
      expect(blocking).toEqual(['/waterfall/style.css', '/waterfall/head.js']);
      const insight = auditRows(lhr[factor].audits['render-blocking-insight']).map(
        (r) => new URL(String(r.url)).pathname,
      );
      expect(insight.length).toBeGreaterThan(0);
      expect(blocking).toEqual(expect.arrayContaining(insight));
      expect(byPath(factor, '/widget.js').render_blocking).toBeUndefined(); // async
    }
  });

  it("puts FCP and LCP on the requests' time axis as Lighthouse measured them in the same load", () => {
    for (const factor of FORM_FACTORS) {
      const metrics = auditRows(lhr[factor].audits.metrics)[0]!;
      const zero = (lhr[factor].audits['network-requests']!.details!.debugData as { networkStartTimeTs: number })
        .networkStartTimeTs;
      const markers = network(factor).markers!;
      expect(markers).toEqual({
        fcp_ms: Math.round((Number(metrics.observedFirstContentfulPaintTs) - zero) / 1000),
        lcp_ms: Math.round((Number(metrics.observedLargestContentfulPaintTs) - zero) / 1000),
      });
      expect(networkBreakdown(lhr[factor]).markers).toEqual(markers);
      // The page cannot paint before its blocking stylesheet has arrived, nor its LCP (the hero) before the hero.
      expect(markers.fcp_ms!).toBeGreaterThanOrEqual(byPath(factor, '/waterfall/style.css').end_ms);
      expect(markers.lcp_ms!).toBeGreaterThanOrEqual(byPath(factor, '/waterfall/hero.png').end_ms);
    }
  });
});

describe('the waterfall on the report page', () => {
  const page = (locale: 'en' | 'de') => {
    const finishedAt = new Date('2026-11-20T10:00:00Z');
    return reportPage({
      scan: finishedScan(buildResultRecord(obs, scoreScan(obs, finishedAt)), { finishedAt }),
      chrome: { locale },
      imageUrl: (n) => n,
    });
  };
  const part = (text: string, factor: FormFactor) =>
    new RegExp(`<div id="network-${factor}">(.*?)<h4>`, 's').exec(text)![1]!;

  it('draws every request in the chart and the table, in the same order, with the same filters', () => {
    const text = page('en');
    for (const factor of FORM_FACTORS) {
      const html = part(text, factor);
      const requests = network(factor).requests;
      const chartRows = [...html.matchAll(/<li class="wf-row"( data-[^>]*)>/g)].map((m) => m[1]);
      const tableRows = [...html.matchAll(/<tr( data-type[^>]*)>/g)].map((m) => m[1]);
      const expected = requests.map(
        (r) =>
          ` data-type="${typeGroup(r.type)}"${r.render_blocking ? ' data-blocking' : ''}${r.third_party ? ' data-third-party' : ''}`,
      );
      expect(chartRows).toEqual(expected);
      expect(tableRows).toEqual(expected);
      // A radio per filter the requests have, with its count; "all" first and checked.
      const choices = [
        ...html.matchAll(
          /<input type="radio" name="wf-filter-[a-z]+" id="[^"]+" value="([a-z-]+)"( checked)?><label[^>]*>([^<]+)<\/label>/g,
        ),
      ];
      expect(choices[0]!.slice(1)).toEqual(['all', ' checked', `All (${requests.length})`]);
      const counts = new Map<string, number>();
      for (const r of requests) for (const f of filtersOf(r)) counts.set(f, (counts.get(f) ?? 0) + 1);
      expect(choices.slice(1).map((m) => [m[1], m[3]!.replace(/.*\((\d+)\)$/, '$1')])).toEqual(
        WATERFALL_FILTERS.filter((f) => counts.has(f)).map((f) => [f, String(counts.get(f))]),
      );
      expect(choices.map((m) => m[1])).toEqual(expect.arrayContaining(['script', 'image', 'blocking', 'third-party']));
    }
  });

  it('has a rule in the stylesheet for every filter, hiding the requests of the chart and the table it does not name', () => {
    const css = readFileSync(new URL('../../web/assets/site/10-waterfall.css', import.meta.url), 'utf8');
    for (const filter of WATERFALL_FILTERS) {
      const attribute =
        filter === 'blocking'
          ? '[data-blocking]'
          : filter === 'third-party'
            ? '[data-third-party]'
            : `[data-type='${filter}']`;
      expect(css).toContain(`.wf-view:has([value='${filter}']:checked) [data-type]:not(${attribute})`);
    }
  });

  it('draws the FCP and LCP lines where they happened, and each bar in its phases', () => {
    const text = page('en');
    for (const factor of FORM_FACTORS) {
      const html = part(text, factor);
      const n = network(factor);
      const axis = Math.max(...n.requests.map((r) => r.end_ms), n.markers!.fcp_ms!, n.markers!.lcp_ms!);
      const at = (ms: number) => Math.round((ms / axis) * 100 * 100) / 100;
      expect(html).toContain(`style="--fcp:${at(n.markers!.fcp_ms!)}%;--lcp:${at(n.markers!.lcp_ms!)}%"`);
      expect(html).toContain(
        `<span class="wf-mark wf-mark-lcp wf-mark-left" style="left:${at(n.markers!.lcp_ms!)}%">LCP `,
      );
      const hero = byPath(factor, '/waterfall/hero.png');
      expect(html).toContain(`<span class="wf-ph wf-ph-wait" style="flex-grow:${hero.phases![4]}"></span>`);
      expect(html).toMatch(/In this load \(unthrottled\), first contentful paint came at [\d.,]+ m?s \(line FCP\)/);
    }
  });

  it('lists each request in the table with its priority, initiator, marks and phases as text, in English and German', () => {
    const en = part(page('en'), 'desktop');
    const row = (html: string, path: string) =>
      new RegExp(
        `<tr data-type[^>]*><td class="num">\\d+</td><td class="wf-url"><span title="[^"]*${path}">.*?</tr>`,
      ).exec(html)![0];
    const hero = byPath('desktop', '/waterfall/hero.png');
    const heroRow = row(en, '/waterfall/hero.png');
    expect(heroRow).toContain('<td>High</td>');
    expect(heroRow).toContain(`Parser: <span title="${PAGE}">/waterfall/</span>`);
    expect(heroRow).toContain(`<td class="num">${hero.phases![4]} ms</td>`);
    expect(row(en, '/waterfall/style.css')).toContain('<span class="wf-tag">render-blocking</span>');
    expect(row(en, '/widget.js')).toContain('<span class="wf-tag">third party: localhost</span>');
    expect(row(en, '/waterfall/added.png')).toContain('Script: <span title="http://127.0.0.1:4321/waterfall/app.js">');
    expect(row(en, '/waterfall/small.png')).toContain('Redirect: ');
    expect(row(en, '/waterfall/preloaded.png')).toContain('Preload: ');
    // A later request to the same origin reused the connection: no DNS, connect or TLS, said in words.
    expect(row(en, '/waterfall/data.json')).toContain('<td class="num wf-none">none</td>');
    const de = part(page('de'), 'desktop');
    expect(row(de, '/waterfall/style.css')).toContain('<span class="wf-tag">renderblockierend</span>');
    expect(row(de, '/widget.js')).toContain('Drittanbieter: localhost');
    expect(de).toContain('<th scope="col">Priorität</th><th scope="col">Auslöser</th>');
    expect(de).toContain('<th scope="col" class="num">Warten (TTFB)</th>');
    expect(de).toContain('<label for="wf-filter-desktop-blocking">Renderblockierend (2)</label>');
    expect(de).toMatch(/Bei diesem \(ungedrosselten\) Laden kam der First Contentful Paint bei/);
  });

  it('draws an older result without phases as plain bars, with no phase columns', () => {
    const { markers: _markers, ...older } = network('desktop');
    const plain = {
      ...older,
      requests: older.requests.map(({ url, type, start_ms, end_ms, transfer_bytes, status }) => ({
        url,
        type,
        start_ms,
        end_ms,
        transfer_bytes,
        status,
      })),
    };
    const observation = { ...obs, desktop: { ...obs.desktop, network: plain } };
    const html = part(
      reportPage({
        scan: finishedScan(buildResultRecord(observation, scoreScan(observation, new Date()))),
        chrome: { locale: 'en' },
        imageUrl: (n) => n,
      }),
      'desktop',
    );
    expect(html).not.toContain('wf-ph');
    expect(html).not.toContain('Priority');
    expect(html).not.toContain('--fcp');
    expect([
      ...html.matchAll(/class="wf-req wf-[a-z]+" style="margin-left:[\d.]+%;width:[\d.]+%"><\/span>/g),
    ]).toHaveLength(plain.requests.length);
  });
});

describe('phases, initiators and render-blocking from Chromium', () => {
  const record = (fields: Record<string, unknown>) =>
    ({
      requestId: '1',
      url: 'https://a.example/x.js',
      rendererStartTime: 995,
      networkRequestTime: 1000,
      responseHeadersEndTime: 1100,
      initiator: { type: 'parser', url: 'https://a.example/' },
      isLinkPreload: false,
      priority: 'High',
      resourceType: 'Script',
      ...fields,
    }) as Parameters<typeof phaseEndsOf>[0];
  const timing = (fields: Record<string, number>) => ({
    requestTime: 1,
    dnsStart: -1,
    dnsEnd: -1,
    connectStart: -1,
    connectEnd: -1,
    sslStart: -1,
    sslEnd: -1,
    sendStart: 2,
    receiveHeadersEnd: 100,
    ...fields,
  });

  it('ends DNS, connect (without TLS) and TLS where Chromium says, and leaves out what did not happen', () => {
    const fresh = record({
      timing: timing({
        dnsStart: 1,
        dnsEnd: 11,
        connectStart: 11,
        connectEnd: 50,
        sslStart: 20,
        sslEnd: 50,
        sendStart: 51,
      }),
    });
    expect(phaseEndsOf(fresh)).toEqual({ stalled: 1001, dns: 1011, connect: 1020, tls: 1050, wait: 1100 });
    expect(roundedPhases(1000, 1160, { stalled: 1001, dns: 1011, connect: 1020, tls: 1050, wait: 1100 })).toEqual([
      1, 10, 9, 30, 50, 60,
    ]);
    // A reused connection: stalled until the request was sent, then waiting.
    expect(phaseEndsOf(record({ timing: timing({}) }))).toEqual({
      stalled: 1002,
      dns: null,
      connect: null,
      tls: null,
      wait: 1100,
    });
    expect(phaseEndsOf(record({}))).toBeNull(); // no timing (memory cache, data URL)
    expect(phaseEndsOf(record({ timing: timing({ receiveHeadersEnd: -1 }) }))).toBeNull();
  });

  it("takes DNS and connect from the egress proxy's timing of the tunnel or the plain HTTP request it made", () => {
    // HTTPS: Chromium connected (to the proxy, through the tunnel it asked for) from 1 to 40 ms, TLS from 20.
    const secure = record({
      timing: timing({ connectStart: 1, connectEnd: 40, sslStart: 20, sslEnd: 40, sendStart: 41 }),
    });
    const tunnel: UpstreamTiming = { target: 'a.example:443', at: 1003, dnsMs: 8, connectMs: 5 };
    const other: UpstreamTiming = { target: 'b.example:443', at: 1003, dnsMs: 30, connectMs: 5 };
    const taken = new Set<UpstreamTiming>();
    expect(siteTimingOf(secure, [other, tunnel], taken)).toBe(tunnel);
    expect(phaseEndsOf(secure, tunnel)).toEqual({ stalled: 1001, dns: 1009, connect: 1020, tls: 1040, wait: 1100 });
    expect(siteTimingOf(secure, [other, tunnel], taken)).toBeNull(); // each tunnel goes to one request
    // Plain HTTP: Chromium waited from 2 ms while the proxy looked the host up and connected.
    const plain = record({ url: 'http://a.example/x.js#top', timing: timing({}) });
    const early: UpstreamTiming = {
      target: 'a.example:80',
      url: 'http://a.example/x.js',
      at: 900,
      dnsMs: null,
      connectMs: null,
    };
    const forwarded: UpstreamTiming = {
      target: 'a.example:80',
      url: 'http://a.example/x.js',
      at: 1003,
      dnsMs: 10,
      connectMs: 20,
    };
    expect(siteTimingOf(plain, [early, forwarded], new Set())).toBe(forwarded);
    expect(phaseEndsOf(plain, forwarded)).toEqual({ stalled: 1002, dns: 1012, connect: 1032, tls: null, wait: 1100 });
    // A kept-alive upstream connection and a host looked up before: waiting only.
    const reused = { ...forwarded, dnsMs: null, connectMs: null };
    expect(phaseEndsOf(plain, reused)).toEqual({ stalled: 1002, dns: null, connect: null, tls: null, wait: 1100 });
  });

  it('rounds phases so they add up to the rounded duration, ends out of order kept within it', () => {
    for (const [start, end, ends] of [
      [0, 3, { stalled: 0.4, dns: 0.9, connect: 1.6, tls: null, wait: 2.4 }],
      [10, 12, { stalled: 9, dns: null, connect: null, tls: null, wait: 20 }],
      [7, 7, { stalled: 7.2, dns: null, connect: null, tls: null, wait: 7.4 }],
    ] as const) {
      const phases = roundedPhases(start, end, ends);
      expect(phases.reduce<number>((s, ms) => s + (ms ?? 0), 0)).toBe(end - start);
      expect(phases.every((ms) => ms === null || ms >= 0)).toBe(true);
    }
  });

  it('names the initiator by kind, a script by its URL from the stack, and the render-blocking rule of Lighthouse', () => {
    const stack = { callFrames: [], parent: { callFrames: [{ url: 'https://a.example/app.js' }] } };
    expect(initiatorOf(record({ initiator: { type: 'script', stack } }))).toEqual({
      kind: 'script',
      url: 'https://a.example/app.js',
    });
    expect(initiatorOf(record({ redirectSource: { url: 'https://a.example/old.js' } }))).toEqual({
      kind: 'redirect',
      url: 'https://a.example/old.js',
    });
    expect(initiatorOf(record({ initiator: { type: 'other' } }))).toEqual({ kind: 'other' });
    expect(isRenderBlocking('Blocking', record({}))).toBe(true);
    expect(isRenderBlocking('InBodyParserBlocking', record({ priority: 'High' }))).toBe(true);
    expect(isRenderBlocking('InBodyParserBlocking', record({ priority: 'Low' }))).toBe(false);
    expect(isRenderBlocking('PotentiallyBlocking', record({}))).toBe(false);
  });

  it('keeps the first 150 requests by start, with their timings found by URL, and at most a bounded number of bytes', () => {
    const many = structuredClone(lhr.mobile);
    const url = (i: number) => `https://cdn.example/${i}/${'x'.repeat(1000)}`;
    const rows = Array.from({ length: 400 }, (_, i) => ({
      url: url(i),
      networkRequestTime: 400 - i,
      networkEndTime: 500 - i,
      transferSize: 1000 + i,
      resourceSize: 3000,
      statusCode: 200,
      resourceType: 'Script',
      priority: REQUEST_PRIORITIES[i % 5],
      entity: 'e'.repeat(1000),
    }));
    many.audits['network-requests'] = { score: null, details: { type: 'table', items: rows } };
    const timings: RequestTiming[] = rows.map((row, i) => ({
      url: row.url,
      rendererStart: row.networkRequestTime - 3,
      phaseEnds: {
        stalled: row.networkRequestTime + 1,
        dns: null,
        connect: null,
        tls: null,
        wait: row.networkRequestTime + 60,
      },
      initiator: { kind: 'script', url: `https://by.example/${i}/${'y'.repeat(1000)}` },
      renderBlocking: i % 2 === 0,
    }));
    const started = performance.now();
    const n = networkBreakdown(many, timings);
    const ms = performance.now() - started;
    expect(n.request_count).toBe(400);
    expect(n.requests).toHaveLength(DETAIL_LIMITS.waterfall);
    expect(n.requests[0]!).toMatchObject({
      start_ms: 1,
      end_ms: 101,
      queued_ms: 3,
      phases: [1, null, null, null, 59, 40],
    });
    expect(n.requests.every((r, i) => i === 0 || r.start_ms >= n.requests[i - 1]!.start_ms)).toBe(true);
    // Each request found its own timing: the one whose initiator names its URL.
    for (const r of n.requests) {
      const i = /cdn\.example\/(\d+)\//.exec(r.url)![1];
      expect(r.initiator!.url!.startsWith(`https://by.example/${i}/`)).toBe(true);
      expect(r.render_blocking).toBe(Number(i) % 2 === 0 ? true : undefined);
    }
    const bytes = JSON.stringify(n).length;
    // Each kept row: three strings of at most DETAIL_LIMITS.text characters and under 250 characters of keys and numbers.
    const bound =
      DETAIL_LIMITS.waterfall * (3 * DETAIL_LIMITS.text + 250) +
      2 * DETAIL_LIMITS.byteRows * (DETAIL_LIMITS.text + 130);
    console.log(
      `waterfall of 400 requests with 1000-character URLs: ${bytes} bytes stored (bound ${bound}), read in ${ms.toFixed(1)} ms`,
    );
    expect(bytes).toBeLessThanOrEqual(bound);
  });
});
