import type { Page } from 'puppeteer-core';
import { Client, Connection } from '@temporalio/client';
import { FAILURE_TEXTS } from '../../core/i18n/failures.ts';
import type { ScanResultRecord } from '../../core/scan/result.ts';
import { createTestUser, call } from '../harness/api.ts';
import {
  startFixtureSites,
  BASIC_PASSWORD,
  BASIC_USER,
  HEADER_NAME,
  HEADER_VALUE,
  type FixtureSites,
} from '../../fixtures/sites.ts';
import { cancelScans, startScanStack, waitForScan, type ScanDetail, type ScanStack } from '../harness/scans.ts';

/**
 * Real scans end to end: the API starts a Temporal workflow, a real worker runs Lighthouse in Chromium
 * against fixture pages with known faults, and the results must say what each fault is.
 */
let stack: ScanStack;
let sites: FixtureSites;
let token: string;
let ownerEmail: string;
const OWNER_PASSWORD = 'owner-password-1';
const ids: Record<string, string> = {};
const results: Record<string, ScanDetail> = {};

type Result = {
  final_url: string;
  http_status: number;
  scores: Record<'overall' | 'speed' | 'images' | 'caching' | 'wordpress' | 'technical', number>;
  metrics: { ttfb_ms: number; desktop: Record<string, number>; mobile: Record<string, number> };
  screenshots: {
    desktop_url: string;
    mobile_url: string;
    filmstrip: { desktop: string[]; mobile: string[] };
    filmstrip_frames: { desktop: Array<{ url: string; ms: number; event: string | null }>; mobile: unknown[] };
  };
  findings: Array<{
    category: string;
    code: string;
    severity: string;
    title: string;
    message: string;
    recommendation: string;
  }>;
  summary_short: string;
  summary_long: string;
};
const result = (name: string) => results[name]!.result as Result;
const codes = (name: string) => result(name).findings.map((f) => f.code);

const FIXTURES = {
  fast: '/fast/',
  slow: '/slow/',
  heavy: '/heavy/',
  nocache: '/nocache/',
  redirect: '/redirect/',
  wp: '/wp/',
  thirdParty: '/third-party/',
  missing: '/missing',
  toInternal: '/to-internal/',
  embedsInternal: '/embeds-internal/',
} as const;

beforeAll(async () => {
  sites = await startFixtureSites();
  stack = await startScanStack();
  const owner = await createTestUser(stack.api, 'pro', OWNER_PASSWORD);
  token = owner.token;
  ownerEmail = owner.user.email;
  const submit = async (name: string, body: Record<string, unknown>) => {
    const res = await call(stack.api, '/scans', { token, method: 'POST', body });
    if (res.status !== 202) throw new Error(`${name}: ${res.status} ${JSON.stringify(res.body)}`);
    ids[name] = (res.body.data as { id: string }).id;
  };
  for (const [name, path] of Object.entries(FIXTURES)) await submit(name, { url: `${sites.origin}${path}` });
  await submit('refused', { url: sites.refusedUrl });
  await submit('basic', {
    url: `${sites.origin}/basic/`,
    auth: { type: 'basic', username: BASIC_USER, password: BASIC_PASSWORD },
  });
  await submit('header', {
    url: `${sites.origin}/header/`,
    auth: { type: 'header', header_name: HEADER_NAME, header_value: HEADER_VALUE },
  });
  for (const [name, id] of Object.entries(ids)) results[name] = await waitForScan(stack.api, token, id);
}, 900_000);

afterAll(async () => {
  await stack?.close();
  await sites?.close();
});

