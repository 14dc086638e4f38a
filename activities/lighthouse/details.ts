import {
  type AuditEvidence,
  type ByteBreakdown,
  type ByteItem,
  DETAIL_LIMITS,
  type DetailItem,
  type Diagnostics,
  type LcpPhases,
  type NetworkBreakdown,
  REQUEST_PRIORITIES,
  type RequestPhases,
  type RequestPriority,
  type Savings,
  type WaterfallMarkers,
  type WaterfallRequest,
} from '../../core/scan/details.ts';
import {
  criticalChain,
  duplicatedModule,
  entityUrls,
  imageFixes,
  lcpDiscovery,
  legacySignals,
  shiftCulprits,
} from './clues.ts';
import { elementRef, isObject, type Json, listNode, number, round, tableRows, text } from './lhr-json.ts';
import type { PhaseEnds, RequestTiming } from './request-timings.ts';

/**
 * Lighthouse 13's audit and insight details, read into the bounded shapes of core/scan/details.ts. Pure:
 * the runner calls it on each form factor's Lighthouse result, the unit tests on stored ones.
 */
export interface DetailedAudit {
  details?: Json;
  metricSavings?: Record<string, number | undefined>;
}
export interface DetailedResult {
  audits: Record<string, DetailedAudit | undefined>;
  entities?: Array<{ name: string; isFirstParty?: boolean; isUnrecognized?: boolean }>;
}

/** The metrics whose savings are milliseconds (CLS savings are unitless and not counted). */
const MS_METRICS = ['FCP', 'LCP', 'TBT', 'INP'] as const;

function detailItem(row: Json): DetailItem | null {
  const item: DetailItem = {};
  const url = text(row.url) ?? (isObject(row.source) ? text(row.source.url) : undefined);
  if (url && /^(https?|data):/.test(url)) item.url = url;
  const element = elementRef(row.node);
  if (element) {
    item.selector = element.selector;
    item.snippet = element.snippet;
    if (element.label) item.label = element.label;
    if (element.box) item.box = element.box;
  }
  const transfer = number(row.transferSize) ?? number(row.totalBytes);
  if (transfer !== undefined) item.transfer_bytes = round(transfer);
  const wastedBytes = number(row.wastedBytes);
  if (wastedBytes !== undefined) item.wasted_bytes = round(wastedBytes);
  const wastedMs = number(row.wastedMs);
  if (wastedMs !== undefined) item.wasted_ms = round(wastedMs);
  const mainThread = number(row.mainThreadTime) ?? number(row.total);
  if (mainThread !== undefined) item.main_thread_ms = round(mainThread);
  return item.url || item.selector ? item : null;
}

/** The savings Lighthouse states for an audit: its largest millisecond metric saving (else the opportunity's), and its bytes. */
export function auditSavings(audit: DetailedAudit, items: readonly DetailItem[]): Savings {
  const details = audit.details ?? {};
  const metricMs = MS_METRICS.map((m) => audit.metricSavings?.[m]).filter((v): v is number => typeof v === 'number');
  const ms = metricMs.length ? Math.max(...metricMs) : number(details.overallSavingsMs);
  const debugBytes = isObject(details.debugData) ? number(details.debugData.wastedBytes) : undefined;
  const itemBytes = items.some((i) => i.wasted_bytes !== undefined)
    ? items.reduce((sum, i) => sum + (i.wasted_bytes ?? 0), 0)
    : undefined;
  const bytes = number(details.overallSavingsBytes) ?? debugBytes ?? itemBytes;
  return { ms: ms === undefined ? null : round(ms), bytes: bytes === undefined ? null : round(bytes) };
}

/** A row as an item, with what the audit it comes from says in particular about it (clues.ts). */
function auditItem(row: Json, id: string | undefined): DetailItem | null {
  if (id === 'duplicated-javascript-insight') return duplicatedModule(row);
  const item = detailItem(row);
  if (!item) return null;
  if (id === 'image-delivery-insight') Object.assign(item, imageFixes(row));
  if (id === 'legacy-javascript-insight') {
    const signals = legacySignals(row);
    if (signals.length) item.signals = signals;
  }
  return item;
}

/** An audit's items and savings; `id`, the audit's id, adds what that audit says in particular about each item. */
export function auditEvidence(audit: DetailedAudit | undefined, id?: string): AuditEvidence | undefined {
  if (!audit) return undefined;
  const all = tableRows(audit.details)
    .map((row) => auditItem(row, id))
    .filter((i): i is DetailItem => i !== null);
  const node = listNode(audit.details);
  if (all.length === 0 && node)
    all.push({
      selector: node.selector,
      snippet: node.snippet,
      ...(node.label ? { label: node.label } : {}),
      ...(node.box ? { box: node.box } : {}),
    });
  // Savings from every row, though only the first rows are kept.
  return { items: all.slice(0, DETAIL_LIMITS.items), savings: auditSavings(audit, all) };
}

const PHASES: Record<string, keyof LcpPhases> = {
  timeToFirstByte: 'ttfb_ms',
  resourceLoadDelay: 'load_delay_ms',
  resourceLoadDuration: 'load_time_ms',
  elementRenderDelay: 'render_delay_ms',
};

