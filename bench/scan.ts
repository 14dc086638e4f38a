/**
 * Scan benchmark. One scan (desktop + mobile) of a fixture page through the API, from POST to finished,
 * against the bare `lighthouse` CLI run for both form factors on the same page, in the same run.
 * Also the latency of a cached POST /scans against GET /livez on the same server.
 * Both sides run the same Lighthouse settings (its four categories, no full-page screenshot, the bf-cache audit in
 * the desktop load only, default mobile and the desktop preset), so the ratio measures the service's own overhead
 * and savings.
 * Where the difference comes from (measured): the CLI launches Chromium once per form factor and then waits
 * ~4.5 s per run for it to shut down (chrome-launcher); the service's runner uses one Chromium for both form
 * factors and kills it when done.
 * A second baseline is the floor: Lighthouse's Node API in one long-lived process driving one Chromium that
 * is already running (bench/lighthouse-floor.ts), both form factors, same settings. A third process runs the
 * floor with the performance category alone, so the cost of the other three categories per scan is printed.
 * Prints ratios (lower is better). Targets: api/cli <= 0.75, api/floor <= 1.10.
 * Also what a scan stores of Lighthouse's whole result (compressed, per form factor; the uncompressed JSON; against
 * the result row and images a scan stores besides) and the time making it takes (scrub, serialise, gzip: the
 * runner's own function, re-run here on the stored results), against the scan's time in the same run.
 *
 *   ./svc stack up && npm run bench:scan -- --runs 3
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs, promisify } from 'node:util';
import { prepareLighthouseReport } from '../activities/lighthouse/report.ts';
import { LIGHTHOUSE_FLAGS } from '../activities/lighthouse/settings.ts';
import { CHROMIUM_FLAGS, sandboxFlags } from '../core/chromium.ts';
import { redactSecrets } from '../core/redaction.ts';
import { credentialSecrets } from '../core/scan/credentials.ts';
import type { FormFactor } from '../core/scan/observation.ts';
import { PROJECT_ROOT } from '../infra/config.ts';
import { startFixtureSites } from '../fixtures/sites.ts';
import { benchDatabase, benchUser, startBenchServices } from './support.ts';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '2' } } });
const runs = Number(values.runs);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

// Asynchronous on purpose: the fixture sites are served by this process, so a blocking call would starve them.
const run = promisify(execFile);

async function lighthouseCli(url: string): Promise<number> {
  const started = performance.now();
  for (const preset of [[], ['--preset=desktop']]) {
    const profile = mkdtempSync(join(tmpdir(), 'bench-lh-'));
    await run(
      resolve(PROJECT_ROOT, 'node_modules/.bin/lighthouse'),
      [
        url,
        `--only-categories=${LIGHTHOUSE_FLAGS.onlyCategories.join(',')}`,
        '--output=json',
        '--output-path=/dev/null',
        '--quiet',
        '--disable-full-page-screenshot',
        // The back/forward cache test in the desktop load only, as a scan makes it (activities/lighthouse/settings.ts).
        ...(preset.length ? [] : ['--skip-audits=bf-cache']),
        '--max-wait-for-load=45000',
        `--chrome-flags=${[...CHROMIUM_FLAGS, ...sandboxFlags(), `--user-data-dir=${profile}`].join(' ')}`,
        ...preset,
      ],
      { env: { ...process.env, CHROME_PATH: '/usr/bin/chromium' }, maxBuffer: 64 * 1024 * 1024 },
    );
    rmSync(profile, { recursive: true, force: true });
  }
  return performance.now() - started;
}

/** The floor: Lighthouse's Node API in a long-lived process with Chromium already running (bench/lighthouse-floor.ts). */
function startFloor(...args: string[]): { measure(url: string): Promise<number>; close(): void } {
  const child = spawn(process.execPath, [resolve(PROJECT_ROOT, 'bench/lighthouse-floor.ts'), ...args], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  return {
    async measure(url) {
      child.stdin.write(`${url}\n`);
      const line = await lines.next();
      if (line.done) throw new Error('the floor process ended');
      return Number(line.value);
    },
    close: () => child.stdin.end(),
  };
}

const sites = await startFixtureSites();
const db = await benchDatabase('scan');
const assetsDir = mkdtempSync(join(tmpdir(), 'bench-assets-'));
const services = await startBenchServices(db.databaseUrl, assetsDir);
const floor = startFloor();
const performanceFloor = startFloor('--performance-only');

async function call(
  path: string,
  token: string,
  body?: unknown,
): Promise<{ status: number; data: Record<string, unknown> }> {
  const res = await fetch(`${services.apiUrl}/api/v1${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, data: ((await res.json()) as { data: Record<string, unknown> }).data };
}

/** When each stage of one scan was first seen by the poller (ms since the POST was sent). */
interface Stages {
  id: string;
  accepted: number;
  running: number;
  desktop: number;
  mobile: number;
  finished: number;
}

/**
 * Polls every 20 ms (so polling adds ~10 ms on average) until the scan has finished; a failed scan ends the
 * benchmark. Besides the API, it reads the scan's row (status and the progress step the activity records), so
 * the time can be split into stages: queueing (POST answered → running: workflow start, task dispatch, region
 * slot), the runner's start (running → desktop step), each form factor's Lighthouse run (desktop step → mobile
 * step → finished; the last stage also holds storing the images and the result).
 */
async function scanToEnd(token: string, url: string, force = false): Promise<Stages> {
  const sent = performance.now();
  const created = await call('/scans', token, { url, force });
  const seen: Partial<Stages> = { accepted: performance.now() - sent };
  for (;;) {
    const row = (await db
      .knex('scans')
      .where({ public_id: created.data.id as string })
      .first('status', 'progress')) as { status: string; progress: string | null } | undefined;
    const at = performance.now() - sent;
    if (row?.status === 'running') seen.running ??= at;
    if (row?.progress?.startsWith('desktop')) seen.desktop ??= at;
    if (row?.progress?.startsWith('mobile')) seen.mobile ??= at;
    const { data } = await call(`/scans/${created.data.id as string}`, token);
    if (data.status === 'finished') {
      const finished = performance.now() - sent;
      // A stage shorter than one poll may be missed: it then counts as starting when the next one was seen.
      const mobile = seen.mobile ?? finished;
      const desktop = seen.desktop ?? mobile;
      const running = seen.running ?? desktop;
      return { id: created.data.id as string, accepted: seen.accepted!, running, desktop, mobile, finished };
    }
    if (data.status === 'failed') throw new Error(`benchmark scan failed: ${JSON.stringify(data)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** Milliseconds of `work`, the median of `times` calls. */
function timed(work: () => void, times = 15): number {
  const all: number[] = [];
  for (let i = 0; i < times; i++) {
    const started = performance.now();
    work();
    all.push(performance.now() - started);
  }
  return all.sort((a, b) => a - b)[Math.floor(times / 2)]!;
}

/**
 * What the measured scans stored of Lighthouse's whole result and what making it costs, per scan (medians
 * over the scans), against what a scan stores besides (its result row, its images) and its time.
 */
async function lighthouseResultsStored(ids: string[], scanMs: number, floorMs: number): Promise<void> {
  const perScan: Array<{
    gzip: Record<FormFactor, number>;
    json: number;
    before: number;
    ms: number;
    scrubMs: number;
  }> = [];
  for (const id of ids) {
    const rows = (await db
      .knex('scan_lighthouse_reports as r')
      .join('scans as s', 's.id', 'r.scan_id')
      .where('s.public_id', id)
      .select('r.form_factor', 'r.content', 'r.json_bytes')) as Array<{
      form_factor: FormFactor;
      content: Buffer;
      json_bytes: number;
    }>;
    if (rows.length !== 2) throw new Error(`scan ${id} stored ${rows.length} Lighthouse results, not 2`);
    const row = (await db
      .knex('scans')
      .where({ public_id: id })
      .first(db.knex.raw('octet_length(result::text)::integer as bytes'))) as { bytes: number };
    const images = readdirSync(join(assetsDir, id)).reduce(
      (sum, name) => sum + statSync(join(assetsDir, id, name)).size,
      0,
    );
    const lhrs = rows.map((r) => ({
      factor: r.form_factor,
      lhr: JSON.parse(gunzipSync(r.content).toString()) as object,
    }));
    const credentials = { type: 'basic' as const, username: 'bench', password: 'bench-password-1' };
    perScan.push({
      gzip: Object.fromEntries(rows.map((r) => [r.form_factor, r.content.length])) as Record<FormFactor, number>,
      json: rows.reduce((sum, r) => sum + r.json_bytes, 0),
      before: row.bytes + images,
      ms: timed(() => lhrs.forEach(({ factor, lhr }) => prepareLighthouseReport(lhr, factor))),
      scrubMs: timed(() =>
        lhrs.forEach(({ factor, lhr }) =>
          prepareLighthouseReport(redactSecrets(lhr, credentialSecrets(credentials)), factor),
        ),
      ),
    });
  }
  const med = (pick: (s: (typeof perScan)[number]) => number) =>
    [...perScan.map(pick)].sort((a, b) => a - b)[Math.floor(perScan.length / 2)]!;
  const total = med((s) => s.gzip.desktop + s.gzip.mobile);
  console.log(
    `Lighthouse results stored per scan (medians over ${perScan.length} scans): desktop ${kb(med((s) => s.gzip.desktop))}, mobile ${kb(med((s) => s.gzip.mobile))}, total ${kb(total)} gzip; uncompressed JSON ${kb(med((s) => s.json))} (ratio gzip/json ${(total / med((s) => s.json)).toFixed(2)})`,
  );
  console.log(
    `  against what a scan stores besides (result row + images): ${kb(med((s) => s.before))}; ratio ${(total / med((s) => s.before)).toFixed(2)}`,
  );
  const ms = med((s) => s.ms);
  console.log(
    `making them per scan (serialise + gzip, both form factors): ${ms.toFixed(1)} ms, ratio to the API scan ${(ms / scanMs).toFixed(4)}; with credentials to scrub: ${med((s) => s.scrubMs).toFixed(1)} ms`,
  );
  console.log(
    `  their share of api/floor: ${(ms / floorMs).toFixed(4)} (api/floor without them ${((scanMs - ms) / floorMs).toFixed(2)}, with them ${(scanMs / floorMs).toFixed(2)})`,
  );
}

try {
  const { token } = await benchUser(db.knex, 'agency');
  const url = `${sites.origin}/fast/`;
  // Warm-up, not measured: the first scan of a fresh worker pays for loading code.
  await scanToEnd(token, `${url}?warm`);
  await lighthouseCli(`${url}?warm`);
  await floor.measure(`${url}?warm`);
  await performanceFloor.measure(`${url}?warm`);

  const api: number[] = [];
  const cli: number[] = [];
  const floorTimes: number[] = [];
  const performanceFloorTimes: number[] = [];
  const stages: Stages[] = [];
  for (let i = 0; i < runs; i++) {
    const scanStages = await scanToEnd(token, `${url}?run=${i}`, true);
    stages.push(scanStages);
    api.push(scanStages.finished);
    cli.push(await lighthouseCli(`${url}?run=${i}`));
    floorTimes.push(await floor.measure(`${url}?run=${i}`));
    performanceFloorTimes.push(await performanceFloor.measure(`${url}?run=${i}`));
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  console.log(
    `scan through the API (desktop+mobile): median ${(median(api) / 1000).toFixed(1)} s over ${runs} runs (${api.map((x) => (x / 1000).toFixed(1)).join(', ')})`,
  );
  console.log(
    `bare lighthouse CLI, both form factors: median ${(median(cli) / 1000).toFixed(1)} s (${cli.map((x) => (x / 1000).toFixed(1)).join(', ')})`,
  );
  console.log(`ratio api/cli: ${(median(api) / median(cli)).toFixed(2)} (target <= 0.75)`);
  console.log(
    `floor, Lighthouse Node API with Chromium already running: median ${(median(floorTimes) / 1000).toFixed(1)} s (${floorTimes.map((x) => (x / 1000).toFixed(1)).join(', ')})`,
  );
  console.log(`ratio api/floor: ${(median(api) / median(floorTimes)).toFixed(2)} (target <= 1.10)`);
  const categoriesMs = median(floorTimes) - median(performanceFloorTimes);
  console.log(
    `floor with the performance category alone: median ${(median(performanceFloorTimes) / 1000).toFixed(1)} s (${performanceFloorTimes.map((x) => (x / 1000).toFixed(1)).join(', ')})`,
  );
  console.log(
    `accessibility, best practices and SEO cost per scan (both form factors): ${categoriesMs.toFixed(0)} ms, ${((categoriesMs / median(performanceFloorTimes)) * 100).toFixed(0)} % of the performance-only floor`,
  );
  const stage = (from: Exclude<keyof Stages, 'id'> | null, to: Exclude<keyof Stages, 'id'>) =>
    median(stages.map((s) => s[to] - (from ? s[from] : 0)));
  const lighthouse = stage('desktop', 'finished');
  console.log("where the API scan's time goes (medians, ms):");
  console.log(`  POST /scans answered         ${stage(null, 'accepted').toFixed(0)}`);
  console.log(
    `  queued until running         ${stage('accepted', 'running').toFixed(0)}  (workflow start, task dispatch, region slot)`,
  );
  console.log(
    `  running until desktop run    ${stage('running', 'desktop').toFixed(0)}  (the runner process takes the scan; Chromium is launched ahead)`,
  );
  console.log(`  desktop run                  ${stage('desktop', 'mobile').toFixed(0)}`);
  console.log(
    `  mobile run, images, result   ${stage('mobile', 'finished').toFixed(0)}  (includes up to one 20 ms poll)`,
  );
  console.log(
    `  both runs against the floor  ${lighthouse.toFixed(0)} vs ${median(floorTimes).toFixed(0)}: outside Lighthouse ${(median(api) - lighthouse).toFixed(0)} ms`,
  );

  await lighthouseResultsStored(
    stages.map((s) => s.id),
    median(api),
    median(floorTimes),
  );

  const cachedTimes: number[] = [];
  const liveTimes: number[] = [];
  for (let i = 0; i < 300; i++) {
    let t = performance.now();
    const res = await call('/scans', token, { url: `${url}?warm` });
    cachedTimes.push(performance.now() - t);
    if (res.status !== 200) throw new Error(`expected a cache hit, got ${res.status}`);
    t = performance.now();
    await fetch(`${services.apiUrl}/livez`).then((r) => r.text());
    liveTimes.push(performance.now() - t);
  }
  cachedTimes.sort((a, b) => a - b);
  liveTimes.sort((a, b) => a - b);
  console.log(
    `cached POST /scans: p50 ${percentile(cachedTimes, 50).toFixed(2)} ms, p99 ${percentile(cachedTimes, 99).toFixed(2)} ms (300 requests)`,
  );
  console.log(
    `GET /livez baseline: p50 ${percentile(liveTimes, 50).toFixed(2)} ms, p99 ${percentile(liveTimes, 99).toFixed(2)} ms`,
  );
  console.log(`ratio cached-post/livez p50: ${(percentile(cachedTimes, 50) / percentile(liveTimes, 50)).toFixed(1)}`);
} finally {
  floor.close();
  performanceFloor.close();
  await services.close();
  await db.drop();
  rmSync(assetsDir, { recursive: true, force: true });
  await sites.close();
}
