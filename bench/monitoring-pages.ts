/**
 * The monitoring pages with sample data (fixtures/monitoring-preview.ts) in real Chromium: a screenshot of
 * every page and state at 360 and 1280 px in English and German under .state/screenshots/monitoring/, and
 * Lighthouse's accessibility and best-practices scores of each page (mobile settings), with the audits that
 * failed. `node bench/monitoring-pages.ts [--no-lighthouse] [page ...]`.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import lighthouse from 'lighthouse';
import puppeteer from 'puppeteer-core';
import { CHROMIUM_FLAGS, LIGHTHOUSE_CHROMIUM_FLAGS, sandboxFlags } from '../core/chromium.ts';
import { PREVIEW_PAGES, startMonitoringPreview } from '../fixtures/monitoring-preview.ts';

const args = process.argv.slice(2);
const runLighthouse = !args.includes('--no-lighthouse');
const only = args.filter((a) => !a.startsWith('--'));
const pages = Object.entries(PREVIEW_PAGES).filter(([name]) => only.length === 0 || only.includes(name));
const outDir = resolve(import.meta.dirname, '..', '.state', 'screenshots', 'monitoring');
mkdirSync(outDir, { recursive: true });

const preview = await startMonitoringPreview();
const profile = mkdtempSync(join(tmpdir(), 'bench-monitoring-'));
const browser = await puppeteer.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [...CHROMIUM_FLAGS, ...LIGHTHOUSE_CHROMIUM_FLAGS, ...sandboxFlags(), `--user-data-dir=${profile}`],
  headless: true,
});

const withLang = (path: string, lang: string) => `${preview.url}${path}${path.includes('?') ? '&' : '?'}lang=${lang}`;
let worst = 100;
try {
  for (const [name, path] of pages) {
    for (const lang of ['en', 'de']) {
      for (const width of [360, 1280]) {
        const page = await browser.newPage();
        await page.setViewport({ width, height: 800, deviceScaleFactor: 1 });
        await page.goto(withLang(path, lang), { waitUntil: 'load' });
        const overflow = (await page.evaluate(
          'document.documentElement.scrollWidth - document.documentElement.clientWidth',
        )) as number;
        const file = resolve(outDir, `${name}-${lang}-${width}.png`);
        await page.screenshot({ path: file, fullPage: true });
        console.log(`${file}${overflow > 0 ? `  (scrolls sideways by ${overflow} px)` : ''}`);
        await page.close();
      }
    }
    if (!runLighthouse) continue;
    for (const lang of ['en', 'de']) {
      const page = await browser.newPage();
      const result = await lighthouse(
        withLang(path, lang),
        { onlyCategories: ['accessibility', 'best-practices'], logLevel: 'error', disableFullPageScreenshot: true },
        undefined,
        page,
      );
      await page.close();
      if (!result) throw new Error(`Lighthouse returned nothing for ${name}`);
      const { categories, audits } = result.lhr;
      const a11y = Math.round((categories.accessibility?.score ?? 0) * 100);
      const practices = Math.round((categories['best-practices']?.score ?? 0) * 100);
      worst = Math.min(worst, a11y, practices);
      const failed = Object.values(audits)
        .filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode === 'binary')
        .map((a) => a.id);
      console.log(
        `lighthouse ${name} (${lang}): accessibility ${a11y}, best practices ${practices}${failed.length ? `; failed: ${failed.join(', ')}` : ''}`,
      );
    }
  }
} finally {
  await browser.close();
  rmSync(profile, { recursive: true, force: true });
  await preview.close();
}
if (runLighthouse) console.log(`lowest score: ${worst}`);
