/**
 * Runs Lighthouse on one URL with the scan runner's settings (activities/lighthouse/settings.ts), desktop then
 * mobile, and writes each Lighthouse result as Lighthouse's own JSON to `<outDir>/<form factor>.json`.
 * Its own process, because Lighthouse blocks the event loop that serves the fixture pages.
 * Usage: node test/harness/lighthouse-json.ts URL OUT_DIR
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import lighthouse from 'lighthouse';
import { lighthouseConfigFor, lighthouseFlagsFor } from '../../activities/lighthouse/settings.ts';
import { LIGHTHOUSE_CHROMIUM_FLAGS } from '../../core/chromium.ts';
import { FORM_FACTORS } from '../../core/scan/observation.ts';
import { launchBrowser } from './browser.ts';

const [url, outDir] = process.argv.slice(2);
if (!url || !outDir) throw new Error('usage: lighthouse-json.ts URL OUT_DIR');
const { browser, close } = await launchBrowser(LIGHTHOUSE_CHROMIUM_FLAGS);
try {
  for (const factor of FORM_FACTORS) {
    const page = await browser.newPage();
    const result = await lighthouse(url, lighthouseFlagsFor(factor), lighthouseConfigFor(factor), page);
    if (!result || result.lhr.runtimeError)
      throw new Error(`Lighthouse failed on ${url}: ${result?.lhr.runtimeError?.message ?? 'no result'}`);
    writeFileSync(join(outDir, `${factor}.json`), JSON.stringify(result.lhr));
    await page.close();
  }
} finally {
  await close();
}