describe('a fast, small page', () => {
  it('finishes with high scores, both form factors measured, and no critical findings', () => {
    const scan = results.fast!;
    expect(scan.status).toBe('finished');
    const r = result('fast');
    expect(r.http_status).toBe(200);
    expect(r.final_url).toBe(`${sites.origin}/fast/`);
    expect(r.scores.speed).toBeGreaterThanOrEqual(80);
    expect(r.scores.images).toBeGreaterThanOrEqual(90);
    expect(r.scores.caching).toBeGreaterThanOrEqual(80);
    expect(r.scores.wordpress).toBe(100);
    for (const factor of ['desktop', 'mobile'] as const) {
      expect(r.metrics[factor]!.fcp_ms).toBeGreaterThan(0);
      expect(r.metrics[factor]!.request_count).toBeGreaterThanOrEqual(2);
    }
    expect(r.findings.filter((f) => f.severity === 'critical')).toEqual([]);
    expect(r.summary_short).toMatch(/\d+\/100/);
  });

  it('has the spec shape of a finished scan', () => {
    const scan = results.fast!;
    expect(Object.keys(scan).sort()).toEqual(
      [
        'auth_type',
        'finished_at',
        'is_public',
        'previous',
        'public_id',
        'region',
        'report_url',
        'requested_at',
        'result',
        'share_enabled',
        'share_url',
        'status',
        'submitted_url',
        'target_id',
        'trigger',
      ].sort(),
    );
    expect(scan).toMatchObject({
      is_public: false,
      auth_type: null,
      share_enabled: false,
      share_url: null,
      region: 'local',
      target_id: null,
      trigger: 'request',
    });
    expect(scan.requested_at).toMatch(/\+00:00$/);
  });

  it('has screenshots and a filmstrip whose frames mark FCP and LCP, served only with a valid signature', async () => {
    const r = result('fast');
    const shot = await fetch(r.screenshots.desktop_url);
    expect(shot.status).toBe(200);
    expect(shot.headers.get('content-type')).toBe('image/jpeg');
    expect((await shot.arrayBuffer()).byteLength).toBeGreaterThan(500);
    const frames = r.screenshots.filmstrip_frames.desktop;
    expect(frames.length).toBeGreaterThan(2);
    expect(frames.map((f) => f.url)).toEqual(r.screenshots.filmstrip.desktop);
    expect(frames.some((f) => f.event === 'fcp' || f.event === 'lcp')).toBe(true);
    expect(frames.every((f, i) => i === 0 || f.ms >= frames[i - 1]!.ms)).toBe(true);
    // A private scan's image without its signature, or with a forged one, is not served.
    const bare = r.screenshots.desktop_url.split('?')[0]!;
    expect((await fetch(bare)).status).toBe(404);
    expect((await fetch(`${bare}?expires=9999999999&signature=forged`)).status).toBe(404);
  });
});

describe('pages with known faults', () => {
  it('slow TTFB: measured, reported as a slow server, and the technical score drops', () => {
    expect(results.slow!.status).toBe('finished');
    expect(result('slow').metrics.ttfb_ms).toBeGreaterThanOrEqual(1400);
    expect(result('slow').findings.some((f) => f.category === 'technical' && /server|ttfb/.test(f.code))).toBe(true);
    expect(result('slow').scores.technical).toBeLessThan(result('fast').scores.technical);
  });

  it('heavy unoptimised images: image findings and a lower images score', () => {
    expect(results.heavy!.status).toBe('finished');
    expect(result('heavy').scores.images).toBeLessThan(result('fast').scores.images);
    const imageFindings = result('heavy').findings.filter((f) => f.category === 'images');
    expect(imageFindings.length).toBeGreaterThanOrEqual(2);
    expect(result('heavy').metrics.desktop.total_bytes).toBeGreaterThan(3 * 1024 * 1024);
  });

  it('no cache headers and no compression: caching findings and a lower caching score', () => {
    expect(results.nocache!.status).toBe('finished');
    expect(result('nocache').scores.caching).toBeLessThan(result('fast').scores.caching);
    expect(codes('nocache').some((c) => /compress/.test(c))).toBe(true);
    expect(codes('nocache').some((c) => c.startsWith('caching.') && /cache|ttl|lifetime/.test(c))).toBe(true);
  });

  it('redirect chain: ends on the final page, reported, technical score lower', () => {
    expect(results.redirect!.status).toBe('finished');
    expect(result('redirect').final_url).toBe(`${sites.origin}/fast/`);
    expect(codes('redirect').some((c) => /redirect/.test(c))).toBe(true);
    expect(result('redirect').scores.technical).toBeLessThan(result('fast').scores.technical);
  });

  it('WordPress-like page: detected, WordPress findings, wordpress score below 100', () => {
    expect(results.wp!.status).toBe('finished');
    expect(result('wp').scores.wordpress).toBeLessThan(100);
    const wp = result('wp').findings.filter((f) => f.category === 'wordpress');
    expect(wp.length).toBeGreaterThanOrEqual(2);
    expect(wp.some((f) => /version/.test(f.code))).toBe(true);
    expect(wp.some((f) => /plugin/.test(f.code))).toBe(true);
  });

  it('a page loading a third-party origin: scanned, and the third party was reached', () => {
    expect(results.thirdParty!.status).toBe('finished');
    expect(sites.thirdPartyRequests.some((r) => r.path === '/widget.js')).toBe(true);
  });
});

