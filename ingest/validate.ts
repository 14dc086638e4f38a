import { BEACON_LIMITS, type Beacon, type BeaconMetric, type BeaconScript } from '../core/rum/beacon.ts';
import { isPhasedMetric, METRIC_PHASES, phaseMax, SCRIPT_INVOKER_TYPES } from '../core/rum/diagnostics.ts';
import {
  DEVICES,
  isRumMetric,
  METRIC_RULES,
  NAVIGATION_TYPES,
  type Device,
  type NavigationType,
} from '../core/rum/metrics.ts';
import { RUM_SITE_PUBLIC_ID_PATTERN } from '../core/rum/site.ts';
import { Rejection } from './reasons.ts';

/**
 * Checks one beacon (core/rum/beacon.ts) completely before anything is written, so no row ClickHouse could
 * refuse (an unknown Enum8 value fails a whole 18.16 batch) ever reaches a batch.
 */

const PAGE_VIEW_ID = /^[A-Za-z0-9_-]{16,32}$/;
const METRIC_ID = /^[\x21-\x7e]+$/;
const SITE_ID = new RegExp(RUM_SITE_PUBLIC_ID_PATTERN);
// Control characters, and the separators a pathname never carries.
// eslint-disable-next-line no-control-regex -- control characters are exactly what these refuse
const BAD_PATH_CHARS = /[\x00-\x1f\x7f?#]/;
// eslint-disable-next-line no-control-regex -- as above
const CONTROL = /[\x00-\x1f\x7f]/;

export function parseJson(body: string): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return new Rejection('bad_json');
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isInt = (value: unknown, min: number, max: number): value is number =>
  Number.isInteger(value) && (value as number) >= min && (value as number) <= max;

/** The public site id a parsed body names, when it looks like one (anything else cannot be a site). */
export function beaconSiteId(value: unknown): string | null {
  return isObject(value) && typeof value.site === 'string' && SITE_ID.test(value.site) ? value.site : null;
}

/** String.prototype.isWellFormed (ES2024; the project's TypeScript lib is ES2023). */
const isWellFormed = (text: string): boolean => (text as unknown as { isWellFormed(): boolean }).isWellFormed();

/** Whether every string in a parsed body, keys included, is well-formed Unicode (no lone UTF-16 surrogate). */
export function isWellFormedDeep(value: unknown): boolean {
  if (typeof value === 'string') return isWellFormed(value);
  if (Array.isArray(value)) return value.every(isWellFormedDeep);
  if (isObject(value)) return Object.entries(value).every(([key, item]) => isWellFormed(key) && isWellFormedDeep(item));
  return true;
}

export function validateBeacon(value: unknown): Beacon | Rejection {
  // First, whatever the field: a lone surrogate anywhere makes the beacon text no store can take.
  if (!isWellFormedDeep(value)) return new Rejection('bad_text');
  if (!isObject(value) || value.v !== 1 || typeof value.site !== 'string') return new Rejection('bad_shape');
  if (typeof value.pv !== 'string' || !PAGE_VIEW_ID.test(value.pv)) return new Rejection('bad_shape');
  if (!isInt(value.seq, 1, 65_535) || !isInt(value.rate, 1, 100)) return new Rejection('bad_shape');
  if (typeof value.device !== 'string' || !(DEVICES as readonly string[]).includes(value.device))
    return new Rejection('bad_shape');
  if (typeof value.path !== 'string') return new Rejection('bad_shape');
  if (value.path.length > BEACON_LIMITS.pathLength) return new Rejection('oversize');
  if (!value.path.startsWith('/') || BAD_PATH_CHARS.test(value.path)) return new Rejection('bad_path');
  if (!Array.isArray(value.metrics) || value.metrics.length === 0) return new Rejection('bad_shape');
  if (value.metrics.length > BEACON_LIMITS.metricsPerBeacon) return new Rejection('oversize');
  const metrics: BeaconMetric[] = [];
  const ids = new Set<string>();
  for (const item of value.metrics as unknown[]) {
    const metric = validateMetric(item);
    if (metric instanceof Rejection) return metric;
    if (ids.has(metric.id)) return new Rejection('bad_shape');
    ids.add(metric.id);
    metrics.push(metric);
  }
  return {
    v: 1,
    site: value.site,
    pv: value.pv,
    seq: value.seq,
    path: value.path,
    device: value.device as Device,
    rate: value.rate,
    metrics,
  };
}

function validateMetric(item: unknown): BeaconMetric | Rejection {
  if (!isObject(item) || typeof item.name !== 'string') return new Rejection('bad_shape');
  if (!isRumMetric(item.name)) return new Rejection('bad_metric');
  if (
    typeof item.value !== 'number' ||
    !Number.isFinite(item.value) ||
    item.value < 0 ||
    item.value > METRIC_RULES[item.name].max
  ) {
    return new Rejection('value_range');
  }
  if (typeof item.id !== 'string' || !METRIC_ID.test(item.id)) return new Rejection('bad_shape');
  if (item.id.length > BEACON_LIMITS.idLength) return new Rejection('oversize');
  if (typeof item.nav !== 'string' || !(NAVIGATION_TYPES as readonly string[]).includes(item.nav))
    return new Rejection('bad_shape');
  const metric: BeaconMetric = { name: item.name, value: item.value, id: item.id, nav: item.nav as NavigationType };
  for (const [field, limit] of [
    ['target', BEACON_LIMITS.targetLength],
    ['url', BEACON_LIMITS.urlLength],
    ['type', BEACON_LIMITS.typeLength],
  ] as const) {
    const text = item[field];
    if (text === undefined) continue;
    if (typeof text !== 'string' || CONTROL.test(text)) return new Rejection('bad_shape');
    if (text.length > limit) return new Rejection('oversize');
    // The collector sends origin + path only; a query string or fragment that slips through is cut here.
    metric[field] = field === 'url' ? withoutQuery(text) : text;
  }
  if (item.phases !== undefined) {
    const phases = validatePhases(metric.name, item.phases);
    if (phases instanceof Rejection) return phases;
    metric.phases = phases;
  }
  if (item.scripts !== undefined) {
    if (metric.name !== 'INP' || !Array.isArray(item.scripts)) return new Rejection('bad_shape');
    if (item.scripts.length > BEACON_LIMITS.scriptsPerMetric) return new Rejection('oversize');
    const scripts: BeaconScript[] = [];
    for (const entry of item.scripts as unknown[]) {
      const script = validateScript(entry);
      if (script instanceof Rejection) return script;
      scripts.push(script);
    }
    metric.scripts = scripts;
  }
  return metric;
}

const withoutQuery = (url: string) => url.replace(/[?#].*$/s, '');

/** Exactly the metric's phase names (core/rum/diagnostics.ts), each a time within the metric's own range. */
function validatePhases(name: BeaconMetric['name'], value: unknown): Record<string, number> | Rejection {
  if (!isPhasedMetric(name) || !isObject(value)) return new Rejection('bad_shape');
  const names: readonly string[] = METRIC_PHASES[name];
  if (Object.keys(value).length !== names.length) return new Rejection('bad_shape');
  const phases: Record<string, number> = {};
  for (const phase of names) {
    const time = value[phase];
    if (typeof time !== 'number') return new Rejection('bad_shape');
    if (!Number.isFinite(time) || time < 0 || time > phaseMax(name)) return new Rejection('value_range');
    phases[phase] = time;
  }
  return phases;
}

function validateScript(value: unknown): BeaconScript | Rejection {
  if (!isObject(value)) return new Rejection('bad_shape');
  const { src, fn, inv, dur } = value;
  if (typeof src !== 'string' || typeof fn !== 'string' || typeof inv !== 'string') return new Rejection('bad_shape');
  if (CONTROL.test(src) || CONTROL.test(fn)) return new Rejection('bad_shape');
  if (!(SCRIPT_INVOKER_TYPES as readonly string[]).includes(inv)) return new Rejection('bad_shape');
  if (src.length > BEACON_LIMITS.urlLength || fn.length > BEACON_LIMITS.functionLength)
    return new Rejection('oversize');
  if (typeof dur !== 'number') return new Rejection('bad_shape');
  if (!Number.isFinite(dur) || dur < 0 || dur > phaseMax('INP')) return new Rejection('value_range');
  return { src: withoutQuery(src), fn, inv, dur };
}

/** What the ingest, not the beacon, says about a stored beacon. */
export interface RowContext {
  siteId: number;
  /** The site's configured sample rate (the beacon's own `rate` is written by its sender and never stored). */
  sampleRate: number;
  /** The sender's network hash (ingest/source.ts). */
  source: number;
  /** 1, or N past the monthly limit (core/rum/over-limit.ts). */
  keepOneIn: number;
}

/** `YYYY-MM-DD hh:mm:ss` in UTC, which DateTime('UTC') reads the same on 18.16 and current ClickHouse. */
export function clickhouseDateTime(at: Date): string {
  const second = Math.floor(at.getTime() / 1000);
  if (second !== lastSecond.second) lastSecond = { second, text: at.toISOString().slice(0, 19).replace('T', ' ') };
  return lastSecond.text;
}

// Thousands of beacons share a second: format it once.
let lastSecond = { second: -1, text: '' };

/** The beacon's rows as JSONEachRow lines (every column, in the order of db/clickhouse/rum-ingest.ts's RUM_METRIC_COLUMNS). */
export function beaconRows(beacon: Beacon, context: RowContext, receivedAt: Date): string {
  const ts = clickhouseDateTime(receivedAt);
  const { siteId, sampleRate, source, keepOneIn } = context;
  let lines = '';
  for (const m of beacon.metrics) {
    lines +=
      JSON.stringify({
        site_id: siteId,
        ts,
        page_view_id: beacon.pv,
        seq: beacon.seq,
        metric_id: m.id,
        metric: m.name,
        value: m.value,
        device: beacon.device,
        navigation: m.nav,
        path: beacon.path,
        sample_rate: sampleRate,
        attr_target: m.target ?? '',
        attr_url: m.url ?? '',
        attr_type: m.type ?? '',
        source,
        keep_one_in: keepOneIn,
        phases: m.phases && isPhasedMetric(m.name) ? METRIC_PHASES[m.name].map((phase) => m.phases![phase]) : [],
        script_urls: m.scripts?.map((s) => s.src) ?? [],
        script_functions: m.scripts?.map((s) => s.fn) ?? [],
        script_invokers: m.scripts?.map((s) => s.inv) ?? [],
        script_durations: m.scripts?.map((s) => s.dur) ?? [],
      }) + '\n';
  }
  return lines;
}
