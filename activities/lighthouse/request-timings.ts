import { NetworkRecorder } from 'lighthouse/core/lib/network-recorder.js';
import type { InitiatorKind, RequestInitiator } from '../../core/scan/details.ts';
import type { UpstreamTiming } from './egress-proxy.ts';

/**
 * What Lighthouse's network-requests audit leaves out of a request and the waterfall shows: its phases (DNS,
 * connect, TLS, time to first byte), what initiated it, and whether it blocked rendering. Read from the run's
 * DevTools protocol log (Lighthouse's `artifacts.DevtoolsLog`) with Lighthouse's own NetworkRecorder, the same
 * records the audit lists, in the same order and on the same time axis (ms from the earliest request's start in
 * the renderer), and from the egress proxy's timing of the lookups and connections it made for them (Chromium
 * makes none itself while a proxy is set); details.ts joins them to the audit's rows by URL.
 */
export interface RequestTiming {
  url: string;
  /** When the renderer asked for the request. */
  rendererStart: number;
  /** Where each phase before the download ends; null for a phase that did not happen, all null without Chromium's timing. */
  phaseEnds: PhaseEnds | null;
  initiator: RequestInitiator;
  renderBlocking: boolean;
}

export interface PhaseEnds {
  stalled: number;
  dns: number | null;
  connect: number | null;
  tls: number | null;
  /** The response's headers have arrived. */
  wait: number;
}

/** Chromium's ResourceTiming: `requestTime` in seconds, the rest in ms after it, -1 for what did not happen. */
interface ResourceTiming {
  requestTime: number;
  dnsStart: number;
  dnsEnd: number;
  connectStart: number;
  connectEnd: number;
  sslStart: number;
  sslEnd: number;
  sendStart: number;
  receiveHeadersEnd: number;
}
interface StackTrace {
  callFrames?: Array<{ url?: string }>;
  parent?: StackTrace;
}
/** The fields of Lighthouse's NetworkRequest read here (times in ms on Chromium's monotonic clock). */
interface RecordedRequest {
  requestId: string;
  url: string;
  rendererStartTime: number;
  networkRequestTime: number;
  responseHeadersEndTime: number;
  timing?: ResourceTiming;
  initiator: { type: string; url?: string; stack?: StackTrace };
  initiatorRequest?: { url: string };
  redirectSource?: { url: string };
  isLinkPreload: boolean;
  priority: string;
  resourceType?: string;
}
interface LogEntry {
  method?: string;
  params?: { requestId?: string; renderBlockingBehavior?: string };
}

function stackUrl(stack: StackTrace | undefined): string | undefined {
  for (let at = stack; at; at = at.parent) {
    const url = at.callFrames?.find((frame) => frame.url)?.url;
    if (url) return url;
  }
  return undefined;
}

export function initiatorOf(record: RecordedRequest): RequestInitiator {
  const { initiator } = record;
  let kind: InitiatorKind;
  let url: string | undefined;
  if (record.redirectSource) [kind, url] = ['redirect', record.redirectSource.url];
  else if (record.isLinkPreload) [kind, url] = ['preload', initiator.url];
  else if (initiator.type === 'parser') [kind, url] = ['parser', record.initiatorRequest?.url ?? initiator.url];
  else if (initiator.type === 'script')
    [kind, url] = ['script', record.initiatorRequest?.url ?? stackUrl(initiator.stack) ?? initiator.url];
  else [kind, url] = ['other', initiator.url];
  return url ? { kind, url } : { kind };
}

/** A URL's host:port as the egress proxy names its targets. */
function targetOf(url: URL): string {
  return `${url.hostname.toLowerCase()}:${url.port || (url.protocol === 'https:' || url.protocol === 'wss:' ? 443 : 80)}`;
}

/** How far (ms) the proxy's clock reading may lie outside the window Chromium gives, for rounding. */
const SLACK_MS = 2;

/**
 * The proxy's timing of a request, found by its target and time: the tunnel it opened while Chromium connected
 * (a new connection to an https site), or its plain HTTP request while Chromium waited for the response. Each
 * timing goes to one request only. Null when there is none (a reused tunnel, no proxy, no timing).
 */
export function siteTimingOf(
  record: RecordedRequest,
  upstream: readonly UpstreamTiming[],
  taken: Set<UpstreamTiming>,
): UpstreamTiming | null {
  const timing = record.timing;
  let url: URL;
  try {
    url = new URL(record.url);
  } catch {
    return null;
  }
  if (!timing || timing.requestTime < 0 || timing.receiveHeadersEnd < 0) return null;
  const base = timing.requestTime * 1000;
  const within = (from: number, to: number) => (u: UpstreamTiming) =>
    !taken.has(u) && u.at >= base + from - SLACK_MS && u.at <= base + to + SLACK_MS;
  let found: UpstreamTiming | undefined;
  if (url.protocol === 'http:') {
    url.hash = '';
    const window = within(Math.max(0, timing.sendStart), timing.receiveHeadersEnd);
    found = upstream.find((u) => u.url === url.href && window(u));
  } else if (timing.connectStart >= 0) {
    const target = targetOf(url);
    const window = within(timing.connectStart, timing.connectEnd >= 0 ? timing.connectEnd : timing.receiveHeadersEnd);
    found = upstream.find((u) => u.url === undefined && u.target === target && window(u));
  }
  if (!found) return null;
  taken.add(found);
  return found;
}