describe('the request waterfall of a real load', () => {
  /** The waterfall the worker stored (not in the API's result), from Chromium's timing of the real load. */
  const stored = async (name: string) => {
    const row = (await stack.api.db.knex('scans').where({ public_id: ids[name] }).first()) as {
      result: ScanResultRecord;
    };
    return row.result.network!;
  };

  it("splits each request into phases that add up to its duration, with Chromium's connection timing", async () => {
    for (const name of ['slow', 'thirdParty']) {
      const network = await stored(name);
      for (const factor of ['desktop', 'mobile'] as const) {
        const requests = network[factor].requests;
        const phased = requests.filter((r) => r.phases);
        // /slow/ is its document alone; /third-party/ adds a script and an image from the other origin.
        expect(phased.length).toBeGreaterThanOrEqual(name === 'slow' ? 1 : 3);
        for (const r of phased) {
          expect(r.phases!.reduce<number>((sum, ms) => sum + (ms ?? 0), 0)).toBe(r.end_ms - r.start_ms);
          expect(r.phases!.every((ms) => ms === null || ms >= 0)).toBe(true);
        }
        // In the browser's first load (desktop), the first request to each origin opened a connection (the
        // mobile load may reuse one still open); plain HTTP has no TLS.
        if (factor === 'desktop')
          for (const origin of new Set(phased.map((r) => new URL(r.url).origin)))
            expect(phased.find((r) => new URL(r.url).origin === origin)!.phases![2]).not.toBeNull();
        expect(phased.every((r) => r.phases![3] === null)).toBe(true);
        expect(network[factor].markers!.fcp_ms).toBeGreaterThan(0);
      }
    }
    // /slow/ holds its document 1.5 s before answering: that is waiting for the first byte.
    const slow = await stored('slow');
    for (const factor of ['desktop', 'mobile'] as const)
      expect(slow[factor].requests[0]!.phases![4]).toBeGreaterThanOrEqual(1400);
  });

  it('takes the DNS lookup from the egress proxy, which resolves every name while Chromium resolves none', async () => {
    const network = await stored('thirdParty');
    // The proxy looked "localhost" up once in the scan, for whichever third-party request of either load opened
    // the first connection to it (on a loaded machine not always the first listed); 127.0.0.1 is an address.
    const requests = [...network.desktop.requests, ...network.mobile.requests].filter((r) => r.phases);
    const thirdParty = requests.filter((r) => r.url.startsWith(sites.thirdParty));
    expect(thirdParty.length).toBeGreaterThan(0);
    expect(thirdParty.some((r) => r.phases![1] !== null)).toBe(true);
    expect(requests.filter((r) => r.url.startsWith(sites.origin)).every((r) => r.phases![1] === null)).toBe(true);
  });

  it('names the initiator, the priority and the third party of each request', async () => {
    const network = await stored('thirdParty');
    for (const factor of ['desktop', 'mobile'] as const) {
      const byPath = (path: string) => network[factor].requests.find((r) => new URL(r.url).pathname === path)!;
      expect(byPath('/third-party/')).toMatchObject({ priority: 'VeryHigh', initiator: { kind: 'other' } });
      for (const path of ['/widget.js', '/pixel.svg'])
        expect(byPath(path)).toMatchObject({
          third_party: 'localhost',
          initiator: { kind: 'parser', url: `${sites.origin}/third-party/` },
        });
      expect(byPath('/third-party/')).not.toHaveProperty('third_party');
    }
  });
});

