/**
 * The floor for the scan benchmark: Lighthouse's Node API in one long-lived process, driving one Chromium
 * that is already running, mobile then desktop with the runner's settings. It reads one URL per stdin line
 * and prints the milliseconds the two runs took, one line each. Nothing any scanner does can cost less.
 * Runs as its own process because Lighthouse blocks the event loop that serves the fixture pages.
 * With `--performance-only` it runs the performance category alone,
 * so the benchmark can tell what the other three categories cost.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import lighthouse from 'lighthouse';
import puppeteer from 'puppeteer-core';
import { lighthouseConfigFor, lighthouseFlagsFor } from '../activities/lighthouse/settings.ts';
import { CHROMIUM_FLAGS, LIGHTHOUSE_CHROMIUM_FLAGS, sandboxFlags } from '../core/chromium.ts';
import type { FormFactor } from '../core/scan/observation.ts';

const performanceOnly = process.argv.includes('--performance-only');
const flagsFor = (factor: FormFactor) =>
  performanceOnly ? { ...lighthouseFlagsFor(factor), onlyCategories: ['performance'] } : lighthouseFlagsFor(factor);
const profile = mkdtempSync(join(tmpdir(), 'bench-floor-'));
const browser = await puppeteer.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [...CHROMIUM_FLAGS, ...LIGHTHOUSE_CHROMIUM_FLAGS, ...sandboxFlags(), `--user-data-dir=${profile}`],
  headless: true,
});

try {
  for await (const url of createInterface({ input: process.stdin })) {
    const started = performance.now();
    for (const factor of ['mobile', 'desktop'] as const) {
      const page = await browser.newPage();
      const result = await lighthouse(url, flagsFor(factor), lighthouseConfigFor(factor), page);
      if (!result || result.lhr.runtimeError)
        throw new Error(`floor run failed for ${url}: ${result?.lhr.runtimeError?.message ?? 'no result'}`);
      await page.close();
    }
    process.stdout.write(`${Math.round(performance.now() - started)}\n`);
  }
} finally {
  await browser.close();
  rmSync(profile, { recursive: true, force: true });
}
