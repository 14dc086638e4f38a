/**
 * The live-data collector: runs on customers' pages from the snippet
 * `<script src="{ingest}/c/1/rum.js" data-site-id="…" async></script>` and sends the wire format of
 * core/rum/beacon.ts to `{ingest}/b`, the origin of its own src. It stores nothing in the browser (no
 * cookies, no storage), reads nothing that identifies a person, and sends the path without query or fragment.
 */
// Attribution only where the beacon carries some; FCP and TTFB without it (a few hundred bytes less).
import type { Metric } from 'web-vitals';
import { onCLS } from 'web-vitals/attribution/onCLS.js';
import { onINP } from 'web-vitals/attribution/onINP.js';
import { onLCP } from 'web-vitals/attribution/onLCP.js';
import { onFCP } from 'web-vitals/onFCP.js';
import { onTTFB } from 'web-vitals/onTTFB.js';
import { BEACON_LIMITS, type Beacon, type BeaconMetric, type BeaconScript } from '../../core/rum/beacon.ts';
import type { InpPhase, LcpPhase, PhasedMetric, SCRIPT_INVOKER_TYPES } from '../../core/rum/diagnostics.ts';
import type { Device } from '../../core/rum/metrics.ts';

/*
 * core/rum/diagnostics.ts's names by type only (the compiler checks these lists against it): importing its
 * values would bundle the metric rules too, bytes the collector does not need.
 */

/** The attribution field behind each phase. */
const PHASE_FIELDS = {
  LCP: {
    ttfb: 'timeToFirstByte',
    delay: 'resourceLoadDelay',
    load: 'resourceLoadDuration',
    render: 'elementRenderDelay',
  },
  INP: { input: 'inputDelay', processing: 'processingDuration', presentation: 'presentationDelay' },
} as const satisfies { LCP: Record<LcpPhase, string>; INP: Record<InpPhase, string> };

type Attribution = Partial<Record<ValueOf<(typeof PHASE_FIELDS)[PhasedMetric]>, number>> & {
  target?: string;
  url?: string;
  interactionTarget?: string;
  interactionType?: string;
  largestShiftTarget?: string;
  interactionTime?: number;
  nextPaintTime?: number;
  longAnimationFrameEntries?: PerformanceLongAnimationFrameTiming[];
};

/** The invoker types the ingest accepts: a script of a kind a browser adds later is left out, not the beacon refused. */
const INVOKER_TYPES: Record<(typeof SCRIPT_INVOKER_TYPES)[number], 1> = {
  'classic-script': 1,
  'module-script': 1,
  'event-listener': 1,
  'user-callback': 1,
  'resolve-promise': 1,
  'reject-promise': 1,
};

type ValueOf<T> = T[keyof T];

interface Recorded {
  /** The page view it belongs to: the load's id, or a soft navigation's own (`<load id>-<n>`). */
  view: string;
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
  // Each soft navigation (by web-vitals' navigationId) is a page view of its own, numbered from 1 in the load.
  const softViews = new Map<number, string>();
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

  const record = (metric: Metric & { attribution?: object }) => {
    const soft = metric.navigationType === 'soft-navigation';
    // A soft navigation fetches no document: web-vitals reports its TTFB as 0, which would only pull the p75 down.
    if (soft && metric.name === 'TTFB') return;
    const entry: BeaconMetric = { name: metric.name, value: metric.value, id: metric.id, nav: metric.navigationType };
    const a: Attribution = metric.attribution ?? {};
    const target = a.target ?? a.interactionTarget ?? a.largestShiftTarget ?? selector(pressed.get(a.interactionTime!));
    if (target) entry.target = target.slice(0, BEACON_LIMITS.targetLength);
    const url = originAndPath(a.url);
    if (url) entry.url = url;
    if (a.interactionType) entry.type = a.interactionType;
    // Only a measured value has phases: web-vitals makes up a breakdown for values without entries (a
    // back-forward-cache restore's LCP, a soft navigation's placeholder INP).
    const fields = PHASE_FIELDS[metric.name as PhasedMetric];
    if (fields && metric.entries.length) {
      entry.phases = {};
      for (const [phase, field] of Object.entries(fields))
        entry.phases[phase] = Math.round(a[field as keyof Attribution] as number);
    }
    const scripts = a.longAnimationFrameEntries && interactionScripts(a);
    if (scripts?.length) entry.scripts = scripts;
    if (JSON.stringify(latest.get(metric.id)?.metric) === JSON.stringify(entry)) return;
    if (soft && !softViews.has(metric.navigationId)) {
      softViews.set(metric.navigationId, `${pv}-${softViews.size + 1}`);
    }
    // Soft navigations report metrics for the URL they belong to, which may no longer be the current one.
    const path = new URL(metric.navigationURL || location.href).pathname.slice(0, BEACON_LIMITS.pathLength);
    latest.set(metric.id, { view: softViews.get(metric.navigationId) ?? pv, path, metric: entry, change: ++changes });
  };