describe('the OpenAPI document describes what the API sends', () => {
  it('for finished and failed scans, in detail and in the list', async () => {
    const { openApiContract } = await import('../harness/contract.ts');
    const conforms = await openApiContract(stack.api);
    for (const name of ['fast', 'wp', 'missing', 'refused', 'basic']) {
      expect(conforms('get', '/scans/{id}', await call(stack.api, `/scans/${ids[name]!}`, { token }))).toEqual([]);
      expect(
        conforms(
          'get',
          '/scans/{id}',
          await call(stack.api, `/scans/${ids[name]!}`, { token, headers: { 'accept-language': 'de' } }),
        ),
      ).toEqual([]);
    }
    const list = await call(stack.api, '/scans?limit=50', { token });
    expect((list.body.data as Array<{ status: string }>).map((s) => s.status)).toEqual(
      expect.arrayContaining(['finished', 'failed']),
    );
    expect(conforms('get', '/scans', list)).toEqual([]);
    expect(
      conforms(
        'post',
        '/scans',
        await call(stack.api, '/scans', { token, method: 'POST', body: { url: `${sites.origin}/fast/` } }),
      ),
    ).toEqual([]);
  });
});

describe('pages that cannot be scanned', () => {
  it('404 fails once with http_error and the status, without retries', () => {
    expect(results.missing).toMatchObject({
      status: 'failed',
      error: { code: 'http_error', message: expect.stringContaining('404') },
    });
    expect(results.missing!.finished_at).toEqual(expect.any(String));
  });

  it('a refused connection fails with connection_failed', () => {
    expect(results.refused).toMatchObject({ status: 'failed', error: { code: 'connection_failed' } });
  });
});

describe('the internal network stays out of reach', () => {
  it('a redirect to a special-use address fails with blocked_address and never reaches that host', () => {
    // The code's own text: which address the host resolved to is for operators (the worker's log), not users.
    expect(results.toInternal).toMatchObject({
      status: 'failed',
      error: { code: 'blocked_address', message: FAILURE_TEXTS.en.blocked_address },
    });
    expect(JSON.stringify(results.toInternal!.error)).not.toContain('0.0.0.0');
    expect(sites.internalRequests.filter((r) => r.path === '/admin/')).toEqual([]);
  });

  it('a page embedding an internal address is scanned, without that request ever being made', () => {
    expect(results.embedsInternal!.status).toBe('finished');
    expect(result('embedsInternal').findings).toContainEqual(
      expect.objectContaining({
        code: 'technical.blocked-requests',
        severity: 'info',
        message: expect.stringContaining(new URL(sites.internal).host),
      }),
    );
    expect(sites.siteRequests.some((r) => r.path === '/fast/logo.svg')).toBe(true);
    expect(sites.internalRequests).toEqual([]);
  });
});

