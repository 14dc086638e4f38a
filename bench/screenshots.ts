/**
 * Screenshots of every page of the web area (fixtures/web-area.ts) at 360 and 1280 px, in English and German,
 * full page, under .state/screenshots/pages/{page}-{lang}-{width}.png; says which pages scroll sideways.
 * `--parts` also cuts each page into 1200 px high slices (parts/), to read long pages at their real size;
 * `--readme` writes the few the README and docs/web-area.md show (docs/screenshots/, the top of the page only).
 *
 *   ./svc stack up && npm run screenshots:pages [-- --parts] [-- --readme] [-- page ...]
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import puppeteer, { type BrowserContext } from 'puppeteer-core';
import { CHROMIUM_FLAGS, sandboxFlags } from '../core/chromium.ts';
import { WEB_AREA_PAGES } from '../fixtures/web-area.ts';
import { startWebArea } from './web-area.ts';

const only = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const parts = process.argv.includes('--parts');
const readme = process.argv.includes('--readme');
const README_DIR = resolve(import.meta.dirname, '..', 'docs', 'screenshots');
/** The screenshots of the README and docs/web-area.md: page, language, width and how much of the page's top. */
const README_SHOTS = [
  { name: 'dashboard', lang: 'en', width: 1280, height: 1000 },
  { name: 'progress-running', lang: 'en', width: 360, height: 560 },
  { name: 'report', lang: 'en', width: 1280, height: 1100 },
  { name: 'target', lang: 'en', width: 360, height: 1150 },
  { name: 'compare', lang: 'de', width: 1280, height: 1000 },
  { name: 'alerts', lang: 'en', width: 1280, height: 900 },
] as const;
const outDir = resolve(import.meta.dirname, '..', '.state', 'screenshots', 'pages');
const partsDir = resolve(outDir, 'parts');
mkdirSync(partsDir, { recursive: true });

const profile = mkdtempSync(join(tmpdir(), 'bench-screenshots-'));
const browser = await puppeteer.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [...CHROMIUM_FLAGS, ...sandboxFlags(), `--user-data-dir=${profile}`, '--hide-scrollbars'],
  headless: true,
});
const area = await startWebArea('screenshots', browser);

async function signedInContext(): Promise<BrowserContext> {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  await page.goto(`${area.url}/login`);
  await page.type('#email', area.seeded.email);
  await page.type('#password', area.seeded.password);
  await Promise.all([page.waitForNavigation(), page.click('#sign-in')]);
  await page.close();
  return context;
}

try {
  const contexts = { visitor: await browser.createBrowserContext(), user: await signedInContext() };
  for (const { name, signedIn } of WEB_AREA_PAGES.filter((p) => only.length === 0 || only.includes(p.name))) {
    for (const lang of ['en', 'de'] as const) {
      for (const width of [360, 1280]) {
        const page = await contexts[signedIn ? 'user' : 'visitor'].newPage();
        await page.setJavaScriptEnabled(false); // the progress page would follow its scan; the pages need no script
        await page.setExtraHTTPHeaders({ 'accept-language': lang });
        await page.setViewport({ width, height: width < 600 ? 780 : 900, deviceScaleFactor: 1 });
        await page.goto(`${area.url}${area.seeded.paths[name]}`, { waitUntil: 'load' });
        const overflow = (await page.evaluate(
          'document.documentElement.scrollWidth - document.documentElement.clientWidth',
        )) as number;
        const file = resolve(outDir, `${name}-${lang}-${width}.png`);
        await page.screenshot({ path: file, fullPage: true });
        if (parts) {
          // Full pages in viewport-high slices, for reading a long page at its real size.
          const height = (await page.evaluate('document.documentElement.scrollHeight')) as number;
          for (let y = 0, n = 0; y < height; y += 1200, n++) {
            await page.screenshot({
              path: resolve(partsDir, `${name}-${lang}-${width}-${n}.png`),
              captureBeyondViewport: true,
              clip: { x: 0, y, width, height: Math.min(1200, height - y) },
            });
          }
        }
        console.log(`${file}${overflow > 0 ? `  (scrolls sideways by ${overflow} px)` : ''}`);
        const shot = readme
          ? README_SHOTS.find((s) => s.name === name && s.lang === lang && s.width === width)
          : undefined;
        if (shot) {
          mkdirSync(README_DIR, { recursive: true });
          // PNG: flat interface colours compress better than in JPEG (each stays well under 200 KB) and stay sharp.
          await page.screenshot({
            path: resolve(README_DIR, `${name}-${lang}-${width}.png`),
            captureBeyondViewport: true,
            clip: { x: 0, y: 0, width, height: shot.height },
          });
        }
        await page.close();
      }
    }
  }
} finally {
  await browser.close();
  await area.close();
  rmSync(profile, { recursive: true, force: true });
}