function lcpPhases(details: Json | undefined): LcpPhases | null {
  const rows = tableRows(details);
  if (rows.length === 0) return null;
  const phases: LcpPhases = { ttfb_ms: 0, load_delay_ms: null, load_time_ms: null, render_delay_ms: 0 };
  for (const row of rows) {
    const key = PHASES[String(row.subpart)];
    const duration = number(row.duration);
    if (key && duration !== undefined) phases[key] = round(duration);
  }
  return phases;
}

function layoutShifts(details: Json | undefined): Diagnostics['layout_shifts'] {
  const rows = tableRows(details);
  const shifted = rows
    .map((row) => ({ row, element: elementRef(row.node), score: number(row.score) ?? 0 }))
    .filter((r) => r.element !== null);
  const total = shifted.reduce((sum, r) => sum + r.score, 0);
  return shifted.slice(0, DETAIL_LIMITS.rows).map(({ row, element, score }) => {
    const sub = isObject(row.subItems) && Array.isArray(row.subItems.items) ? row.subItems.items.filter(isObject) : [];
    const causes = [...new Set(sub.map((s) => text(s.cause)).filter((c): c is string => !!c))].slice(0, 3);
    return {
      element: element!,
      score: Math.round(score * 1000) / 1000,
      share: total > 0 ? Math.round((score / total) * 1000) / 1000 : 0,
      causes,
      culprits: shiftCulprits(row),
    };
  });
}

export function diagnostics(lhr: DetailedResult): Diagnostics {
  const details = (id: string) => lhr.audits[id]?.details;
  const lcpDetails = details('lcp-breakdown-insight');
  const recognized = new Map((lhr.entities ?? []).map((e) => [e.name, !e.isUnrecognized]));
  return {
    lcp: {
      element: listNode(lcpDetails) ?? listNode(details('lcp-discovery-insight')),
      phases: lcpPhases(lcpDetails),
      discovery: lcpDiscovery(details('lcp-discovery-insight')),
    },
    layout_shifts: layoutShifts(details('cls-culprits-insight') ?? details('layout-shifts')),
    render_blocking: tableRows(details('render-blocking-insight'))
      .filter((row) => typeof row.url === 'string')
      .slice(0, DETAIL_LIMITS.rows)
      .map((row) => ({
        url: text(row.url)!,
        transfer_bytes: round(number(row.totalBytes) ?? 0),
        wasted_ms: round(number(row.wastedMs) ?? 0),
      })),
    third_parties: tableRows(details('third-parties-insight'))
      .filter((row) => typeof row.entity === 'string')
      .slice(0, DETAIL_LIMITS.rows)
      .map((row) => ({
        entity: text(row.entity)!,
        recognized: recognized.get(String(row.entity)) ?? false,
        transfer_bytes: round(number(row.transferSize) ?? 0),
        main_thread_ms: round(number(row.mainThreadTime) ?? 0),
        urls: entityUrls(row),
      })),
    main_thread: tableRows(details('mainthread-work-breakdown'))
      .slice(0, DETAIL_LIMITS.rows)
      .map((row) => ({
        category: text(row.group) ?? 'other',
        label: text(row.groupLabel) ?? String(row.group),
        ms: round(number(row.duration) ?? 0),
      })),
    critical_chain: criticalChain(details('network-dependency-tree-insight')),
  };
}

/** A script's unused bytes by URL from Lighthouse's script treemap (a page's inline scripts are its children). */
function unusedByUrl(details: Json | undefined): Map<string, number> {
  const unused = new Map<string, number>();
  const nodes = details && Array.isArray(details.nodes) ? details.nodes.filter(isObject) : [];
  for (const node of nodes) {
    const children = Array.isArray(node.children) ? node.children.filter(isObject) : [];
    const own = number(node.unusedBytes);
    const fromChildren = children.map((child) => number(child.unusedBytes));
    const bytes =
      own ??
      (fromChildren.some((b) => b !== undefined) ? fromChildren.reduce<number>((a, b) => a + (b ?? 0), 0) : undefined);
    if (typeof node.name === 'string' && bytes !== undefined) unused.set(node.name, round(bytes));
  }
  return unused;
}

/**
 * A request's phases in whole ms that add up to its duration: each phase's end is rounded on the time axis and
 * kept between the start and the end, and a phase lasts from the previous end to its own.
 */
export function roundedPhases(startMs: number, endMs: number, ends: PhaseEnds): RequestPhases {
  let last = startMs;
  const until = (time: number | null): number | null => {
    if (time === null) return null;
    const at = Math.min(endMs, Math.max(last, round(time)));
    const length = at - last;
    last = at;
    return length;
  };
  const stalled = until(ends.stalled)!;
  const dns = until(ends.dns);
  const connect = until(ends.connect);
  const tls = until(ends.tls);
  const wait = until(ends.wait)!;
  return [stalled, dns, connect, tls, wait, endMs - last];
}

/** The longest a data URL is in the audit's rows (Lighthouse's elideDataURI): the key a timing is found by. */
const DATA_URL_KEPT = 100;
const urlKey = (url: string) => (url.startsWith('data:') ? url.slice(0, DATA_URL_KEPT) : url);