describe('authenticated scans', () => {
  it('succeed behind basic auth and a header check, private, with the auth type and no credentials', () => {
    for (const name of ['basic', 'header'] as const) {
      expect(results[name]!.status).toBe('finished');
      expect(result(name).http_status).toBe(200);
      expect(results[name]).toMatchObject({ is_public: false, auth_type: name });
      expect(JSON.stringify(results[name])).not.toMatch(new RegExp(`${BASIC_PASSWORD}|${HEADER_VALUE}`));
    }
    expect(sites.siteRequests.some((r) => r.path === '/basic/style.css' && r.headers.authorization)).toBe(true);
    expect(
      sites.siteRequests.some(
        (r) => r.path === '/header/style.css' && r.headers[HEADER_NAME.toLowerCase()] === HEADER_VALUE,
      ),
    ).toBe(true);
  });

  it('never send the credentials to the third-party origin', () => {
    expect(sites.thirdPartyRequests.length).toBeGreaterThan(0);
    for (const request of sites.thirdPartyRequests) {
      expect(request.headers.authorization).toBeUndefined();
      expect(request.headers[HEADER_NAME.toLowerCase()]).toBeUndefined();
    }
  });

  it('leave the credentials in no stored row, log line or Temporal history', async () => {
    const rows = await stack.api.db.knex('scans').whereIn('public_id', [ids.basic!, ids.header!]);
    expect(rows.every((row: { auth_secret: string | null }) => row.auth_secret === null)).toBe(true);
    const secrets = new RegExp(
      `${BASIC_PASSWORD}|${HEADER_VALUE}|${Buffer.from(`${BASIC_USER}:${BASIC_PASSWORD}`).toString('base64')}`,
    );
    expect(JSON.stringify(rows)).not.toMatch(secrets);
    expect(stack.worker.output()).not.toMatch(secrets);
    expect(stack.api.logs()).not.toMatch(secrets);
    const connection = await Connection.connect({ address: stack.api.config.temporal.address });
    try {
      const client = new Client({ connection, namespace: stack.api.config.temporal.namespace });
      for (const id of [ids.basic!, ids.header!]) {
        const history = await client.workflow.getHandle(`scan-${id}`).fetchHistory();
        const text = JSON.stringify(history, (_k, v: unknown) =>
          v instanceof Uint8Array ? Buffer.from(v).toString('utf8') : v,
        );
        expect(text).toContain(id);
        expect(text).not.toMatch(secrets);
      }
    } finally {
      await connection.close();
    }
  });
});

describe('reuse of results', () => {
  it('a second request within 24 hours returns the finished scan with 200 and cached: true', async () => {
    const again = await call(stack.api, '/scans', { token, method: 'POST', body: { url: `${sites.origin}/fast/` } });
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual({
      id: ids.fast,
      status: 'finished',
      url: `${sites.origin}/fast/`,
      cached: true,
      auth_type: null,
      finished_at: ((await call(stack.api, `/scans/${ids.fast}`, { token })).body.data as { finished_at: string })
        .finished_at,
    });
  });

  it('force starts a fresh scan', async () => {
    const forced = await call(stack.api, '/scans', {
      token,
      method: 'POST',
      body: { url: `${sites.origin}/fast/`, force: true },
    });
    expect(forced.status).toBe(202);
    expect((forced.body.data as { id: string; cached: boolean }).cached).toBe(false);
    expect((forced.body.data as { id: string }).id).not.toBe(ids.fast);
    await cancelScans(stack.api, [(forced.body.data as { id: string }).id]);
  });

  it('never reuses an authenticated scan, nor another user’s scan', async () => {
    const auth = await call(stack.api, '/scans', {
      token,
      method: 'POST',
      body: { url: `${sites.origin}/basic/`, auth: { type: 'basic', username: BASIC_USER, password: BASIC_PASSWORD } },
    });
    expect(auth.status).toBe(202);
    expect((auth.body.data as { id: string }).id).not.toBe(ids.basic);
    const other = await createTestUser(stack.api, 'pro');
    const theirs = await call(stack.api, '/scans', {
      token: other.token,
      method: 'POST',
      body: { url: `${sites.origin}/fast/` },
    });
    expect(theirs.status).toBe(202);
    expect((theirs.body.data as { id: string }).id).not.toBe(ids.fast);
    expect((await call(stack.api, `/scans/${ids.fast}`, { token: other.token })).status).toBe(404);
    await cancelScans(stack.api, [(auth.body.data as { id: string }).id, (theirs.body.data as { id: string }).id]);
  });

  it('identical requests arriving together create one scan', async () => {
    const url = `${sites.origin}/fast/?together=1`;
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => call(stack.api, '/scans', { token, method: 'POST', body: { url } })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(202));
    expect(new Set(answers.map((a) => (a.body.data as { id: string }).id)).size).toBe(1);
    expect(await stack.api.db.knex('scans').where({ url })).toHaveLength(1);
    await cancelScans(stack.api, [(answers[0]!.body.data as { id: string }).id]);
  });
});

