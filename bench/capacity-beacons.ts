/**
 * Generated live-data beacons for `npm run bench:capacity`: what the collector sends for one page view (five
 * metrics with their attribution), spread over sites, paths, devices and the last 30 days, turned into rows by
 * the ingest's own code (validateBeacon, beaconRows) and inserted by its own statement (insertRumMetricRows).
 */
import { randomBytes } from 'node:crypto';
import type { ClickHouseClient } from '@clickhouse/client';
import { insertRumMetricRows, RUM_METRIC_COLUMNS } from '../db/clickhouse/rum-ingest.ts';
import { beaconRows, validateBeacon } from '../ingest/validate.ts';
import { Rejection } from '../ingest/reasons.ts';
import { newRumSitePublicId } from '../core/rum/site.ts';

const SITES = 100;
const PATHS = ['/', '/products', '/products/shoes', '/products/shirts', '/cart', '/checkout', '/blog', '/about'];

/** A deterministic pseudo-random number in [0, 1) from an integer (so the data has a realistic spread). */
function hash01(n: number): number {
  let x = Math.imul(n ^ 0x9e3779b9, 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  return ((x ^ (x >>> 16)) >>> 0) / 2 ** 32;
}

function beacon(n: number, site: string, pv: string): unknown {
  const r = (k: number) => hash01(n * 7 + k);
  const id = (k: number) => `v5-${1_700_000_000_000 + n}-${Math.floor(r(k) * 1e13)}`;
  const device = r(1) < 0.6 ? 'mobile' : r(1) < 0.95 ? 'desktop' : 'tablet';
  const nav = r(2) < 0.9 ? 'navigate' : 'back-forward-cache';
  return {
    v: 1,
    site,
    pv,
    seq: 1,
    path: `${PATHS[Math.floor(r(3) * PATHS.length)]}${r(4) < 0.3 ? `/${Math.floor(r(5) * 200)}` : ''}`,
    device,
    rate: 100,
    metrics: [
      { name: 'TTFB', value: Math.round(100 + r(6) * 900), id: id(6), nav },
      { name: 'FCP', value: Math.round(600 + r(7) * 2400), id: id(7), nav },
      {
        name: 'LCP',
        value: Math.round(900 + r(8) * 4000),
        id: id(8),
        nav,
        target: r(9) < 0.7 ? 'main > img.hero' : 'h1.title',
        url: r(9) < 0.7 ? 'https://cdn.example.com/hero.jpg' : '',
      },
      { name: 'CLS', value: Math.round(r(10) * 30) / 100, id: id(10), nav, target: 'div.banner' },
      {
        name: 'INP',
        value: Math.round(40 + r(11) * 460),
        id: id(11),
        nav,
        target: r(12) < 0.5 ? 'button#buy' : 'a.nav-link',
        type: r(12) < 0.8 ? 'pointer' : 'keyboard',
      },
    ],
  };
}

/** Inserts `count` beacons (5 metrics each) in batches as the ingest's flusher does; resolves with the rows written. */
export async function insertGeneratedBeacons(
  clickhouse: ClickHouseClient,
  database: string,
  count: number,
  now: Date,
  batch = 20_000,
): Promise<number> {
  // The beacon's public site id is checked by pattern only here; the rows carry the numeric id.
  const sitePublicId = newRumSitePublicId();
  let rows = 0;
  for (let start = 0; start < count; start += batch) {
    const lines: string[] = [];
    for (let n = start; n < Math.min(count, start + batch); n++) {
      const siteId = 1 + Math.floor(hash01(n) * SITES);
      const valid = validateBeacon(beacon(n, sitePublicId, randomBytes(12).toString('base64url')));
      if (valid instanceof Rejection) throw new Error(`generated beacon refused: ${valid.reason}`);
      const receivedAt = new Date(now.getTime() - Math.floor(hash01(n + 1) * 30 * 86_400_000));
      lines.push(beaconRows(valid, { siteId, sampleRate: 100, source: n % 5000, keepOneIn: 1 }, receivedAt));
      rows += valid.metrics.length;
    }
    await insertRumMetricRows(clickhouse, database, RUM_METRIC_COLUMNS, Buffer.from(lines.join('')));
  }
  return rows;
}