/**
 * Where the phases end, from Chromium's timing (offsets from `requestTime`); null without usable timing. Through
 * the egress proxy Chromium looks nothing up and connects only to the proxy: the proxy's own lookup and
 * connection to the site (`site`) are then the DNS and connect phases, carved out of Chromium's connect (a
 * tunnel) or its waiting (plain HTTP, where Chromium's connection to the proxy counts with the site's).
 */
export function phaseEndsOf(record: RecordedRequest, site: UpstreamTiming | null = null): PhaseEnds | null {
  const timing = record.timing;
  if (!timing || timing.requestTime < 0 || timing.receiveHeadersEnd < 0) return null;
  const base = timing.requestTime * 1000;
  const at = (offset: number) => (offset >= 0 ? base + offset : null);
  const headers = record.responseHeadersEndTime;
  const stalled = at(timing.dnsStart) ?? at(timing.connectStart) ?? at(timing.sendStart) ?? headers;
  let dns = at(timing.dnsStart) === null ? null : (at(timing.dnsEnd) ?? stalled);
  const connectStart = at(timing.connectStart);
  const tls = at(timing.sslStart) === null ? null : (at(timing.sslEnd) ?? at(timing.connectEnd));
  let connect = connectStart === null ? null : (at(timing.sslStart) ?? at(timing.connectEnd) ?? connectStart);
  if (site && site.url === undefined && connect !== null) {
    if (site.dnsMs !== null) dns = Math.min(connect, stalled + site.dnsMs);
  } else if (site && site.url !== undefined) {
    const toProxy = connect === null ? 0 : connect - (dns ?? stalled);
    if (site.dnsMs !== null) dns = Math.min(headers, stalled + site.dnsMs);
    if (site.connectMs !== null || connect !== null)
      connect = Math.min(headers, (dns ?? stalled) + toProxy + (site.connectMs ?? 0));
  }
  return { stalled, dns, connect, tls, wait: headers };
}

/**
 * Render-blocking as Chromium classified the request when it was sent, by the rule of Lighthouse's
 * render-blocking insight: blocking, or blocking the parser in the body at the priority of a blocking resource.
 */
export function isRenderBlocking(behaviour: string | undefined, record: RecordedRequest): boolean {
  if (behaviour === 'Blocking') return true;
  if (behaviour !== 'InBodyParserBlocking') return false;
  return record.priority === 'VeryHigh' || (record.resourceType === 'Script' && record.priority === 'High');
}

/** Each `Network.requestWillBeSent`'s render-blocking behaviour by request id; a redirect repeats the id. */
function blockingBehaviours(log: readonly LogEntry[]): Map<string, Array<string | undefined>> {
  const byId = new Map<string, Array<string | undefined>>();
  for (const entry of log) {
    const id = entry.params?.requestId;
    if (entry.method !== 'Network.requestWillBeSent' || !id) continue;
    byId.set(id, [...(byId.get(id) ?? []), entry.params?.renderBlockingBehavior]);
  }
  return byId;
}

/** Lighthouse names the n-th hop of a redirect chain `<id>` followed by n times `:redirect`. */
function behaviourOf(byId: Map<string, Array<string | undefined>>, requestId: string): string | undefined {
  const [id, ...hops] = requestId.split(':redirect');
  return byId.get(id!)?.[hops.length];
}

/**
 * The timing, initiator and render-blocking of every request of the run, in Lighthouse's order; `upstream`: what
 * the egress proxy timed during the run.
 */
export function requestTimings(
  devtoolsLog: readonly unknown[],
  upstream: readonly UpstreamTiming[] = [],
): RequestTiming[] {
  const log = devtoolsLog as readonly LogEntry[];
  const records = NetworkRecorder.recordsFromLogs(devtoolsLog as never) as unknown as RecordedRequest[];
  const earliest = records.reduce((min, r) => Math.min(min, r.rendererStartTime), Infinity);
  const onAxis = (time: number) => time - earliest;
  const behaviours = blockingBehaviours(log);
  const taken = new Set<UpstreamTiming>();
  return records.map((record) => {
    const ends = phaseEndsOf(record, siteTimingOf(record, upstream, taken));
    return {
      url: record.url,
      rendererStart: onAxis(record.rendererStartTime),
      phaseEnds: ends && {
        stalled: onAxis(ends.stalled),
        dns: ends.dns === null ? null : onAxis(ends.dns),
        connect: ends.connect === null ? null : onAxis(ends.connect),
        tls: ends.tls === null ? null : onAxis(ends.tls),
        wait: onAxis(ends.wait),
      },
      initiator: initiatorOf(record),
      renderBlocking: isRenderBlocking(behaviourOf(behaviours, record.requestId), record),
    };
  });
}