describe('the report in a real browser', () => {
  it('shows scores, metrics, screenshots, the filmstrip with FCP/LCP marked and grouped findings, through the share link', async () => {
    const { launchBrowser } = await import('../harness/browser.ts');
    const { mkdirSync } = await import('node:fs');
    const { resolve } = await import('node:path');
    const { HARNESS_DIR } = await import('../harness/shared.ts');
    const enabled = await call(stack.api, `/scans/${ids.wp}/share/enable`, { token, method: 'POST' });
    const shareUrl = (enabled.body.data as { share_url: string }).share_url;
    const { browser, close } = await launchBrowser();
    try {
      const page = await browser.newPage();
      await page.setViewport({ width: 1100, height: 900 });
      const res = await page.goto(`${stack.api.url}${new URL(shareUrl).pathname}`, { waitUntil: 'networkidle0' });
      expect(res?.status()).toBe(200);
      expect(await page.$$eval('#scores .score', (els) => els.map((e) => e.getAttribute('data-score')))).toEqual([
        'overall',
        'speed',
        'images',
        'caching',
        'technical',
        'wordpress',
      ]);
      expect(
        await page.$eval('#screenshot-desktop', (img) => (img as unknown as { naturalWidth: number }).naturalWidth),
      ).toBeGreaterThan(100);
      expect(
        await page.$$eval('#filmstrip-desktop .frame img', (imgs) =>
          imgs.every((i) => (i as unknown as { naturalWidth: number }).naturalWidth > 0),
        ),
      ).toBe(true);
      expect(
        await page.$$eval('#filmstrip-desktop .frame.lcp, #filmstrip-desktop .frame.fcp', (els) => els.length),
      ).toBeGreaterThan(0);
      expect(await page.$$eval('#findings .finding', (els) => els.map((e) => e.getAttribute('data-code')))).toEqual(
        expect.arrayContaining(['wordpress.version-exposed', 'wordpress.many-plugins']),
      );
      const dir = resolve(HARNESS_DIR, 'screenshots');
      mkdirSync(dir, { recursive: true });
      await page.screenshot({ path: resolve(dir, 'report-wordpress.png'), fullPage: true });

      await page.setExtraHTTPHeaders({ 'Accept-Language': 'de-DE,de;q=0.9' });
      await page.reload();
      expect(await page.$eval('h1', (h) => h.textContent)).toBe('Performance-Bericht');
      expect(await page.content()).toContain('WordPress-Version sichtbar');
    } finally {
      await close();
    }
    await call(stack.api, `/scans/${ids.wp}/share/disable`, { token, method: 'POST' });
    expect((await fetch(`${stack.api.url}${new URL(shareUrl).pathname}`)).status).toBe(404);
  }, 60_000);

  it('shows a private report only to its signed-in owner, who comes back to it after signing in', async () => {
    const { launchBrowser } = await import('../harness/browser.ts');
    const reportPath = `/reports/${ids.heavy}`;
    expect(results.heavy).toMatchObject({ is_public: false, report_url: `${stack.api.config.baseUrl}${reportPath}` });
    const other = await createTestUser(stack.api, 'pro', 'other-password-1');
    const { browser, close } = await launchBrowser();
    try {
      const signIn = async (page: Page, email: string, password: string) => {
        await page.type('#email', email);
        await page.type('#password', password);
        const [landed] = await Promise.all([page.waitForNavigation(), page.click('#sign-in')]);
        return landed?.status();
      };
      const stranger = await browser.createBrowserContext();
      const page = await stranger.newPage();
      await page.goto(`${stack.api.url}${reportPath}`);
      expect(new URL(page.url()).pathname).toBe('/login');
      expect(await signIn(page, other.user.email, 'other-password-1')).toBe(404);
      expect(new URL(page.url()).pathname).toBe(reportPath);
      expect(await page.content()).not.toContain('Performance report');
      await stranger.close();

      const ownerContext = await browser.createBrowserContext();
      const ownerPage = await ownerContext.newPage();
      await ownerPage.goto(`${stack.api.url}${reportPath}`);
      expect(await signIn(ownerPage, ownerEmail, OWNER_PASSWORD)).toBe(200);
      expect(new URL(ownerPage.url()).pathname).toBe(reportPath);
      await ownerPage.waitForNetworkIdle();
      expect(await ownerPage.$eval('h1', (h) => h.textContent)).toBe('Performance report');
      expect(
        await ownerPage.$eval('#screenshot-mobile', (img) => (img as unknown as { naturalWidth: number }).naturalWidth),
      ).toBeGreaterThan(100);
      expect(
        await ownerPage.$$eval('#findings .finding', (els) => els.map((e) => e.getAttribute('data-code'))),
      ).toContain('images.large-payload');
      await ownerContext.close();

      // Sign-in never leads off the site, whatever `next` says.
      const probe = await browser.createBrowserContext();
      const probePage = await probe.newPage();
      await probePage.goto(`${stack.api.url}/login?next=${encodeURIComponent('//evil.example/x')}`);
      await signIn(probePage, ownerEmail, OWNER_PASSWORD);
      expect(new URL(probePage.url())).toMatchObject({ host: new URL(stack.api.url).host, pathname: '/' });
      await probe.close();
    } finally {
      await close();
    }
  }, 60_000);

  it('serves German findings and summaries to the API by Accept-Language', async () => {
    const de = await call(stack.api, `/scans/${ids.slow}`, { token, headers: { 'accept-language': 'de' } });
    const r = (de.body.data as { result: Result }).result;
    expect(r.summary_short).toMatch(/\/100 insgesamt/);
    expect(r.findings.find((f) => f.code === 'technical.slow-server-response')!.title).toBe('Langsame Serverantwort');
  });
});

