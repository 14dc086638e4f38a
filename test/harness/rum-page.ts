import type { Page } from 'puppeteer-core';
import { launchBrowser } from './browser.ts';

/**
 * Driving the live-data fixtures (the article page of fixtures/rum-site.ts, the app of fixtures/rum-spa.ts) in
 * Chromium like a person, for the collector and end-to-end tests: wait until what the collector measures has
 * happened, then click.
 */

/** In-page conditions (JavaScript source: the tests' TypeScript has no DOM types) on buffered performance entries. */
const ENTRIES = {
  'hero-lcp': ['largest-contentful-paint', "entry.element && entry.element.id === 'hero'"],
  'layout-shift': ['layout-shift', 'entry.value > 0'],
  click: ['event', "entry.name === 'click'"],
} as const;

/** Resolves once the page's buffered performance entries show the LCP image, the layout shift or the click. */
function waitForEntry(page: Page, what: keyof typeof ENTRIES): Promise<void> {
  const [type, condition] = ENTRIES[what];
  return waitForBuffered(page, type, condition);
}

/** Resolves once a buffered performance entry of `type` meets `condition` (JavaScript on `entry`). */
async function waitForBuffered(page: Page, type: string, condition: string): Promise<void> {
  await page.evaluate(`new Promise((resolve) => {
    new PerformanceObserver((list, observer) => {
      if (list.getEntries().some((entry) => ${condition})) { observer.disconnect(); resolve(); }
    }).observe({ type: '${type}', buffered: true, durationThreshold: 16 });
  })`);
}

/**
 * web-vitals handles new entries in an idle callback bounded at 1 s (headless Chromium often has no idle
 * period after input, so the bound is what fires); one registered after it with the same bound runs after it.
 */
export async function idle(page: Page): Promise<void> {
  await page.evaluate('new Promise((resolve) => requestIdleCallback(resolve, { timeout: 1000 }))');
}

/** Loads the article page at `url`, waits for its LCP image and its layout shift, clicks the slow button, lets web-vitals see it. */
export async function loadArticleAndClick(page: Page, url: string): Promise<void> {
  await page.goto(url, { waitUntil: 'load' });
  await waitForEntry(page, 'hero-lcp');
  await waitForEntry(page, 'layout-shift');
  await page.click('#slow');
  await waitForEntry(page, 'click');
  await idle(page);
}

/**
 * The single-page app (fixtures/rum-spa.ts) at `url`: waits for its late hero image, clicks the third-party
 * widget's slow button, then follows both client-side routes, each reported by Chromium as a soft navigation,
 * and lets web-vitals see it all. Leaving the page (which sends the beacons) is the caller's.
 */
export async function useSpa(page: Page, url: string, routes: readonly string[]): Promise<void> {
  await page.goto(url, { waitUntil: 'load' });
  await waitForEntry(page, 'hero-lcp');
  await page.click('#slow');
  await waitForEntry(page, 'click');
  for (const [i, route] of routes.entries()) {
    await page.click(`nav a:nth-of-type(${i + 1})`);
    await waitForBuffered(page, 'soft-navigation', `new URL(entry.name).pathname === ${JSON.stringify(route)}`);
  }
  await idle(page);
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
