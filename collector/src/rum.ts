/**
 * The live-data collector: runs on customers' pages from the snippet
 * `<script src="{ingest}/c/1/rum.js" data-site-id="…" async></script>` and sends the wire format of
 * core/rum/beacon.ts to `{ingest}/b`, the origin of its own src. It stores nothing in the browser (no
 * cookies, no storage), reads nothing that identifies a person, and sends the path without query or fragment.
 */
import { onCLS, onFCP, onINP, onLCP, onTTFB, type MetricWithAttribution } from 'web-vitals/attribution';
import { BEACON_LIMITS, type Beacon, type BeaconMetric } from '../../core/rum/beacon.ts';
import type { Device } from '../../core/rum/metrics.ts';

interface Recorded {
  path: string;
  metric: BeaconMetric;
  /** The number of the change that last set it, so the newest values go first when a send must be cut. */
  change: number;
}

const script = document.currentScript as HTMLScriptElement | null;
const site = script?.dataset.siteId;
const rate = sampleRate(script?.dataset.sample);
// One start per page even when the snippet is pasted twice: web-vitals' functions must run once per page load.
const started = '__webperfRum';

if (script && site && !(started in window) && Math.random() * 100 < rate) {
  (window as unknown as Record<string, boolean>)[started] = true;
  start(new URL('/b', script.src).href, site);
}

/** `data-sample` is the site's sample rate in percent (0–100); without it every page view reports. */
function sampleRate(attribute: string | undefined): number {
  const value = Math.round(Number(attribute));
  return attribute && value >= 0 && value <= 100 ? value : 100;
}

function start(endpoint: string, siteId: string): void {
  const pv = randomId();
  const device = classifyDevice();
  const latest = new Map<string, Recorded>();
  let changes = 0;
  let sentChanges = 0;
  let seq = 0;
  // Chromium (148 and later) often gives a mouse click's pointer entries no target, and web-vitals then names
  // none: remember what recent presses hit, by timestamp (an interaction's start time is its event's).
  const pressed = new Map<number, Node>();
  addEventListener(
    'pointerdown',
    (event) => {
      pressed.set(event.timeStamp, event.target as Node);
      if (pressed.size > 50) pressed.delete(pressed.keys().next().value!);
    },
    { capture: true, passive: true },
  );

  const record = (metric: MetricWithAttribution) => {
    const entry: BeaconMetric = { name: metric.name, value: metric.value, id: metric.id, nav: metric.navigationType };
    const a = metric.attribution as {
      target?: string;
      url?: string;
      interactionTarget?: string;
      interactionType?: string;
      largestShiftTarget?: string;
      interactionTime?: number;
    };
    const target = a.target ?? a.interactionTarget ?? a.largestShiftTarget ?? selector(pressed.get(a.interactionTime!));
    if (target) entry.target = target.slice(0, BEACON_LIMITS.targetLength);
    const url = a.url && originAndPath(a.url);
    if (url) entry.url = url.slice(0, BEACON_LIMITS.urlLength);
    if (a.interactionType) entry.type = a.interactionType;
    if (JSON.stringify(latest.get(metric.id)?.metric) === JSON.stringify(entry)) return;
    // Soft navigations report metrics for the URL they belong to, which may no longer be the current one.
    const path = new URL(metric.navigationURL || location.href).pathname.slice(0, BEACON_LIMITS.pathLength);
    latest.set(metric.id, { path, metric: entry, change: ++changes });
  };

  /** One body per path (soft navigations give a page view several) that changed since the last send. */
  const flush = () => {
    const since = sentChanges;
    sentChanges = changes;
    const byPath = new Map<string, Recorded[]>();
    for (const recorded of latest.values()) byPath.set(recorded.path, [...(byPath.get(recorded.path) ?? []), recorded]);
    for (const [path, recorded] of byPath) {
      if (recorded.every((r) => r.change <= since)) continue;
      // Every send repeats each metric's latest value; within the limits the newest changes come first, and
      // values left out were sent before (queries keep each metric id's highest seq).
      const metrics = recorded
        .sort((x, y) => y.change - x.change)
        .slice(0, BEACON_LIMITS.metricsPerBeacon)
        .map((r) => r.metric);
      const beacon: Beacon = { v: 1, site: siteId, pv, seq: ++seq, path, device, rate, metrics };
      let body = JSON.stringify(beacon);
      while (metrics.length > 1 && new Blob([body]).size > BEACON_LIMITS.bodyBytes) {
        metrics.pop();
        body = JSON.stringify(beacon);
      }
      send(endpoint, body);
    }
  };

  // Every change, not only final values: the last interaction before the page is hidden reaches web-vitals
  // after its forced report in the same visibilitychange and would otherwise be lost. Nothing is sent
  // before the page is hidden either way.
  const options = { reportSoftNavs: true, reportAllChanges: true };
  onLCP(record, options);
  onCLS(record, options);
  onINP(record, options);
  onFCP(record, options);
  onTTFB(record, options);
  // On window in the bubbling phase: after web-vitals' own capturing listeners have reported final values.
  // Not on pagehide: browsers fire it before visibilitychange when leaving a page, so it would send a
  // second, not yet final beacon per navigation (web-vitals dropped pagehide once browsers fixed
  // visibilitychange on unload).
  addEventListener('visibilitychange', () => document.visibilityState === 'hidden' && flush());
}

/** text/plain, so neither sendBeacon nor the fetch fallback needs a CORS preflight. */
function send(endpoint: string, body: string): void {
  if (!navigator.sendBeacon?.(endpoint, body)) {
    fetch(endpoint, { method: 'POST', body, keepalive: true, credentials: 'omit' }).catch(() => undefined);
  }
}

/** The element as web-vitals names it (id, else tag and sorted classes, up to an id or 100 characters). */
function selector(node: Node | null | undefined): string | undefined {
  let path = '';
  for (let el = node as Element | null | undefined; el?.nodeType === 1; el = el.parentElement) {
    const part = el.id ? '#' + el.id : [el.localName, ...Array.from(el.classList).sort()].join('.');
    if (path.length + part.length > 99) return path || part;
    path = path ? part + '>' + path : part;
    if (el.id) break;
  }
  return path || undefined;
}

/** A resource URL without query or fragment (which may carry tokens); other schemes (data:, blob:) not at all. */
function originAndPath(url: string): string | undefined {
  const parsed = new URL(url, location.href);
  return /^https?:$/.test(parsed.protocol) ? parsed.origin + parsed.pathname : undefined;
}

/** Client hints where the browser has them, else the user agent; iPadOS claims to be a Mac but has touch. */
function classifyDevice(): Device {
  const ua = navigator.userAgent;
  if (
    /iPad|Tablet|Kindle|Silk|PlayBook/i.test(ua) ||
    (/Android/i.test(ua) && !/Mobi/i.test(ua)) ||
    (/Macintosh/.test(ua) && navigator.maxTouchPoints > 1)
  ) {
    return 'tablet';
  }
  const hints = (navigator as Navigator & { userAgentData?: { mobile: boolean } }).userAgentData;
  return (hints ? hints.mobile : /Mobi|iPhone|iPod|Android/i.test(ua)) ? 'mobile' : 'desktop';
}

/** 21 random characters of [A-Za-z0-9_-], new on every page load and never stored. */
function randomId(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-';
  return Array.from(crypto.getRandomValues(new Uint8Array(21)), (b) => alphabet[b & 63]).join('');
}