describe('logs', () => {
  const lines = (text: string) =>
    text
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);

  it("join a scan's lines from API to worker by its id", () => {
    const id = ids.basic!;
    const apiLines = lines(stack.api.logs()).filter((line) => line.scanId === id);
    const workerLines = lines(stack.worker.output()).filter((line) => line.scanId === id);
    expect(apiLines.filter((line) => line.method === 'POST')).toEqual([
      expect.objectContaining({
        msg: 'request',
        method: 'POST',
        path: '/api/v1/scans',
        status: 202,
        requestId: expect.any(String),
        userId: expect.any(Number),
      }),
    ]);
    // Reading the scan names it too (the test polled it until it ended).
    expect(apiLines).toContainEqual(
      expect.objectContaining({
        msg: 'request',
        method: 'GET',
        path: `/api/v1/scans/${id}`,
        status: 200,
        requestId: expect.any(String),
        userId: expect.any(Number),
      }),
    );
    expect(apiLines.every((line) => line.msg === 'request')).toBe(true);
    expect(workerLines.map((line) => line.msg)).toContain('scan finished');
  });

  it('never contain the credentials of authenticated scans, nor the API token', () => {
    const all = stack.api.logs() + stack.worker.output();
    for (const secret of [BASIC_PASSWORD, HEADER_VALUE, token]) expect(all).not.toContain(secret);
  });
});
