import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { utcDay } from '../../core/clock.ts';
import { PROJECT_ROOT } from '../../infra/config.ts';
import { newPublicId } from '../../core/ids.ts';
import { PLANS } from '../../core/plans.ts';
import type { User } from '../../core/user.ts';
import { createStorage } from '../../db/store/index.ts';
import { startFixtureSites, type FixtureSites } from '../../fixtures/sites.ts';
import { createTestUser } from '../harness/api.ts';
import { startScanStack, type ScanStack } from '../harness/scans.ts';

/**
 * The webperf command as a CI job runs it (its own process, the public API only, WEBPERF_URL and WEBPERF_TOKEN)
 * against the real API and a worker scanning fixture pages in Chromium.
 */
let stack: ScanStack;
let sites: FixtureSites;
let token: string;
let user: User;
const scratch = mkdtempSync(join(tmpdir(), 'webperf-cli-'));
beforeAll(async () => {
  sites = await startFixtureSites();
  stack = await startScanStack();
  ({ token, user } = await createTestUser(stack.api, 'pro'));
}, 120_000);
afterAll(async () => {
  await stack?.close();
  await sites?.close();
  rmSync(scratch, { recursive: true, force: true });
});

function webperf(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [resolve(PROJECT_ROOT, 'client/cli/webperf.ts'), ...args], {
    env: { PATH: process.env.PATH, WEBPERF_URL: stack.api.url, WEBPERF_TOKEN: token, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((done) => child.on('close', (code) => done({ code, stdout, stderr })));
}

it('a fast page passes its budget: exit 0, scores and metrics printed, JUnit with one case per budget', async () => {
  const junit = join(scratch, 'fast.xml');
  const run = await webperf([
    'scan',
    `${sites.origin}/fast/`,
    '--budget',
    'overall=50,ttfb=1000,lcp=20000,cls=0.25',
    '--format',
    'junit',
    '--output',
    junit,
  ]);
  expect(run.stderr).toMatch(/scan [0-9a-z]{26}: (queued|running|finished)/);
  expect(run.code).toBe(0);
  expect(run.stdout).toMatch(/Scores: overall \d+/);
  expect(run.stdout).toMatch(/mobile +FCP \d+ ms · LCP \d+ ms/);
  expect(run.stdout).toContain('All 6 budgets hold.');
  const xml = readFileSync(junit, 'utf8');
  expect(XMLValidator.validate(xml)).toBe(true);
  const parsed = new XMLParser({ ignoreAttributes: false, isArray: (name) => name === 'testcase' }).parse(xml) as {
    testsuites: {
      testsuite: { '@_tests': string; '@_failures': string; testcase: Array<{ '@_name': string; failure?: unknown }> };
    };
  };
  const suite = parsed.testsuites.testsuite;
  expect(suite['@_tests']).toBe('6');
  expect(suite['@_failures']).toBe('0');
  expect(suite.testcase.map((c) => c['@_name'])).toEqual([
    'overall >= 50',
    'ttfb <= 1000 ms',
    'lcp (desktop) <= 20000 ms',
    'lcp (mobile) <= 20000 ms',
    'cls (desktop) <= 0.25',
    'cls (mobile) <= 0.25',
  ]);
  expect(suite.testcase.every((c) => c.failure === undefined)).toBe(true);

  // Inside GitHub Actions with the XML on stdout (the result reused: same URL, under 24 hours), stdout is the XML
  // alone and the annotations are on stderr.
  const actions = await webperf(
    ['scan', `${sites.origin}/fast/`, '--budget', 'overall=50', '--format', 'junit', '--quiet'],
    { GITHUB_ACTIONS: 'true' },
  );
  expect(actions.code).toBe(0);
  expect(XMLValidator.validate(actions.stdout)).toBe(true);
  expect(actions.stdout).not.toContain('::');
  expect(actions.stderr).toMatch(/^::notice title=webperf::overall \d+; report http/m);
}, 240_000);

let timedOutScan: string;
it('--timeout running out: one line with the scan id, the wait, that it still runs and where; exit 2, no usage text', async () => {
  // The slow page (TTFB over a second per load) cannot be measured within a second; the next test's scan of it
  // picks this scan up, so it costs no Lighthouse run of its own.
  const run = await webperf(['scan', `${sites.origin}/slow/`, '--timeout', '1', '--quiet']);
  expect(run.code).toBe(2);
  expect(run.stdout).toBe('');
  const line =
    /^webperf: gave up waiting for scan ([0-9a-z]{26}) after \d+ s \(--timeout 1\); it is still (queued|running) on the service: see (http\S+) \(the same command again, without --force, picks up this scan or its result\)\n$/.exec(
      run.stderr,
    );
  expect(line).not.toBeNull();
  timedOutScan = line![1]!;
  expect(line![3]).toContain(timedOutScan);
  expect(run.stderr).not.toContain('Usage:');
}, 60_000);

it('a slow page fails it: exit 1, each failing metric named with its value and limit, annotations inside GitHub Actions', async () => {
  const run = await webperf(
    ['scan', `${sites.origin}/slow/`, '--budget', 'ttfb=1000,overall=0', '--form-factor', 'mobile', '--format', 'json'],
    { GITHUB_ACTIONS: 'true' },
  );
  expect(run.code).toBe(1);
  // stdout is the JSON report alone; the workflow commands go to stderr (the runner reads both).
  const report = JSON.parse(run.stdout) as {
    scan: string;
    passed: boolean;
    budgets: Array<{ name: string; value: number; limit: number; passed: boolean }>;
  };
  expect(report.passed).toBe(false);
  expect(report.scan).toBe(timedOutScan);
  const ttfb = report.budgets.find((b) => b.name === 'ttfb')!;
  expect(ttfb).toMatchObject({ limit: 1000, passed: false });
  expect(ttfb.value).toBeGreaterThan(1000);
  expect(report.budgets.find((b) => b.name === 'overall')!.passed).toBe(true);
  expect(run.stderr).toMatch(
    /^::error title=Performance budget::ttfb \d+ ms exceeds 1000 ms on http:\/\/127\.0\.0\.1:\d+\/slow\/$/m,
  );
  expect(run.stderr).toMatch(/^::notice title=webperf::overall \d+; report http/m);
}, 240_000);

/** The fast and the slow page's scans (the results of the tests above, reused). */
let ids: string[];
it('compares two scans, and fails when B regressed beyond --max-regression', async () => {
  ids = await Promise.all(
    ['/fast/', '/slow/'].map(async (path) => {
      const run = await webperf(['scan', `${sites.origin}${path}`, '--format', 'json', '--quiet']);
      return (JSON.parse(run.stdout) as { scan: string }).scan;
    }),
  );
  const same = await webperf(['compare', ids[0]!, ids[0]!, '--max-regression', 'ttfb=100']);
  expect(same.code).toBe(0);
  expect(same.stdout).toContain('No regression beyond the limits.');
  const worse = await webperf(['compare', ids[0]!, ids[1]!, '--max-regression', 'ttfb=100']);
  expect(worse.code).toBe(1);
  expect(worse.stdout).toMatch(/^ttfb +\d+ ms → \d+ ms +worse by \d+ ms +FAIL: more than 100 ms worse$/m);
  const inActions = await webperf(['compare', ids[0]!, ids[1]!, '--max-regression', 'ttfb=100', '--format', 'json'], {
    GITHUB_ACTIONS: 'true',
  });
  expect(inActions.code).toBe(1);
  expect((JSON.parse(inActions.stdout) as { passed: boolean }).passed).toBe(false);
  expect(inActions.stderr).toMatch(
    /^::error title=Performance regression::ttfb regressed by \d+(\.\d+)? \(limit 100\)$/m,
  );
}, 240_000);

it("compares against a target's median: target:ID over its last --last N finished scheduled scans", async () => {
  const [fastId, slowId] = ids as [string, string];
  const created = await fetch(`${stack.api.url}/api/v1/domains`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url: `${sites.origin}/median/` }),
  });
  expect(created.status).toBe(201);
  const target = ((await created.json()) as { data: { id: number } }).data;
  // Its scheduled scans, stored as its daily schedule would store them, finished with the real results of the
  // fast and the slow page (no Lighthouse run): oldest to newest fast, fast, slow. The median of the three is
  // the fast page's result, the newest alone the slow page's.
  const storage = createStorage(stack.api.db.knex);
  const resultOf = async (id: string) => (await storage.scans.findOwned(user.id, id))!.result!;
  const [fast, slow] = [await resultOf(fastId), await resultOf(slowId)];
  const first = Date.now() - 30 * 60_000;
  for (const [i, result] of [fast, fast, slow].entries()) {
    const at = new Date(first + i * 60_000);
    const scan = await storage.targets.dispatchScan(target.id, { publicId: newPublicId(at), requestedAt: at, runs: 1 });
    expect(await storage.scans.markFinished(scan!.publicId, result, at)).toBe(true);
  }

  const same = await webperf([
    'compare',
    `target:${target.id}`,
    fastId,
    '--max-regression',
    'ttfb=100',
    '--format',
    'json',
  ]);
  expect(same.code).toBe(0);
  const comparison = JSON.parse(same.stdout) as {
    a: string;
    b: string;
    passed: boolean;
    rows: Array<{ name: string; a: number; b: number; verdict: string }>;
  };
  expect(comparison).toMatchObject({ a: `target ${target.id} (median of 3 scans)`, b: `scan ${fastId}`, passed: true });
  // Every score and metric the fast page's own (a mean would sit between the fast and the slow page).
  expect(comparison.rows.filter((row) => row.verdict !== 'same' || row.a !== row.b)).toEqual([]);

  const worse = await webperf(['compare', `target:${target.id}`, slowId, '--max-regression', 'ttfb=100']);
  expect(worse.code).toBe(1);
  expect(worse.stdout).toContain(`A: target ${target.id} (median of 3 scans)\nB: scan ${slowId}\n`);
  expect(worse.stdout).toMatch(/^ttfb +\d+ ms → \d+ ms +worse by \d+ ms +FAIL: more than 100 ms worse$/m);

  const newest = await webperf([
    'compare',
    `target:${target.id}`,
    slowId,
    '--last',
    '1',
    '--max-regression',
    'ttfb=100',
  ]);
  expect(newest.code).toBe(0);
  expect(newest.stdout).toContain(`A: target ${target.id} (median of 1 scan)\n`);
  expect(newest.stdout).toContain('No regression beyond the limits.');

  const unknown = await webperf(['compare', 'target:999999999', fastId]);
  expect(unknown.code).toBe(2);
  expect(unknown.stderr).toBe('webperf: no target 999999999 (see webperf targets)\n');
});

