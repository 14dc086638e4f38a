import { request } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { REDACTED } from '../../core/redaction.ts';
import { LIGHTHOUSE_CATEGORIES, type ScanLighthouse } from '../../core/scan/lighthouse-categories.ts';
import { createStorage } from '../../db/store/index.ts';
import {
  BASIC_PASSWORD,
  BASIC_USER,
  HEADER_NAME,
  HEADER_VALUE,
  startFixtureSites,
  type FixtureSites,
} from '../../fixtures/sites.ts';
import { sweepExpiredLighthouseReports } from '../../services/lighthouse-reports.ts';
import { call, createTestUser } from '../harness/api.ts';
import { launchBrowser, signedInPage } from '../harness/browser.ts';
import { startScanStack, waitForScan, type ScanDetail, type ScanStack } from '../harness/scans.ts';
import { rawRequest, WebClient } from '../harness/web.ts';

/**
 * The whole Lighthouse result of a scan, end to end: the API starts real scans, the real worker process runs
 * Lighthouse in Chromium on fixture pages, keeps the median run's result per form factor (scrubbed of the
 * credentials of an authenticated scan, compressed) and the API and the report pages hand it out as JSON and
 * as Lighthouse's own HTML report, to whoever may see the scan; the retention sweep deletes it by plan.
 */
let stack: ScanStack;
let sites: FixtureSites;
let owner: { token: string; email: string; id: number };
let second: { token: string; email: string; id: number };
const PASSWORD = 'owner-password-1';
const scans: Record<'fast' | 'basic' | 'header', ScanDetail> = {} as never;

interface RunRecord {
  fcp_ms: number;
  interactive_ms: number;
  benchmark_index: number | null;
  median: boolean;
}
interface Lhr {
  lighthouseVersion: string;
  requestedUrl: string;
  finalDisplayedUrl: string;
  configSettings: { formFactor: string };
  categories: Record<string, { score: number | null }> & { performance: { score: number } };
  environment: { benchmarkIndex: number };
  audits: Record<
    string,
    { score?: number | null; numericValue?: number; details?: { items?: Array<{ url?: string }> } }
  >;
}

