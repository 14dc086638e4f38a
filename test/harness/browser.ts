import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { CHROMIUM_FLAGS, sandboxFlags } from '../../core/chromium.ts';
import { loadConfig } from '../../infra/config.ts';
import { baseTestEnv } from './shared.ts';

/** Debian's Chromium through puppeteer-core, with a fresh profile that is removed on close. */
export async function launchBrowser(extraArgs: string[] = []): Promise<{ browser: Browser; close(): Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), 'webperf-chromium-'));
  const browser = await puppeteer.launch({
    executablePath: loadConfig(baseTestEnv()).chromiumPath,
    args: [...CHROMIUM_FLAGS, ...sandboxFlags(), ...extraArgs, `--user-data-dir=${profile}`],
    headless: true,
    pipe: true, // Chromium exits with the test process, however that ends
  });
  return {
    browser,
    close: async () => {
      await browser.close().catch(() => undefined);
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** A fresh browser context signed in through the web area's own form (JavaScript off unless asked for). */
export async function signedInPage(
  browser: Browser,
  appUrl: string,
  email: string,
  password: string,
  options: { javascript?: boolean } = {},
): Promise<Page> {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  await page.setJavaScriptEnabled(options.javascript ?? false);
  await page.goto(`${appUrl}/login`);
  await page.type('#email', email);
  await page.type('#password', password);
  await Promise.all([page.waitForNavigation(), page.click('#sign-in')]);
  return page;
}

/** Clicks what submits a form and answers the status of the page it leads to. */
export async function submit(page: Page, selector: string): Promise<number | undefined> {
  const [response] = await Promise.all([page.waitForNavigation(), page.click(selector)]);
  return response?.status();
}

/** A desktop Chrome's user agent: the ingest drops headless ones as bots, and a customer's visitor sends this. */
const VISITOR_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36';

/**
 * Chromium as a customer's visitor: a desktop Chrome user agent, and `domain` resolved to the fixture on
 * 127.0.0.1, so the beacons carry the Origin a real customer's pages would.
 */
export function launchVisitorBrowser(domain: string): ReturnType<typeof launchBrowser> {
  return launchBrowser([`--host-resolver-rules=MAP ${domain} 127.0.0.1`, `--user-agent=${VISITOR_UA}`]);
}
