/**
 * The floor for the scan benchmark: Lighthouse's Node API in one long-lived process, driving one Chromium
 * that is already running, mobile then desktop with the runner's settings. It reads one URL per stdin line
 * and prints the milliseconds the two runs took, one line each. Nothing any scanner does can cost less.
 * Runs as its own process because Lighthouse blocks the event loop that serves the fixture pages.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import puppeteer from 'puppeteer-core';
import { CHROMIUM_FLAGS, sandboxFlags } from '../core/chromium.ts';

const profile = mkdtempSync(join(tmpdir(), 'bench-floor-'));
const browser = await puppeteer.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [...CHROMIUM_FLAGS, ...sandboxFlags(), `--user-data-dir=${profile}`],
  headless: true,
});
const flags = { onlyCategories: ['performance'], disableFullPageScreenshot: true, skipAudits: ['bf-cache'], maxWaitForLoad: 45_000, logLevel: 'error' as const };

try {
  for await (const url of createInterface({ input: process.stdin })) {
    const started = performance.now();
    for (const config of [undefined, desktopConfig]) {
      const page = await browser.newPage();
      const result = await lighthouse(url, flags, config, page);
      if (!result || result.lhr.runtimeError) throw new Error(`floor run failed for ${url}: ${result?.lhr.runtimeError?.message ?? 'no result'}`);
      await page.close();
    }
    process.stdout.write(`${Math.round(performance.now() - started)}\n`);
  }
} finally {
  await browser.close();
  rmSync(profile, { recursive: true, force: true });
}