/** Each URL's timings in the order Lighthouse recorded them, to be taken one per row of the audit. */
function timingQueues(timings: readonly RequestTiming[]): Map<string, RequestTiming[]> {
  const queues = new Map<string, RequestTiming[]>();
  for (const timing of timings) {
    const key = urlKey(timing.url);
    queues.set(key, [...(queues.get(key) ?? []), timing]);
  }
  return queues;
}

/** Where FCP and LCP of the load fall on the audit's time axis (its zero is `networkStartTimeTs`, in µs). */
function waterfallMarkers(lhr: DetailedResult): WaterfallMarkers {
  const debug = lhr.audits['network-requests']?.details?.debugData;
  const zero = isObject(debug) ? number(debug.networkStartTimeTs) : undefined;
  const items = lhr.audits.metrics?.details?.items;
  const observed = Array.isArray(items) && isObject(items[0]) ? items[0] : {};
  const at = (ts: unknown) => {
    const micros = number(ts);
    return zero === undefined || micros === undefined ? null : round((micros - zero) / 1000);
  };
  return {
    fcp_ms: at(observed.observedFirstContentfulPaintTs),
    lcp_ms: at(observed.observedLargestContentfulPaintTs),
  };
}

const PRIORITIES = new Set<string>(REQUEST_PRIORITIES);

/**
 * The requests of the page load, from Lighthouse's network-requests audit: the first DETAIL_LIMITS.waterfall
 * by start time for the waterfall, with their priority, third party (Lighthouse's entity classification) and,
 * where the runner read them from the run's protocol log (request-timings.ts), their phases, initiator and
 * render-blocking; and every script and image counted, the largest kept (with a script's unused bytes from the
 * script treemap). Markers: FCP and LCP of the same load.
 */
export function networkBreakdown(lhr: DetailedResult, timings: readonly RequestTiming[] = []): NetworkBreakdown {
  const queues = timingQueues(timings);
  const firstParty = new Set((lhr.entities ?? []).filter((e) => e.isFirstParty).map((e) => e.name));
  const rows = tableRows(lhr.audits['network-requests']?.details)
    .filter((row) => typeof row.url === 'string')
    .map((row, index) => {
      const start = number(row.networkRequestTime) ?? number(row.rendererStartTime) ?? 0;
      const timing = queues.get(urlKey(row.url as string))?.shift();
      return { row, url: row.url as string, start, index, timing };
    })
    .sort((a, b) => a.start - b.start || a.index - b.index);
  const requests: WaterfallRequest[] = rows.slice(0, DETAIL_LIMITS.waterfall).map(({ row, url, start, timing }) => {
    const request: WaterfallRequest = {
      url: url.slice(0, DETAIL_LIMITS.text),
      type: text(row.resourceType, 40) ?? 'Other',
      start_ms: round(start),
      end_ms: round(Math.max(start, number(row.networkEndTime) ?? start)),
      transfer_bytes: round(number(row.transferSize) ?? 0),
      status: round(number(row.statusCode) ?? 0),
    };
    if (typeof row.priority === 'string' && PRIORITIES.has(row.priority))
      request.priority = row.priority as RequestPriority;
    const entity = text(row.entity);
    if (entity && !firstParty.has(entity)) request.third_party = entity;
    if (timing) {
      const queued = request.start_ms - round(timing.rendererStart);
      if (queued > 0) request.queued_ms = queued;
      if (timing.phaseEnds) request.phases = roundedPhases(request.start_ms, request.end_ms, timing.phaseEnds);
      request.initiator = timing.initiator.url
        ? { kind: timing.initiator.kind, url: timing.initiator.url.slice(0, DETAIL_LIMITS.text) }
        : { kind: timing.initiator.kind };
      if (timing.renderBlocking) request.render_blocking = true;
    } else if (row.isLinkPreload === true) request.initiator = { kind: 'preload' };
    return request;
  });
  const unused = unusedByUrl(lhr.audits['script-treemap-data']?.details);
  const bytesOf = (type: string, withUnused: boolean): ByteBreakdown => {
    const of = rows.filter(({ row }) => row.resourceType === type);
    const items = of
      .map(({ row, url }): ByteItem => {
        const unusedBytes = withUnused ? unused.get(url) : undefined;
        return {
          url: url.slice(0, DETAIL_LIMITS.text),
          transfer_bytes: round(number(row.transferSize) ?? 0),
          resource_bytes: round(number(row.resourceSize) ?? 0),
          ...(unusedBytes !== undefined ? { unused_bytes: unusedBytes } : {}),
        };
      })
      .sort((a, b) => b.transfer_bytes - a.transfer_bytes);
    return {
      count: of.length,
      transfer_bytes: items.reduce((sum, item) => sum + item.transfer_bytes, 0),
      items: items.slice(0, DETAIL_LIMITS.byteRows),
    };
  };
  return {
    requests,
    request_count: rows.length,
    markers: waterfallMarkers(lhr),
    scripts: bytesOf('Script', true),
    images: bytesOf('Image', false),
  };
}
