/**
 * User agents whose beacons are dropped (reason `bot`, answered 204 like an accepted beacon): they are not
 * real visitors, and lab tools (Lighthouse, PageSpeed Insights, WebPageTest, GTmetrix) loading a page would
 * pull field data towards lab numbers. Matched case-insensitively anywhere in the User-Agent; an empty or
 * missing User-Agent is a bot too. docs/live-data.md (Bots) repeats this list.
 */
export const BOT_PATTERNS: readonly string[] = [
  // crawlers and link previews
  'bot',
  'crawl',
  'spider',
  'slurp',
  'facebookexternalhit',
  'mediapartners-google',
  'google-inspectiontool',
  'bingpreview',
  'embedly',
  'preview',
  // lab and monitoring tools
  'lighthouse',
  'pagespeed',
  'ptst',
  'gtmetrix',
  'pingdom',
  'speedcurve',
  'debugbear',
  'uptime',
  'statuscake',
  'datadog',
  'synthetic',
  // headless and automated browsers
  'phantomjs',
  'slimerjs',
  'electron',
  'puppeteer',
  'playwright',
  'selenium',
  'webdriver',
  // HTTP libraries
  'curl/',
  'wget',
  'python',
  'go-http-client',
  'java/',
  'okhttp',
  'node-fetch',
  'axios',
  'undici',
  'libwww',
  'httpclient',
];

/** Headless Chromium says so in its User-Agent; RUM_ACCEPT_HEADLESS=1 lets it through (the collector's own browser tests). */
export const HEADLESS_PATTERN = 'headlesschrome';

export function botMatcher(acceptHeadless: boolean): (userAgent: string | undefined) => boolean {
  const patterns = acceptHeadless ? BOT_PATTERNS : [...BOT_PATTERNS, HEADLESS_PATTERN];
  const pattern = new RegExp(patterns.map((p) => p.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|'), 'i');
  return (userAgent) => !userAgent || pattern.test(userAgent);
}