it("a bad token exits 2 with the API's 401 message; bad usage exits 2 and explains", async () => {
  const run = await webperf(['scan', `${sites.origin}/fast/`], { WEBPERF_TOKEN: 'wpt_not-a-real-token-000000000000' });
  expect(run.code).toBe(2);
  expect(run.stderr).toContain('the API answered 401: Unauthenticated.');
  const usage = await webperf(['scan', `${sites.origin}/fast/`, '--budget', 'speedindex=3']);
  expect(usage.code).toBe(2);
  expect(usage.stderr).toContain('unknown budget "speedindex"');
  expect(usage.stderr).toContain('Usage:\n  webperf scan URL');
  expect((await webperf(['scan', `${sites.origin}/fast/`, '--bogus'])).code).toBe(2);
});

it("reports the daily limit's 429 with its reset time, exit 2, without waiting for it", async () => {
  const limited = await createTestUser(stack.api, 'starter');
  const { day, resetAt } = utcDay(stack.api.clock.read());
  await stack.api.db.knex('api_usage_daily').insert({ user_id: limited.user.id, day, used: 500 });
  const run = await webperf(['targets'], { WEBPERF_TOKEN: limited.token });
  expect(run.code).toBe(2);
  expect(run.stderr).toContain('the API answered 429: Daily API request limit exceeded.');
  expect(run.stderr).toContain(
    `the daily API request limit (500 requests a day) resets at ${resetAt.toISOString()} (Retry-After: `,
  );
});

