import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser } from 'puppeteer-core';
import { CHROMIUM_FLAGS, sandboxFlags } from '../../core/chromium.ts';
import { loadConfig } from '../../core/config.ts';
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
