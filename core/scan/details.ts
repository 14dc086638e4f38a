import type { FormFactor } from './form-factor.ts';

/**
 * What the report keeps of Lighthouse's audit and insight `details`: the things behind a finding (resources
 * and elements), the LCP, layout-shift, render-blocking, third-party and main-thread breakdowns, and the
 * requests of the page load (the waterfall, and the script and image bytes). Stored with each result, so every
 * list is bounded here and nowhere else.
 */
export const DETAIL_LIMITS = {
  /** Items kept per audit and per finding (Lighthouse's own order: largest first). */
  items: 10,
  /** Characters kept of an element's HTML snippet. */
  snippet: 200,
  /** Characters kept of a URL, a selector or a label. */
  text: 300,
  /** Entities, shifted elements, render-blocking requests and main-thread categories kept per form factor. */
  rows: 10,
  /** Requests kept for the waterfall per form factor: the first ones by start time. */
  waterfall: 150,
  /** Scripts and images kept per form factor in the bytes breakdown: the largest ones. */
  byteRows: 15,
} as const;

/** An element's box in CSS pixels of the page as Lighthouse laid it out (the screenshot's viewport at the top). */
export interface Box {
  top: number;
  left: number;
  width: number;
  height: number;
}

/** An element on the page, as Lighthouse names it. */
export interface ElementRef {
  selector: string;
  snippet: string;
  /** Lighthouse's short label (alt text, text content, ...). */
  label: string;
  box: Box | null;
}

/**
 * What made content shift, as Lighthouse's cls-culprits-insight names it: an image without dimensions, a web
 * font that swapped in, an iframe inserted; `unexplained` when it named no cause (content inserted by a script,
 * a late style, an animation: Lighthouse 13 does not tell these apart).
 */
export const SHIFT_CAUSES = ['unsized-image', 'web-font', 'injected-iframe', 'unexplained'] as const;
export type ShiftCause = (typeof SHIFT_CAUSES)[number];

/** What Lighthouse's image-delivery insight says would make an image smaller. */
export const IMAGE_FIXES = ['responsive-size', 'modern-format', 'compression', 'video-format'] as const;
export type ImageFix = (typeof IMAGE_FIXES)[number];

/**
 * Chromium's kinds of reasons a page is not restored from the back/forward cache: the page's own doing
 * (`actionable`), not yet supported by Chromium (`pending-support`), the circumstances of the test
 * (`circumstantial`).
 */
export const BFCACHE_BLOCKER_TYPES = ['actionable', 'pending-support', 'circumstantial'] as const;
export type BfCacheBlockerType = (typeof BFCACHE_BLOCKER_TYPES)[number];

/** One thing behind a finding on one form factor: a resource (url), an element (selector), or both. */
export interface DetailItem {
  url?: string;
  selector?: string;
  snippet?: string;
  label?: string;
  box?: Box;
  transfer_bytes?: number;
  wasted_bytes?: number;
  wasted_ms?: number;
  /** Main-thread time of a script (bootup-time, third parties). */
  main_thread_ms?: number;
  /** A layout shift's culprit (the item's element or URL): what made the content shift. */
  cause?: ShiftCause;
  /** The element the shift moved (its selector), beside the culprit that moved it. */
  moved?: string;
  /** The layout-shift score of the shifts this culprit caused. */
  shift?: number;
  /** An image: what would make it smaller (Lighthouse's image-delivery insight). */
  fixes?: ImageFix[];
  /** An image too large for where it is shown: the file's and the shown size in pixels, `1200x900`. */
  file_px?: string;
  shown_px?: string;
  /** A script: the polyfills and transforms Lighthouse found that current browsers do not need. */
  signals?: string[];
  /** A module (named in `label`) bundled more than once: the scripts that carry a copy. */
  copies?: string[];
  /** A third-party product (named in `label`): the lighter stand-ins (facades) known for it. */
  facades?: string[];
  /** A back/forward cache blocker: Chromium's reason (its NotRestoredReason) and its kind. */
  reason?: string;
  blocker?: BfCacheBlockerType;
  /** A request of a critical chain: when it ended, ms from the start of the navigation. */
  end_ms?: number;
  /** A call in a script (named in `url`): its line and column there, counted from 1 as editors count. */
  line?: number;
  column?: number;
}