it("reports the hourly scan limit's 429 as that limit, with its own message and when it lets the next scan through", async () => {
  const limited = await createTestUser(stack.api, 'starter');
  // The hour filled by scans stored directly (nothing runs): the next POST /scans is over the limit.
  const oldest = new Date(Math.floor(Date.now() / 1000) * 1000 - 10 * 60_000);
  const scans = createStorage(stack.api.db.knex).scans;
  for (let i = 0; i < PLANS.starter.hourlyScanLimit; i++) {
    const requestedAt = new Date(oldest.getTime() + i * 1000);
    await scans.insert({
      publicId: newPublicId(requestedAt),
      userId: limited.user.id,
      url: `${sites.origin}/fast/?n=${i}`,
      host: new URL(sites.origin).host,
      region: stack.api.config.regions.default,
      isPublic: false,
      authType: null,
      authSecret: null,
      cacheKey: null,
      requestedAt,
    });
  }
  const run = await webperf(['scan', `${sites.origin}/fast/`], { WEBPERF_TOKEN: limited.token });
  expect(run.code).toBe(2);
  expect(run.stderr).toContain(
    `the API answered 429: Hourly scan limit reached (${PLANS.starter.hourlyScanLimit} scans per hour on your plan).`,
  );
  expect(run.stderr).toContain(
    `the hourly scan limit (${PLANS.starter.hourlyScanLimit} scans per hour) allows the next scan at ${new Date(oldest.getTime() + 3_600_000).toISOString()} (Retry-After: `,
  );
  expect(run.stderr).not.toMatch(/daily/i);
  expect(run.stderr).not.toContain('Usage:');
});

it('lists targets and alerts for scripts, and marks alerts read', async () => {
  const created = await fetch(`${stack.api.url}/api/v1/domains`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url: `${sites.origin}/fast/` }),
  });
  expect(created.status).toBe(201);
  const targets = await webperf(['targets', '--format', 'json']);
  expect(targets.code).toBe(0);
  expect((JSON.parse(targets.stdout) as Array<{ url: string }>).map((t) => t.url)).toContain(`${sites.origin}/fast/`);
  const alerts = await webperf(['alerts', '--unread']);
  expect(alerts).toMatchObject({ code: 0, stdout: '' });
  const marked = await webperf(['alerts', 'mark-read']);
  expect(marked).toMatchObject({ code: 0, stdout: '0 alerts marked read\n' });
});
