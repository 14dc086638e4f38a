/**
 * The collector's cost to the pages it runs on: the single-page app of fixtures/rum-spa.ts (late hero image, a
 * slow third-party click, two soft navigations, then hidden, which sends the beacons) in Chromium, with the
 * snippet and without it, alternating page view by page view, each in a fresh browser context (a first visit:
 * the script is downloaded and compiled every time). Per page view the main thread's script and task time
 * (CDP Performance.getMetrics ScriptDuration, TaskDuration) over the page's life; prints the medians of
 * both variants, their difference (the collector's cost per page view) and ratio, and the wire sizes: the
 * script raw, gzip and brotli, and the beacons' bytes per page view. Not a test: times depend on the machine.
 *
 *   npm run bench:collector [-- --rounds 15]
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import puppeteer, { type Browser } from 'puppeteer-core';
import { buildCollector } from '../collector/build.ts';
import { CHROMIUM_FLAGS, sandboxFlags } from '../core/chromium.ts';
import { collectorScriptUrl, embedSnippet, newRumSitePublicId } from '../core/rum/site.ts';
import { startRumSpaFixture } from '../fixtures/rum-spa.ts';
import { serveCollectorScript } from '../ingest/collector-script.ts';
import { createLogger } from '../infra/logger.ts';
import { loadConfig } from '../infra/config.ts';
import { waitUntil } from '../stack/proc.ts';
import { useSpa } from '../fixtures/rum-page.ts';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '10' } } });
const rounds = Number(values.rounds);

const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent' }, { keys: false });
const bundle = await buildCollector();

// A stand-in for the ingest: the collector served by the ingest's own module, beacons counted and answered 204.
let beaconBytes = 0;
let beacons = 0;
const log = createLogger(config, 'bench-collector');
const ingest = createServer((req, res) => {
  if (serveCollectorScript(req, res, log)) return;
  let size = 0;
  req.on('data', (chunk: Buffer) => (size += chunk.length));
  req.on('end', () => {
    beaconBytes += size;
    beacons++;
    res.writeHead(204, { 'access-control-allow-origin': '*' }).end();
  });
});
await new Promise<void>((resolve) => ingest.listen(0, '127.0.0.1', () => resolve()));
const snippet = embedSnippet(
  collectorScriptUrl(`http://127.0.0.1:${(ingest.address() as AddressInfo).port}`),
  newRumSitePublicId(),
);
const spa = await startRumSpaFixture((url) => (url.searchParams.has('rum') ? snippet : ''));

const profile = mkdtempSync(join(tmpdir(), 'bench-collector-'));
const browser: Browser = await puppeteer.launch({
  executablePath: config.chromiumPath,
  args: [...CHROMIUM_FLAGS, ...sandboxFlags(), `--user-data-dir=${profile}`],
  headless: true,
});

interface PageViewCost {
  scriptMs: number;
  taskMs: number;
}

/** One page view of the app in a fresh context, hidden at the end; its main thread's script and task time. */
async function pageView(withCollector: boolean): Promise<PageViewCost> {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  const cdp = await page.createCDPSession();
  await cdp.send('Performance.enable');
  const sentBefore = beacons;
  await useSpa(page, `${spa.appUrl}${withCollector ? '?rum' : ''}`, spa.routes);
  // Another tab in front hides the app, as leaving it would, but keeps it alive to be measured.
  const other = await context.newPage();
  await other.bringToFront();
  if (withCollector) await waitUntil('the three page views sent', async () => beacons >= sentBefore + 3, 10_000, 20);
  const { metrics } = await cdp.send('Performance.getMetrics');
  await context.close();
  const ms = (name: string) => (metrics.find((m) => m.name === name)?.value ?? 0) * 1000;
  return { scriptMs: ms('ScriptDuration'), taskMs: ms('TaskDuration') };
}

const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;

try {
  await pageView(true); // warm-up: the ingest builds the script on its first request, Chromium starts its processes
  await pageView(false);
  beacons = 0;
  beaconBytes = 0;
  const runs: Record<'without' | 'with', PageViewCost[]> = { without: [], with: [] };
  for (let round = 0; round < rounds; round++) {
    // Alternating which goes first, so a neighbour's burst on this shared machine hits both alike.
    for (const withCollector of round % 2 ? [true, false] : [false, true]) {
      runs[withCollector ? 'with' : 'without'].push(await pageView(withCollector));
    }
  }
  const summary = (key: keyof PageViewCost) => {
    const without = median(runs.without.map((r) => r[key]));
    const withIt = median(runs.with.map((r) => r[key]));
    return `without ${without.toFixed(1)} ms, with ${withIt.toFixed(1)} ms: +${(withIt - without).toFixed(1)} ms per page view (ratio ${(withIt / without).toFixed(3)})`;
  };
  console.log(
    `${rounds} rounds, one page view each way per round (load, slow click, two soft navigations, hidden), medians`,
  );
  console.log(`main-thread script time (ScriptDuration): ${summary('scriptMs')}`);
  console.log(`main-thread task time (TaskDuration):     ${summary('taskMs')}`);
  console.log(
    `script: ${bundle.code.length} bytes raw, ${bundle.gzip.length} gzip, ${bundle.brotli.length} brotli; beacons: ${(beaconBytes / rounds).toFixed(0)} bytes per page view in ${(beacons / rounds).toFixed(0)} requests (the load and two soft navigations)`,
  );
} finally {
  await browser.close();
  rmSync(profile, { recursive: true, force: true });
  await spa.close();
  ingest.closeAllConnections();
  ingest.close();
}
