/**
 * The baseline of the flow benchmark: the same shop flow as a bare Lighthouse user-flow script, puppeteer-core
 * and startFlow in one long-lived process with one Chromium already running, no sandbox, no proxy, no
 * screenshots of its own. Same Lighthouse settings as the runner. Reads one shop origin per stdin line and
 * prints the milliseconds the flow took (up to its flow result), one line each. Its own process because
 * Lighthouse blocks the event loop that serves the shop.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { startFlow } from 'lighthouse';
import puppeteer from 'puppeteer-core';
import {
  FLOW_LIGHTHOUSE_FLAGS,
  FLOW_TIMESPAN_CATEGORIES,
  lighthouseConfigFor,
} from '../activities/lighthouse/settings.ts';
import { CHROMIUM_FLAGS, LIGHTHOUSE_CHROMIUM_FLAGS, sandboxFlags } from '../core/chromium.ts';
import { SHOP_PASSWORD, SHOP_USER } from '../fixtures/shop.ts';

const profile = mkdtempSync(join(tmpdir(), 'bench-flow-bare-'));
const browser = await puppeteer.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [...CHROMIUM_FLAGS, ...LIGHTHOUSE_CHROMIUM_FLAGS, ...sandboxFlags(), `--user-data-dir=${profile}`],
  headless: true,
});

try {
  for await (const origin of createInterface({ input: process.stdin })) {
    const started = performance.now();
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    const flow = await startFlow(page, {
      config: lighthouseConfigFor('desktop'),
      flags: FLOW_LIGHTHOUSE_FLAGS,
      name: 'Buy a cup',
    });
    await flow.navigate(`${origin}/login?next=/products/1`, { name: 'Sign-in page' });
    await page.locator('#user').fill(SHOP_USER);
    await page.locator('#password').fill(SHOP_PASSWORD);
    await Promise.all([page.waitForNavigation(), page.locator('#sign-in').click()]);
    await flow.startTimespan({ name: 'Add to cart', onlyCategories: FLOW_TIMESPAN_CATEGORIES });
    await page.locator('#add-to-cart').click();
    await page.waitForSelector('#cart-status:not(:empty)');
    await flow.endTimespan();
    await flow.navigate(`${origin}/cart`, { name: 'Cart' });
    await flow.snapshot({ name: 'Cart contents' });
    const result = await flow.createFlowResult();
    if (result.steps.length !== 4) throw new Error(`bare flow measured ${result.steps.length} steps`);
    await context.close();
    process.stdout.write(`${Math.round(performance.now() - started)}\n`);
  }
} finally {
  await browser.close();
  rmSync(profile, { recursive: true, force: true });
}
