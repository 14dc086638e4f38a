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
