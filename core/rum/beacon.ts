import type { Device, NavigationType, RumMetric } from './metrics.ts';

/**
 * The wire format from the collector script (collector/) to the ingest service (ingest/): one JSON body per
 * send, `POST {INGEST_URL}/b`, sent as `text/plain` so `navigator.sendBeacon` needs no CORS preflight.
 *
 * A page view may send more than once (each time the page is hidden, when a metric changed since the last
 * send); `seq` counts a page view's sends and every send repeats the latest value of each metric so far.
 * Queries keep, per (page view, metric id), the value of the highest `seq` (see db/clickhouse/), so resends,
 * retried requests and replays of the ingest spool are never counted twice.
 */
export interface Beacon {
  /** Format version. */
  v: 1;
  /** The site's public id (from the script tag's data-site-id). */
  site: string;
  /** A random id per page load, 16–32 characters [A-Za-z0-9_-]. */
  pv: string;
  /** The send's number within the page view, from 1. */
  seq: number;
  /** location.pathname only: never a query string or fragment. */
  path: string;
  device: Device;
  /** The sample rate the script applied (1–100 %), so counts can be scaled back. */
  rate: number;
  metrics: BeaconMetric[];
}

export interface BeaconMetric {
  name: RumMetric;
  /** ms for time metrics, unitless for CLS. */
  value: number;
  /** web-vitals' metric id (unique per metric instance within a page load). */
  id: string;
  nav: NavigationType;
  /**
   * What a person needs to fix it: LCP element selector (`target`) and resource URL without query or
   * fragment (`url`); INP interaction target (`target`) and type (`type`: pointer or keyboard); CLS largest
   * shift target (`target`). Absent fields are omitted.
   */
  target?: string;
  url?: string;
  type?: string;
  /**
   * LCP: `{ ttfb, delay, load, render }` (time to first byte, resource load delay, resource load duration,
   * element render delay); INP: `{ input, processing, presentation }` (input delay, processing duration,
   * presentation delay). Milliseconds, from web-vitals' attribution build; names per metric in
   * core/rum/diagnostics.ts.
   */
  phases?: Record<string, number>;
  /** INP only: the long-animation-frame scripts that ran during the interaction, longest first. */
  scripts?: BeaconScript[];
}

/** One script of a long animation frame (the Long Animation Frames API's PerformanceScriptTiming). */
export interface BeaconScript {
  /** The script's URL, origin and path only ('' when the browser names none). */
  src: string;
  /** The function the browser names ('' when none). */
  fn: string;
  /** invokerType: `event-listener`, `user-callback`, `classic-script`, `module-script`, `resolve-promise`, `reject-promise`. */
  inv: string;
  /** ms of the script's run that fall inside the interaction (from its start to its next paint). */
  dur: number;
}

/** Size limits the ingest service enforces (reason `oversize` beyond them). */
export const BEACON_LIMITS = {
  bodyBytes: 8192,
  pathLength: 1024,
  targetLength: 256,
  urlLength: 512,
  typeLength: 16,
  metricsPerBeacon: 20,
  idLength: 64,
  scriptsPerMetric: 5,
  functionLength: 128,
  invokerLength: 32,
} as const;
