import { writeFileSync } from 'node:fs';
import puppeteer from 'puppeteer-core';
import { RUM_METRICS, rate, NAVIGATION_TYPES } from './core/rum/metrics.ts';
import { loadConfig } from './core/config.ts';
import { dashboardPage } from './web/live/dashboard-page.ts';
import { sitesPage } from './web/live/sites-page.ts';
import { alertsPage } from './web/live/alerts-page.ts';
import { siteTraffic, selectRows, independentP75 } from './fixtures/rum-dashboard.ts';
import { CHROMIUM_FLAGS } from './core/chromium.ts';

const now = new Date('2026-11-23T20:00:00Z');
const rows = siteTraffic({ siteId: 1, now, pageViews: 3000 });
const sel = selectRows(rows, { siteId: 1, from: new Date(now.getTime() - 7 * 86400000), device: 'all' });
const metrics = Object.fromEntries(RUM_METRICS.map((m) => {
  const v = sel.filter((r) => r.metric === m).map((r) => r.value);
  const shares = { good: 0, 'needs-improvement': 0, poor: 0 } as Record<string, number>;
  for (const x of v) shares[rate(m, x)]++;
  return [m, { p75: independentP75(v), samples: v.length, shares }];
})) as never;
const all = selectRows(rows, { siteId: 1, from: new Date(now.getTime() - 30 * 86400000), device: 'all' });
const history = Object.fromEntries(RUM_METRICS.map((m) => {
  const byDay = new Map<string, number[]>();
  for (const r of all.filter((r) => r.metric === m)) { const d = r.ts.slice(0, 10); byDay.set(d, [...(byDay.get(d) ?? []), r.value]); }
  return [m, [...byDay].map(([date, v]) => ({ date, p75: independentP75(v)!, samples: v.length }))];
})) as never;
const slow = (m: 'LCP' | 'INP') => {
  const byPath = new Map<string, typeof sel>();
  for (const r of sel.filter((r) => r.metric === m)) byPath.set(r.path, [...(byPath.get(r.path) ?? []), r]);
  return [...byPath].map(([path, rs]) => ({ path, p75: independentP75(rs.map((r) => r.value))!, samples: rs.length, target: rs[0]!.attr_target, url: rs[0]!.attr_url || null })).sort((a, b) => b.p75 - a.p75);
};
const nav = NAVIGATION_TYPES.map((type) => ({ type, pageviews: new Set(sel.filter((r) => r.navigation === type).map((r) => r.page_view_id)).size })).filter((n) => n.pageviews);
const locale = (process.argv[2] ?? 'en') as 'en' | 'de';
const site = { id: 1, domain: 'www.bean-and-brew.example', active: true, sampleRate: 100, embedSnippet: '<script src="http://127.0.0.1:3100/c/1/rum.js" data-site-id="abcdefghjkmnpqrstvwx" async></script>', pageviewsThisMonth: 2870, monthlyLimit: 100000, alertCount: 2, createdAt: now };
const chrome = { locale, user: { email: 'anna.schmidt@example.com' }, csrf: 'x', path: '/live/1' };
const empty = process.argv[3] === 'empty';
const zero = Object.fromEntries(RUM_METRICS.map((m) => [m, { p75: null, samples: 0, shares: { good: 0, 'needs-improvement': 0, poor: 0 } }])) as never;
const emptyHist = Object.fromEntries(RUM_METRICS.map((m) => [m, []])) as never;
const alert = { id: 1, siteId: 1, title: 'Core Web Vitals', mode: 'auto', metric: null, threshold: null, minSamples: 20, windowMinutes: 60, consecutiveThreshold: 3, status: 'triggered', streak: 0, lastMetric: 'LCP', lastP75: 4210, lastSamples: 86, lastCheckedAt: now, triggeredMetric: 'LCP', triggeredAt: now, emailedAt: now, resolvedAt: null, resolvedEmailedAt: null, createdAt: now, updatedAt: now } as never;
const alert2 = { ...(alert as object), id: 2, title: 'Checkout interactions', mode: 'manual', metric: 'INP', threshold: 300, status: 'active', lastCheckedAt: null, lastP75: null, triggeredAt: null, emailedAt: null, triggeredMetric: null } as never;
const page = process.argv[3] === 'alerts' ? alertsPage({ locale, chrome, csrf: 'x', site, alerts: [alert, alert2], errors: { threshold: 'Enter a positive number within the metric’s range.' } })
  : process.argv[3] === 'sites' ? sitesPage({ locale, chrome, csrf: 'x', planLabel: 'Starter', maxSites: 2, sites: [site, { ...site, id: 2, domain: 'blog.bean-and-brew.example', active: false }], notice: 'Site added.' })
  : dashboardPage({ locale, chrome, csrf: 'x', site, period: '7d', device: 'all', today: '2026-11-23', metrics: empty ? zero : metrics, cwv: { pass: false, insufficient: false }, history: empty ? emptyHist : history, slowest: { LCP: slow('LCP'), INP: slow('INP') }, navigation: nav, rejections: [{ reason: 'monthly_limit', beacons: 120 }, { reason: 'origin', beacons: 3 }] });
writeFileSync('/tmp/live-preview.html', page);
const browser = await puppeteer.launch({ executablePath: loadConfig(process.env as never).chromiumPath, args: [...CHROMIUM_FLAGS, '--no-sandbox'], headless: true });
const p = await browser.newPage();
for (const width of [1280, 360]) {
  await p.setViewport({ width, height: 900 });
  await p.goto('file:///tmp/live-preview.html');
  await p.screenshot({ path: `/tmp/live-${process.argv[3] ?? 'dash'}-${locale}-${width}.png`, fullPage: true });
  console.log(width, await p.evaluate(() => document.documentElement.scrollWidth));
  const h = await p.evaluate(() => document.documentElement.scrollHeight);
  for (let y = 0, i = 0; y < h; y += 1400, i++) await p.screenshot({ path: `/tmp/part-${width}-${i}.png`, clip: { x: 0, y, width, height: Math.min(1400, h - y) } });
}
await browser.close();