  /** One body per page view (the load's, each soft navigation's) that changed since the last send. */
  const flush = () => {
    const since = sentChanges;
    sentChanges = changes;
    const byView = new Map<string, Recorded[]>();
    for (const recorded of latest.values()) byView.set(recorded.view, [...(byView.get(recorded.view) ?? []), recorded]);
    for (const [view, recorded] of byView) {
      if (recorded.every((r) => r.change <= since)) continue;
      // Every send repeats each metric's latest value; within the limits the newest changes come first, and
      // values left out were sent before (queries keep each metric id's highest seq).
      const metrics = recorded
        .sort((x, y) => y.change - x.change)
        .slice(0, BEACON_LIMITS.metricsPerBeacon)
        .map((r) => r.metric);
      const beacon: Beacon = {
        v: 1,
        site: siteId,
        pv: view,
        seq: ++seq,
        path: recorded[0]!.path,
        device,
        rate,
        metrics,
      };
      let body = JSON.stringify(beacon, wellFormed);
      while (metrics.length > 1 && new Blob([body]).size > BEACON_LIMITS.bodyBytes) {
        metrics.pop();
        body = JSON.stringify(beacon, wellFormed);
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

/**
 * A page's own text (an element id, a script's function name) may hold a lone UTF-16 surrogate, which the ingest
 * refuses with the whole beacon: it travels as U+FFFD instead. Browsers without toWellFormed send it as it is.
 */
function wellFormed(_key: string, value: unknown): unknown {
  return typeof value === 'string' ? (value.toWellFormed?.() ?? value) : value;
}

/** text/plain, so neither sendBeacon nor the fetch fallback needs a CORS preflight. */
function send(endpoint: string, body: string): void {
  if (!navigator.sendBeacon?.(endpoint, body)) {
    fetch(endpoint, { method: 'POST', body, keepalive: true, credentials: 'omit' }).catch(() => undefined);
  }
}

/**
 * The long-animation-frame scripts that ran during the interaction (from its input to its next paint), each
 * with the part of its run inside that window, longest first.
 */
function interactionScripts(a: Attribution): BeaconScript[] {
  const from = a.interactionTime!;
  const to = a.nextPaintTime!;
  return a
    .longAnimationFrameEntries!.flatMap((frame) => frame.scripts)
    .map((s) => ({
      src: originAndPath(s.sourceURL),
      fn: s.sourceFunctionName.slice(0, BEACON_LIMITS.functionLength),
      inv: s.invokerType,
      dur: Math.round(Math.min(s.startTime + s.duration, to) - Math.max(s.startTime, from)),
    }))
    .filter((s) => s.dur > 0 && s.inv in INVOKER_TYPES)
    .sort((x, y) => y.dur - x.dur)
    .slice(0, BEACON_LIMITS.scriptsPerMetric);
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

/**
 * An http(s) URL without query or fragment (which may carry tokens), cut to the beacon's limit; other schemes
 * (data:, blob:) and no URL give ''.
 */
function originAndPath(url = ''): string {
  if (!/^https?:/.test(url)) return '';
  const { origin, pathname } = new URL(url);
  return (origin + pathname).slice(0, BEACON_LIMITS.urlLength);
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

/** 24 random hex digits (96 bits), new on every page load and never stored; `-<n>` after it still fits 32. */
function randomId(): string {
  return Array.from(crypto.getRandomValues(new Uint32Array(3)), (n) => n.toString(16).padStart(8, '0')).join('');
}