/** Lighthouse's estimated savings: milliseconds of the metric it helps most, and bytes; null where it gives none. */
export interface Savings {
  ms: number | null;
  bytes: number | null;
}

/** A kept Lighthouse audit's items and savings. */
export interface AuditEvidence {
  items: DetailItem[];
  savings: Savings;
}

export interface LcpPhases {
  ttfb_ms: number;
  load_delay_ms: number | null;
  load_time_ms: number | null;
  render_delay_ms: number;
}

/**
 * How the browser found and fetched the LCP image (Lighthouse's lcp-discovery-insight checklist): whether it was
 * lazy-loaded, fetched with `fetchpriority=high`, and requested from the HTML itself (or a preload).
 */
export interface LcpDiscovery {
  lazy_loaded: boolean;
  fetchpriority_high: boolean;
  in_initial_html: boolean;
}

/** What made one layout shift happen: an image without dimensions (its element), a web font or an iframe (its URL). */
export interface ShiftCulprit {
  cause: Exclude<ShiftCause, 'unexplained'>;
  element?: ElementRef;
  url?: string;
}

export interface LayoutShift {
  /** The element that moved most (Lighthouse's choice). */
  element: ElementRef;
  score: number;
  share: number;
  /** Lighthouse's wording of the causes (English). */
  causes: string[];
  /** What caused the shift, named; empty when Lighthouse named no cause. Absent from older results. */
  culprits?: ShiftCulprit[];
}

/** One request of the longest chain of critical requests (Lighthouse's network-dependency-tree-insight). */
export interface ChainRequest {
  url: string;
  /** When it ended, ms from the start of the navigation. */
  end_ms: number;
  transfer_bytes: number;
}

/** The longest chain of critical requests: each request found only once the one before it had arrived. */
export interface CriticalChain {
  /** Requests in the chain, the document first. */
  length: number;
  /** From the start of the navigation to the end of its last request. */
  duration_ms: number;
  /** Its requests in order (at most DETAIL_LIMITS.rows). */
  requests: ChainRequest[];
}

export interface Diagnostics {
  lcp: { element: ElementRef | null; phases: LcpPhases | null; discovery?: LcpDiscovery | null };
  /** Elements that shifted, with their layout-shift score and share of the total (0..1). */
  layout_shifts: LayoutShift[];
  render_blocking: Array<{ url: string; transfer_bytes: number; wasted_ms: number }>;
  /** Lighthouse's entity classification; an unrecognised origin is its own entity named by its domain. */
  third_parties: Array<{
    entity: string;
    recognized: boolean;
    transfer_bytes: number;
    main_thread_ms: number;
    /** The entity's requests (the largest first, at most DETAIL_LIMITS.rows); absent from older results. */
    urls?: string[];
  }>;
  main_thread: Array<{ category: string; label: string; ms: number }>;
  /** The longest chain of critical requests; null when the page had none beyond its document. Absent from older results. */
  critical_chain?: CriticalChain | null;
}

/** Why the page was not restored from the back/forward cache, as Chromium reported it when Lighthouse went back to it. */
export interface BfCacheBlocker {
  /** Chromium's NotRestoredReason, e.g. `MainResourceHasCacheControlNoStore`. */
  reason: string;
  type: BfCacheBlockerType;
  /** The frames it concerns (the page's URL for the main frame), at most DETAIL_LIMITS.rows. */
  frames: string[];
}

/**
 * A document.write() call Chromium reported while the page loaded: the script that made it (the page's own URL for
 * an inline script) and where in it, line and column counted from 1 as editors count.
 */
export interface DocumentWrite {
  url: string;
  line: number;
  column: number;
}

/** The back/forward cache test: restored, or the blockers (at most DETAIL_LIMITS.rows). */
export interface BfCacheObservation {
  restored: boolean;
  blockers: BfCacheBlocker[];
}

/**
 * A finding's item: from Lighthouse, merged over form factors by URL or selector (the larger value of each
 * number, a box per form factor, the form factors it was seen on); from the page's responses, no form factors.
 */
