import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
  // The command's subject is the API and its verdicts, not Lighthouse: recorded runs of the fixture pages
  // (fixtures/replay-runner.ts; the slow page is still fetched and still takes its 1.5 s).
  stack = await startScanStack({ runner: 'replay' });
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

it('--config budgets per URL pattern, --baseline scan:ID verdicts, and the Markdown summary (--summary, $GITHUB_STEP_SUMMARY)', async () => {
  const [fastId] = ids as [string, string];
  const config = join(scratch, 'webperf.json');
  // Only the /slow/ pattern matches the slow page: the fast pages' impossible TTFB budget does not apply to it.
  writeFileSync(
    config,
    JSON.stringify({
      budgets: [
        { url: `${sites.origin}/fast/**`, budget: { ttfb: 1 } },
        { url: `${sites.origin}/slow/*`, budget: { ttfb: 100_000, overall: 0 } },
      ],
    }),
  );
  const summary = join(scratch, 'summary.md');
  // The slow page's result of the tests above is reused (same URL, under 24 hours): no Lighthouse run.
  const slower = await webperf(
    ['scan', `${sites.origin}/slow/`, '--config', config, '--baseline', `scan:${fastId}`, '--summary', summary],
    { GITHUB_ACTIONS: 'true' },
  );
  expect(slower.code).toBe(1);
  expect(slower.stdout).toContain('All 2 budgets hold.');
  expect(slower.stdout).toContain(`Against scan ${fastId}:`);
  // One run against one run: the default noise band decides; the slow page's TTFB is over a second later.
  expect(slower.stdout).toMatch(/^ {2}ttfb +\d+ ms → \d+ ms +WORSE {2}\(noise band ±\d+ ms \(default\)\)$/m);
  expect(slower.stdout).toMatch(/^\d+ metrics? significantly worse\.$/m);
  expect(slower.stderr).toMatch(
    new RegExp(
      `^::error title=Performance regression::ttfb significantly worse than scan ${fastId} on http://127\\.0\\.0\\.1:\\d+/slow/ \\(noise band ±\\d+ ms \\(default\\)\\)$`,
      'm',
    ),
  );
  const markdown = readFileSync(summary, 'utf8');
  expect(markdown).toContain(`### webperf: ${sites.origin}/slow/`);
  expect(markdown).toMatch(/^\| ttfb \d+ ms ≤ 100000 ms \| ✅ pass \|$/m);
  expect(markdown).toContain(`Against scan ${fastId}:`);
  expect(markdown).toMatch(/^\| ttfb \| \d+ ms \| \d+ ms \| ❌ worse \| noise band ±\d+ ms \(default\) \|$/m);

  // The fast page under the same config: its pattern's TTFB budget of 1 ms fails, in JSON with the verdicts.
  const fast = await webperf(['scan', `${sites.origin}/fast/`, '--config', config, '--format', 'json', '--quiet']);
  expect(fast.code).toBe(1);
  const report = JSON.parse(fast.stdout) as { budgets: Array<{ name: string; limit: number; passed: boolean }> };
  expect(report.budgets).toEqual([expect.objectContaining({ name: 'ttfb', limit: 1, passed: false })]);

  // Against itself: no significant change anywhere, exit 0; inside GitHub Actions the summary goes to the step summary.
  const stepSummary = join(scratch, 'step-summary.md');
  writeFileSync(stepSummary, '# earlier step\n');
  const same = await webperf(['scan', `${sites.origin}/fast/`, '--baseline', `scan:${fastId}`, '--format', 'json'], {
    GITHUB_ACTIONS: 'true',
    GITHUB_STEP_SUMMARY: stepSummary,
  });
  expect(same.code).toBe(0);
  const verdicts = (JSON.parse(same.stdout) as { verdicts: Array<{ name: string; verdict: string; rule: string }> })
    .verdicts;
  expect(verdicts.map((v) => v.name)).toEqual(
    expect.arrayContaining(['overall', 'ttfb', 'lcp (mobile)', 'cls (desktop)']),
  );
  expect(verdicts.filter((v) => v.verdict !== 'no_significant_change')).toEqual([]);
  const appended = readFileSync(stepSummary, 'utf8');
  expect(appended.startsWith('# earlier step\n### webperf: ')).toBe(true);
  expect(appended).toMatch(
    /^\| lcp \(mobile\) \| \d+ ms \| \d+ ms \| ➖ no significant change \| noise band ±\d+ ms \(default\) \|$/m,
  );

  const badBaseline = await webperf(['scan', `${sites.origin}/fast/`, '--baseline', 'build:12']);
  expect(badBaseline.code).toBe(2);
  expect(badBaseline.stderr).toContain('--baseline must be scan:<scan id> or target:<target id>, not "build:12"');
  writeFileSync(config, JSON.stringify({ budgets: [{ url: '**', budget: { speedindex: 3 } }] }));
  const badConfig = await webperf(['scan', `${sites.origin}/fast/`, '--config', config]);
  expect(badConfig.code).toBe(2);
  expect(badConfig.stderr).toContain(`config file ${config}: budgets[0].budget has an unknown key "speedindex"`);
}, 120_000);

it("--baseline target:ID: the target's last scheduled scans are the before sample and teach the noise band", async () => {
  const [fastId] = ids as [string, string];
  const created = await fetch(`${stack.api.url}/api/v1/domains`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url: `${sites.origin}/baseline/` }),
  });
  expect(created.status).toBe(201);
  const target = ((await created.json()) as { data: { id: number } }).data;
  // Five scheduled scans with the fast page's result, their TTFB 70-100 ms apart from one scan to the next.
  const storage = createStorage(stack.api.db.knex);
  const fast = (await storage.scans.findOwned(user.id, fastId))!.result!;
  const first = Date.now() - 20 * 60_000;
  for (const [i, ttfbMs] of [100, 200, 110, 190, 120].entries()) {
    const at = new Date(first + i * 60_000);
    const scan = await storage.targets.dispatchScan(target.id, { publicId: newPublicId(at), requestedAt: at, runs: 1 });
    expect(await storage.scans.markFinished(scan!.publicId, { ...fast, ttfbMs }, at)).toBe(true);
  }
  // Their median TTFB is 120 ms; consecutive differences 100, 90, 80, 70: median 85, band ±255 ms learned from the
  // 5 scans. The slow page's TTFB (over a second) is far outside it.
  const run = await webperf(['scan', `${sites.origin}/slow/`, '--baseline', `target:${target.id}`, '--format', 'json']);
  expect(run.code).toBe(1);
  const report = JSON.parse(run.stdout) as {
    baseline: string;
    passed: boolean;
    verdicts: Array<Record<string, unknown>>;
  };
  expect(report).toMatchObject({ baseline: `target ${target.id} (its last 5 scheduled scans)`, passed: false });
  expect(report.verdicts.find((v) => v.name === 'ttfb')).toMatchObject({
    verdict: 'worse',
    rule: 'noise_band',
    band: 255,
    source: { kind: 'history', scans: 5 },
    before: { n: 5, median: 120 },
    rule_text: 'noise band ±255 ms (learned from 5 scans)',
  });
  const none = await webperf(['scan', `${sites.origin}/fast/`, '--baseline', 'target:999999999']);
  expect(none.code).toBe(2);
  expect(none.stderr).toBe('webperf: target 999999999 has no finished scheduled scan to compare with\n');
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