/** A GET answered as bytes, with the headers sent (node:http: no decompression of its own). */
function getBytes(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((done, reject) => {
    const req = request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => done({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

const apiUrl = (id: string, factor: string) => `${stack.api.url}/api/v1/scans/${id}/lighthouse/${factor}`;
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function downloadLhr(id: string, factor: string, token = owner.token): Promise<{ text: string; lhr: Lhr }> {
  const res = await getBytes(apiUrl(id, factor), bearer(token));
  expect(res.status).toBe(200);
  const text = res.body.toString('utf8');
  return { text, lhr: JSON.parse(text) as Lhr };
}

async function signedIn(email: string): Promise<WebClient> {
  const client = new WebClient(stack.api.url, stack.api.config.baseUrl);
  expect((await client.signIn(email, PASSWORD)).status).toBe(303);
  return client;
}

beforeAll(async () => {
  sites = await startFixtureSites();
  stack = await startScanStack();
  const a = await createTestUser(stack.api, 'pro', PASSWORD);
  const b = await createTestUser(stack.api, 'pro', PASSWORD);
  owner = { token: a.token, email: a.user.email, id: a.user.id };
  second = { token: b.token, email: b.user.email, id: b.user.id };
  const submit = async (token: string, body: Record<string, unknown>) => {
    const res = await call(stack.api, '/scans', { token, method: 'POST', body });
    if (res.status !== 202) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
    return (res.body.data as { id: string }).id;
  };
  const ids = {
    // Two runs: the result kept is the median run's.
    fast: await submit(owner.token, { url: `${sites.origin}/fast/`, runs: 2 }),
    basic: await submit(owner.token, {
      url: `${sites.origin}/echo-auth/`,
      auth: { type: 'basic', username: BASIC_USER, password: BASIC_PASSWORD },
    }),
    header: await submit(second.token, {
      url: `${sites.origin}/echo-auth/`,
      auth: { type: 'header', header_name: HEADER_NAME, header_value: HEADER_VALUE },
    }),
  };
  scans.fast = await waitForScan(stack.api, owner.token, ids.fast);
  scans.basic = await waitForScan(stack.api, owner.token, ids.basic);
  scans.header = await waitForScan(stack.api, second.token, ids.header);
}, 600_000);

afterAll(async () => {
  await stack?.close();
  await sites?.close();
});

describe('a finished scan', () => {
  it('has stored both form factors’ Lighthouse results, compressed', async () => {
    for (const scan of Object.values(scans)) expect(scan.status).toBe('finished');
    const rows = (await stack.api.db
      .knex('scan_lighthouse_reports as r')
      .join('scans as s', 's.id', 'r.scan_id')
      .where('s.public_id', scans.fast.public_id)
      .orderBy('r.form_factor')
      .select('r.form_factor', 'r.content', 'r.json_bytes')) as Array<{
      form_factor: string;
      content: Buffer;
      json_bytes: number;
    }>;
    expect(rows.map((r) => r.form_factor)).toEqual(['desktop', 'mobile']);
    for (const row of rows) {
      const json = gunzipSync(row.content);
      expect(json.length).toBe(row.json_bytes);
      expect(row.content.length).toBeLessThan(row.json_bytes);
      expect(JSON.parse(json.toString()).lighthouseVersion).toMatch(/^\d+\.\d+\.\d+/);
    }
  });

  it('gives its owner each result as a JSON download: a valid result of the scanned page, of the median run', async () => {
    const result = scans.fast.result as { final_url: string; runs: Record<'desktop' | 'mobile', RunRecord[]> };
    for (const factor of ['desktop', 'mobile'] as const) {
      const res = await getBytes(apiUrl(scans.fast.public_id, factor), bearer(owner.token));
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.headers['content-disposition']).toBe(
        `attachment; filename="${scans.fast.public_id}-${factor}.lighthouse.json"`,
      );
      expect(res.headers['content-encoding']).toBeUndefined();
      const lhr = JSON.parse(res.body.toString()) as Lhr;
      expect(lhr.lighthouseVersion).toMatch(/^13\./);
      expect(lhr.finalDisplayedUrl).toBe(result.final_url);
      expect(lhr.finalDisplayedUrl).toBe(`${sites.origin}/fast/`);
      expect(lhr.configSettings.formFactor).toBe(factor);
      // The run the scan's values come from: its FCP, TTI and benchmark index are the median run's.
      const runs = result.runs[factor];
      expect(runs).toHaveLength(2);
      const fingerprint = (run: RunRecord) => [run.fcp_ms, run.interactive_ms, run.benchmark_index];
      const stored = [
        Math.round(lhr.audits['first-contentful-paint']!.numericValue!),
        Math.round(lhr.audits.interactive!.numericValue!),
        Math.round(lhr.environment.benchmarkIndex),
      ];
      const median = runs.find((run) => run.median)!;
      expect(stored).toEqual(fingerprint(median));
      const other = runs.find((run) => !run.median)!;
      if (JSON.stringify(fingerprint(other)) !== JSON.stringify(fingerprint(median)))
        expect(stored).not.toEqual(fingerprint(other));

      // Clients that take gzip get the stored bytes as they are.
      const zipped = await getBytes(apiUrl(scans.fast.public_id, factor), {
        ...bearer(owner.token),
        'accept-encoding': 'gzip',
      });
      expect(zipped.headers['content-encoding']).toBe('gzip');
      expect(JSON.parse(gunzipSync(zipped.body).toString())).toEqual(lhr);
    }
  });

  it('answers 401 without a token, 404 to another account, for an unknown scan or form factor', async () => {
    const id = scans.fast.public_id;
    const anonymous = await getBytes(apiUrl(id, 'desktop'));
    expect(anonymous.status).toBe(401);
    expect(JSON.parse(anonymous.body.toString())).toEqual({ message: 'Unauthenticated.' });
    const other = await getBytes(apiUrl(id, 'desktop'), bearer(second.token));
    expect(other.status).toBe(404);
    expect(JSON.parse(other.body.toString())).toEqual({ message: 'Not found.' });
    expect((await getBytes(apiUrl(id, 'tablet'), bearer(owner.token))).status).toBe(404);
    expect((await getBytes(apiUrl('0'.repeat(26), 'desktop'), bearer(owner.token))).status).toBe(404);
    // The second account's own scan is theirs to download.
    expect((await getBytes(apiUrl(scans.header.public_id, 'mobile'), bearer(second.token))).status).toBe(200);
  });

  it('answers 403 to a plan without the API', async () => {
    const free = await createTestUser(stack.api, 'free');
    const res = await getBytes(apiUrl(scans.fast.public_id, 'desktop'), bearer(free.token));
    expect(res.status).toBe(403);
  });

  it('is in the OpenAPI document as an extension with its 401, 403 and 404', async () => {
    const doc = (await call(stack.api, '/openapi.json')).body as {
      paths: Record<string, Record<string, { 'x-extension'?: boolean; responses: Record<string, unknown> }>>;
    };
    const operation = doc.paths['/scans/{id}/lighthouse/{form_factor}']!.get!;
    expect(operation['x-extension']).toBe(true);
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['200', '401', '403', '404']));
  });
});

describe('Lighthouse’s four categories', () => {
  const storedLhr = async (id: string, factor: string): Promise<Lhr> => {
    const row = (await stack.api.db
      .knex('scan_lighthouse_reports as r')
      .join('scans as s', 's.id', 'r.scan_id')
      .where({ 's.public_id': id, 'r.form_factor': factor })
      .first('r.content')) as { content: Buffer };
    return JSON.parse(gunzipSync(row.content).toString()) as Lhr;
  };
  const expected = (lhr: Lhr) =>
    Object.fromEntries(
      LIGHTHOUSE_CATEGORIES.map((c) => {
        const score = lhr.categories[c.id]!.score;
        return [c.key, score === null ? null : Math.round(score * 100)];
      }),
    );

  it('are stored with the result as Lighthouse’s own JSON of the same run has them, and the API gives them', async () => {
    const row = (await stack.api.db
      .knex('scans')
      .where({ public_id: scans.fast.public_id })
      .first(stack.api.db.knex.raw("result->'lighthouse' as lighthouse"))) as { lighthouse: ScanLighthouse };
    const api = (
      scans.fast.result as {
        lighthouse: { categories: ScanLighthouse['categories']; failed_audits: Array<{ id: string }> };
      }
    ).lighthouse;
    for (const factor of ['desktop', 'mobile'] as const) {
      const lhr = await storedLhr(scans.fast.public_id, factor);
      expect(Object.keys(lhr.categories).sort()).toEqual(LIGHTHOUSE_CATEGORIES.map((c) => c.id).sort());
      expect(row.lighthouse.categories[factor]).toEqual(expected(lhr));
      expect(api.categories[factor]).toEqual(expected(lhr));
      for (const value of Object.values(api.categories[factor])) expect(value).toEqual(expect.any(Number));
      // The fixture page has no meta description: Lighthouse fails it, and the result lists it.
      expect(lhr.audits['meta-description']!.score).toBe(0);
    }
    expect(api.failed_audits.map((f) => f.id)).toContain('meta-description');
  });

  it('are on the report and its share page, each form factor’s four beside ours', async () => {
    const id = scans.fast.public_id;
    const lhr = { desktop: await storedLhr(id, 'desktop'), mobile: await storedLhr(id, 'mobile') };
    const shows = (page: string) => {
      expect(page).toContain('id="which-scores"');
      for (const factor of ['desktop', 'mobile'] as const) {
        const row = page.slice(page.indexOf(`<tr data-form-factor="${factor}">`));
        for (const [key, value] of Object.entries(expected(lhr[factor])))
          expect(row.slice(row.indexOf(`data-category="${key}"`))).toMatch(
            new RegExp(`^data-category="${key}" data-value="${value}"`),
          );
      }
      expect(page).toContain('data-audit="meta-description"');
    };
    const client = await signedIn(owner.email);
    shows((await client.get(`/reports/${id}`)).text);
    const shared = await call(stack.api, `/scans/${id}/share/enable`, { token: owner.token, method: 'POST', body: {} });
    try {
      const sharePath = new URL((shared.body.data as { share_url: string }).share_url).pathname;
      const page = await rawRequest(`${stack.api.url}${sharePath}`);
      expect(page.status).toBe(200);
      shows(page.text);
    } finally {
      await call(stack.api, `/scans/${id}/share/disable`, { token: owner.token, method: 'POST', body: {} });
    }
  });
});

describe('the results of authenticated scans', () => {
  it('keep neither the password nor the header value, which the page echoed into its text and URLs', async () => {
    const cases = [
      {
        scan: scans.basic,
        token: owner.token,
        secrets: [
          BASIC_PASSWORD,
          encodeURIComponent(BASIC_PASSWORD),
          Buffer.from(`${BASIC_USER}:${BASIC_PASSWORD}`).toString('base64'),
        ],
      },
      { scan: scans.header, token: second.token, secrets: [HEADER_VALUE, encodeURIComponent(HEADER_VALUE)] },
    ];
    for (const { scan, token, secrets } of cases) {
      const rows = (await stack.api.db
        .knex('scan_lighthouse_reports as r')
        .join('scans as s', 's.id', 'r.scan_id')
        .where('s.public_id', scan.public_id)
        .select('r.content')) as Array<{ content: Buffer }>;
      expect(rows).toHaveLength(2);
      for (const factor of ['desktop', 'mobile']) {
        const { text, lhr } = await downloadLhr(scan.public_id, factor, token);
        for (const secret of secrets) expect(text).not.toContain(secret);
        // The page did put it in its request URLs, and Lighthouse recorded them: the scrub is what kept it out.
        const urls = (lhr.audits['network-requests']!.details!.items ?? []).map((item) => item.url ?? '');
        expect(urls).toContain(`${sites.origin}/echo-auth/style.css?key=${REDACTED}`);
        expect(text).toContain(`Signed in with ${REDACTED}`);
      }
      for (const row of rows) {
        const stored = gunzipSync(row.content).toString();
        for (const secret of secrets) expect(stored).not.toContain(secret);
      }
    }
  });
});

describe('the report pages', () => {
  const webUrl = (path: string) => `${stack.api.url}${path}`;

  it('link to both results, and show Lighthouse’s HTML report with a policy of its own', async () => {
    const client = await signedIn(owner.email);
    const id = scans.fast.public_id;
    const report = await client.get(`/reports/${id}`);
    expect(report.status).toBe(200);
    expect(report.text).toContain(`href="/reports/${id}/lighthouse/desktop"`);
    expect(report.text).toContain(`href="/reports/${id}/lighthouse/mobile.json"`);
    // The site's own pages keep the site's policy: no inline scripts.
    expect(String(report.headers['content-security-policy'])).toContain("script-src 'self'");

    const page = await client.get(`/reports/${id}/lighthouse/desktop`);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.text).toContain('window.__LIGHTHOUSE_JSON__ = ');
    expect(page.text).toContain('__initLighthouseReport__()');
    expect(page.text).toContain(`"finalDisplayedUrl":"${sites.origin}/fast/"`);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toMatch(/script-src 'sha256-[^;]+'/);
    expect(csp).toMatch(/sandbox allow-scripts/);
    expect(csp).not.toMatch(/allow-same-origin/);
    expect(page.headers['referrer-policy']).toBe('no-referrer');

    const json = await client.get(`/reports/${id}/lighthouse/mobile.json`);
    expect(json.status).toBe(200);
    expect(json.headers['content-disposition']).toBe(`attachment; filename="${id}-mobile.lighthouse.json"`);
    expect((JSON.parse(json.text) as Lhr).configSettings.formFactor).toBe('mobile');
    expect((await client.get(`/reports/${id}/lighthouse/tablet`)).status).toBe(404);
  });

  it('render Lighthouse’s report in a real browser under that policy, with no violation', async () => {
    // The performance gauge's number (Lighthouse 13 draws the performance category with its newer gauge).
    const GAUGE = '.lh-category .lh-exp-gauge__percentage, .lh-category .lh-gauge__percentage';
    const { browser, close } = await launchBrowser();
    try {
      const page = await signedInPage(browser, stack.api.url, owner.email, PASSWORD, { javascript: true });
      const messages: string[] = [];
      page.on('console', (message) => messages.push(message.text()));
      await page.goto(webUrl(`/reports/${scans.fast.public_id}/lighthouse/mobile`));
      await page.waitForSelector(GAUGE, { timeout: 30_000 });
      // Lighthouse's renderer drew the performance gauge of the stored result.
      const shown = await page.$eval(GAUGE, (el) => el.textContent);
      const { lhr } = await downloadLhr(scans.fast.public_id, 'mobile');
      expect(Number(shown)).toBe(Math.round(lhr.categories.performance.score * 100));
      expect(messages.filter((m) => /Content Security Policy|Refused to/i.test(m))).toEqual([]);
    } finally {
      await close();
    }
  });

  it('follow the report’s access rules: sign-in without a session, 404 to another account, the share link while on', async () => {
    const id = scans.fast.public_id;
    const anonymous = await rawRequest(webUrl(`/reports/${id}/lighthouse/desktop`));
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.location).toBe(`/login?next=${encodeURIComponent(`/reports/${id}/lighthouse/desktop`)}`);
    expect((await rawRequest(webUrl(`/reports/${id}/lighthouse/desktop.json`))).status).toBe(302);
    const other = await signedIn(second.email);
    expect((await other.get(`/reports/${id}/lighthouse/desktop`)).status).toBe(404);
    expect((await other.get(`/reports/${id}/lighthouse/desktop.json`)).status).toBe(404);

    const shared = await call(stack.api, `/scans/${id}/share/enable`, { token: owner.token, method: 'POST', body: {} });
    const sharePath = new URL((shared.body.data as { share_url: string }).share_url).pathname;
    const sharePage = await rawRequest(webUrl(sharePath));
    expect(sharePage.text).toContain(`href="${sharePath}/lighthouse/desktop"`);
    const viaShare = await rawRequest(webUrl(`${sharePath}/lighthouse/desktop`));
    expect(viaShare.status).toBe(200);
    expect(viaShare.text).toContain('__initLighthouseReport__()');
    expect(viaShare.headers['referrer-policy']).toBe('no-referrer');
    expect((await rawRequest(webUrl(`${sharePath}/lighthouse/mobile.json`))).status).toBe(200);
    await call(stack.api, `/scans/${id}/share/disable`, { token: owner.token, method: 'POST', body: {} });
    expect((await rawRequest(webUrl(`${sharePath}/lighthouse/desktop`))).status).toBe(404);
    expect((await rawRequest(webUrl(`${sharePath}/lighthouse/mobile.json`))).status).toBe(404);
  });
});