export interface FindingItem extends Omit<DetailItem, 'box'> {
  form_factors?: FormFactor[];
  box?: Partial<Record<FormFactor, Box>>;
}

/**
 * The phases of a request in ms, in this order; they add up to its duration (`end_ms - start_ms`). `stalled`:
 * in the network stack before anything else (waiting for a socket, a proxy); `wait`: from the request being
 * sent until the first byte of the response (TTFB); `download`: the rest of the response. DNS, connect and TLS
 * are null when they did not happen (an IP address, a reused connection, plain HTTP).
 */
export const REQUEST_PHASES = ['stalled', 'dns', 'connect', 'tls', 'wait', 'download'] as const;
export type RequestPhase = (typeof REQUEST_PHASES)[number];
export type RequestPhases = [
  stalled: number,
  dns: number | null,
  connect: number | null,
  tls: number | null,
  wait: number,
  download: number,
];

/** Chromium's request priorities, highest first. */
export const REQUEST_PRIORITIES = ['VeryHigh', 'High', 'Medium', 'Low', 'VeryLow'] as const;
export type RequestPriority = (typeof REQUEST_PRIORITIES)[number];

/**
 * What made the browser ask for a request: the HTML parser (url: the document), a script (url: the script),
 * a `<link rel=preload>` (or a preload header), a redirect (url: the URL that redirected), or anything else.
 */
export const INITIATOR_KINDS = ['parser', 'script', 'preload', 'redirect', 'other'] as const;
export type InitiatorKind = (typeof INITIATOR_KINDS)[number];
export interface RequestInitiator {
  kind: InitiatorKind;
  url?: string;
}

/** One request of the page load, from Lighthouse's network-requests audit; times in ms from the start of the navigation. */
export interface WaterfallRequest {
  url: string;
  /** Chromium's resource type: Document, Script, Stylesheet, Image, Font, Fetch, XHR, Media, Other, ... */
  type: string;
  /** When the network stack started the request. */
  start_ms: number;
  /** When the response had arrived (equal to `start_ms` for a request that never finished). */
  end_ms: number;
  transfer_bytes: number;
  /** HTTP status; 0 when the request got no response. */
  status: number;
  /** Chromium's priority for the request (the last one, where it changed during the load). */
  priority?: RequestPriority;
  /** How long the browser held the request before the network stack started it (its discovery is `start_ms - queued_ms`). */
  queued_ms?: number;
  /** Absent for a request without Chromium's timing (served from memory, a data URL, a failure) and in older results. */
  phases?: RequestPhases;
  initiator?: RequestInitiator;
  /** Chromium held the first paint for it (a stylesheet or a script in the head, by Chromium's own classification). */
  render_blocking?: true;
  /** The third party it belongs to, as Lighthouse's entity classification names it; absent for the page's own. */
  third_party?: string;
}

/** When first contentful paint and largest contentful paint happened in the load, on the waterfall's time axis. */
export interface WaterfallMarkers {
  fcp_ms: number | null;
  lcp_ms: number | null;
}

/** One script or image, by transfer size. */
export interface ByteItem {
  url: string;
  transfer_bytes: number;
  /** Size after decompression. */
  resource_bytes: number;
  /** Of a script: bytes not run during the load (Lighthouse's script treemap), where it measured them. */
  unused_bytes?: number;
}

/** All the scripts (or images) of the page load: how many, their bytes in all, and the largest ones. */
export interface ByteBreakdown {
  count: number;
  transfer_bytes: number;
  /** The DETAIL_LIMITS.byteRows largest, largest first. */
  items: ByteItem[];
}

/** The requests of one form factor's page load. */
export interface NetworkBreakdown {
  /** The first DETAIL_LIMITS.waterfall requests by start time. */
  requests: WaterfallRequest[];
  /** How many requests Lighthouse recorded in all (more than `requests` holds when the page made more). */
  request_count: number;
  /** FCP and LCP as they happened in this (unthrottled) load; absent from older results. */
  markers?: WaterfallMarkers;
  scripts: ByteBreakdown;
  images: ByteBreakdown;
}
