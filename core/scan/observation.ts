/**
 * What one scan observed, as the Lighthouse runner (activities/lighthouse) hands it to scoring (core/scoring).
 * Plain JSON, small enough for a Temporal payload: images are stored as assets and named here, never inlined.
 */

import type { AuditEvidence, BfCacheObservation, Diagnostics, DocumentWrite, NetworkBreakdown } from './details.ts';
import type { FormFactor } from './form-factor.ts';
import type { FormFactorLighthouse } from './lighthouse-categories.ts';

export { FORM_FACTORS, type FormFactor } from './form-factor.ts';

/** A trimmed Lighthouse audit: score, numeric value, up to 25 table rows (long strings cut), checklist flags. */
export interface AuditSummary {
  score: number | null;
  numericValue: number | null;
  items: Array<Record<string, string | number | boolean | null>>;
  /** For checklist audits (document-latency-insight): label key to pass/fail. */
  checklist: Record<string, boolean>;
  /** The resources and elements behind the audit and its estimated savings (core/scan/details.ts); absent from older runners. */
  evidence?: AuditEvidence;
}

/** Lighthouse audit ids the runner keeps (Lighthouse 13 names). */
export const KEPT_AUDITS = [
  'image-delivery-insight',
  'cache-insight',
  'document-latency-insight',
  'modern-http-insight',
  'render-blocking-insight',
  'redirects',
  'unsized-images',
  'third-parties-insight',
  'legacy-javascript-insight',
  'duplicated-javascript-insight',
  'unused-javascript',
  'unused-css-rules',
  'unminified-css',
  'unminified-javascript',
  'font-display-insight',
  'dom-size-insight',
  'lcp-discovery-insight',
  'viewport-insight',
  'bootup-time',
  'mainthread-work-breakdown',
  'lcp-breakdown-insight',
  'cls-culprits-insight',
] as const;
export type KeptAudit = (typeof KEPT_AUDITS)[number];

export interface FormFactorObservation {
  /** Lighthouse performance category score, 0..1; null when Lighthouse could not compute it. */
  performanceScore: number | null;
  /** Lighthouse's metric values (simulated for throttled runs), milliseconds; cls unitless; 0 when Lighthouse had none. */
  metrics: { fcpMs: number; lcpMs: number; cls: number; tbtMs: number; speedIndexMs: number; interactiveMs: number };
  /** Observed (unthrottled trace) paint times, on the same time base as the filmstrip frames. */
  observed: { fcpMs: number | null; lcpMs: number | null };
  requestCount: number;
  totalBytes: number;
  /** Lighthouse's CPU benchmark of the machine during this run (lower means a busier machine). */
  benchmarkIndex: number | null;
  audits: Partial<Record<KeptAudit, AuditSummary>>;
  /** Asset name of the final screenshot (JPEG), or null. */
  screenshot: string | null;
  filmstrip: Array<{ asset: string; ms: number }>;
  /** The LCP, layout-shift, render-blocking, third-party and main-thread breakdowns; absent from older runners. */
  diagnostics?: Diagnostics;
  /** The requests of the load (waterfall, script and image bytes); absent from older runners. */
  network?: NetworkBreakdown;
  /** Lighthouse's four category scores and its failed accessibility, best-practices and SEO audits; absent from older runners. */
  lighthouse?: FormFactorLighthouse;
  /**
   * The page's document.write() calls (at most DETAIL_LIMITS.items, in the order made), as Chromium reported them to
   * Lighthouse (its ConsoleMessages artifact, which the result does not keep); absent from older runners.
   */
  documentWrites?: DocumentWrite[];
}

export interface ResponseObservation {
  url: string;
  status: number;
  mimeType: string;
  /** Chromium's resource type: Document, Script, Stylesheet, Image, Font, XHR, Fetch, Other, ... */
  resourceType: string;
  /** As Chromium reports it: http/1.1, h2, h3, ... */
  protocol: string;
  transferBytes: number;
  resourceBytes: number;
  /** Response headers, names lower-cased; only those the checks read (see RESPONSE_HEADERS). */
  headers: Record<string, string>;
}

export const RESPONSE_HEADERS = [
  'cache-control',
  'expires',
  'etag',
  'last-modified',
  'content-encoding',
  'content-type',
  'server',
  'x-powered-by',
  'link',
  'strict-transport-security',
  'location',
  'vary',
] as const;

/** What one runner process saw of the page itself, from the first form factor it loaded (desktop when it loaded both). */
export interface PageObservation {
  requestedUrl: string;
  finalUrl: string;
  /** HTTP status of the main document (after redirects). */
  httpStatus: number;
  /** Redirect hops before the final document, in order. */
  redirects: Array<{ url: string; status: number }>;
  /** Server response time of the main document, milliseconds (Lighthouse server-response-time, desktop run). */
  ttfbMs: number;
  /** Content of <meta name="generator">, if any. */
  generator: string | null;
  /** Every response of the desktop page load, main document first. */
  responses: ResponseObservation[];
  lighthouseVersion: string;
  /** The browser's own version (e.g. `HeadlessChrome/156.0.7444.59`): the user agent only names the major. */
  chromiumVersion: string;
  /** host:port of requests the egress proxy refused as private or special-use addresses (first 20). */
  blockedRequests: string[];
  /**
   * Whether the page came back from the back/forward cache when Lighthouse left it and went back, tested in the
   * desktop load; null when the test could not tell, absent when it was not made (older runners, a run
   * without desktop).
   */
  bfCache?: BfCacheObservation | null;
}

/**
 * One run: one runner process, one Chromium with a fresh profile, the form factors it was asked for (one
 * after the other). A scan of N runs is N of these, and the median run of each form factor stands for it.
 */
export type RunObservation = PageObservation & Partial<Record<FormFactor, FormFactorObservation>>;

/** The scan as scored: the page and each form factor's median run (core/scan/median-run.ts). */
export type ScanObservation = PageObservation & Record<FormFactor, FormFactorObservation>;