describe('retention', () => {
  it('deletes each result after its owner’s plan’s days, and the report says it is no longer kept', async () => {
    const storage = createStorage(stack.api.db.knex);
    const count = async (id: string) =>
      Number(
        (
          (await stack.api.db
            .knex('scan_lighthouse_reports as r')
            .join('scans as s', 's.id', 'r.scan_id')
            .where('s.public_id', id)
            .count('* as n')
            .first()) as { n: string }
        ).n,
      );
    const day = 24 * 3600_000;
    const now = Date.now();
    // The owner moves to Free (7 days); the second account stays on Pro (90 days).
    await storage.users.setPlan(owner.id, 'free', new Date());
    expect(await sweepExpiredLighthouseReports(storage.lighthouseReports, new Date(now + 6 * day))).toBe(0);
    expect(await count(scans.fast.public_id)).toBe(2);
    expect(await sweepExpiredLighthouseReports(storage.lighthouseReports, new Date(now + 8 * day))).toBe(4);
    expect(await count(scans.fast.public_id)).toBe(0);
    expect(await count(scans.basic.public_id)).toBe(0);
    expect(await count(scans.header.public_id)).toBe(2);
    expect(await sweepExpiredLighthouseReports(storage.lighthouseReports, new Date(now + 91 * day))).toBe(2);
    expect(await count(scans.header.public_id)).toBe(0);

    expect((await getBytes(apiUrl(scans.header.public_id, 'desktop'), bearer(second.token))).status).toBe(404);
    const client = await signedIn(owner.email);
    const report = await client.get(`/reports/${scans.fast.public_id}`);
    expect(report.status).toBe(200);
    expect(report.text).toContain('is not available for this scan');
    expect(report.text).not.toContain('/lighthouse/desktop');
    expect((await client.get(`/reports/${scans.fast.public_id}/lighthouse/desktop`)).status).toBe(404);
    // The scan itself is kept.
    expect((await call(stack.api, `/scans/${scans.header.public_id}`, { token: second.token })).status).toBe(200);
  });
});
