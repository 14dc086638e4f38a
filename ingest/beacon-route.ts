import { isUtf8 } from 'node:buffer';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../infra/logger.ts';
import { BEACON_LIMITS } from '../core/rum/beacon.ts';
import type { IngestMetrics } from './metrics.ts';
import { senderHost, hostMatchesDomain } from './origin.ts';
import type { PageviewLimit } from './pageview-limit.ts';
import { Rejection, REJECTION_STATUS, type RejectionReason } from './reasons.ts';
import type { RejectionTally } from './rejections.ts';
import type { SiteCache } from './site-cache.ts';
import type { Source } from './source.ts';
import type { Spool } from './spool.ts';
import type { TokenBuckets } from './token-buckets.ts';
import { beaconRows, beaconSiteId, parseJson, validateBeacon } from './validate.ts';

export interface BeaconRouteDeps {
  sites: SiteCache;
  limit: PageviewLimit;
  spool: Spool;
  rejections: RejectionTally;
  metrics: IngestMetrics;
  isBot: (userAgent: string | undefined) => boolean;
  /** The sender (ingest/source.ts), from the peer address and, behind TRUSTED_PROXIES, X-Forwarded-For. */
  sourceOf: (req: IncomingMessage) => Source;
  /** Beacons per sender (Source.limitKey) and per site, in this process. */
  addressRate: TokenBuckets;
  siteRate: TokenBuckets;
  /** The body must arrive within this once the headers are in (slow senders are cut with 408). */
  bodyTimeoutMs: number;
  log: Logger;
  now?: () => Date;
}

const CORS = { 'access-control-allow-origin': '*' } as const;
const PREFLIGHT = {
  ...CORS,
  'access-control-allow-methods': 'POST',
  'access-control-allow-headers': 'content-type',
  'access-control-max-age': '86400',
} as const;

const MESSAGES: Record<RejectionReason, string> = {
  oversize: 'Beacon too large.',
  bad_json: 'Beacon is not JSON.',
  bad_shape: 'Beacon does not have the expected fields.',
  bad_metric: 'Unknown metric.',
  value_range: 'Metric value out of range.',
  bad_path: 'Path must start with / and carry no query or fragment.',
  bad_text: 'Beacon text is not well-formed Unicode.',
  unknown_site: 'Unknown site.',
  inactive_site: 'Site is not active.',
  origin_mismatch: "Origin does not match the site's domain.",
  bot: '',
  monthly_limit: "The site owner's plan includes no live data.",
  over_limit: '',
  rate_limited: 'Too many beacons; try again later.',
  slow_body: 'The beacon body arrived too slowly.',
  unavailable: 'Try again later.',
};

/**
 * `POST /b`: one beacon (core/rum/beacon.ts). Checked in this order: size, UTF-8, JSON, site id, site exists, site
 * active, Origin (or Referer) on the site's domain or a subdomain, bot user agent, well-formed text, fields and values, the
 * sender's rate, the site's rate, monthly limit (past it a reduced sample is kept: ingest/pageview-limit.ts). Accepted beacons are answered 204 once their rows are synced to the spool (the durability rule).
 * `OPTIONS /b` answers a CORS preflight (the collector's fetch fallback; sendBeacon with text/plain needs none).
 */
export function handleBeacon(req: IncomingMessage, res: ServerResponse, deps: BeaconRouteDeps): void {
  if (req.method === 'OPTIONS') {
    res.writeHead(204, PREFLIGHT).end();
    return;
  }
  if (req.method !== 'POST') {
    res
      .writeHead(405, { ...CORS, allow: 'POST, OPTIONS', 'content-type': 'application/json' })
      .end(JSON.stringify({ message: 'Method not allowed.' }));
    return;
  }
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > BEACON_LIMITS.bodyBytes) {
    refuse(res, deps, 'oversize', null, true);
    return;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  let tooBig = false;
  // A sender that trickles its body holds a connection and its buffer: cut it (Node's requestTimeout is the
  // outer bound; this one is shorter and counts from the headers).
  const slow = setTimeout(() => {
    tooBig = true;
    refuse(res, deps, 'slow_body', null, true);
    res.once('finish', () => req.destroy());
  }, deps.bodyTimeoutMs);
  req.once('close', () => clearTimeout(slow));
  req.on('data', (chunk: Buffer) => {
    if (tooBig) return;
    size += chunk.length;
    if (size <= BEACON_LIMITS.bodyBytes) {
      chunks.push(chunk);
      return;
    }
    // A body without Content-Length that grows past the limit: answer now and close, rather than read it all.
    tooBig = true;
    refuse(res, deps, 'oversize', null, true);
  });
  req.on('end', () => {
    clearTimeout(slow);
    if (tooBig) return;
    accept(req, res, deps, Buffer.concat(chunks, size)).catch((error: unknown) => {
      deps.log.error({ err: error }, 'beacon handling failed');
      refuse(res, deps, 'unavailable', null, false);
    });
  });
  req.on('error', () => res.destroy());
}

async function accept(req: IncomingMessage, res: ServerResponse, deps: BeaconRouteDeps, body: Buffer): Promise<void> {
  const at = deps.now?.() ?? new Date();
  const source = deps.sourceOf(req);
  if (!deps.addressRate.take(source.limitKey))
    return refuse(res, deps, 'rate_limited', null, false, deps.addressRate.retryAfter(source.limitKey));
  // Decoding would turn bytes that are not UTF-8 into U+FFFD silently: refuse them instead.
  if (!isUtf8(body)) return refuse(res, deps, 'bad_text', null, false);
  const parsed = parseJson(body.toString('utf8'));
  if (parsed instanceof Rejection) return refuse(res, deps, parsed.reason, null, false);
  const publicId = beaconSiteId(parsed);
  if (!publicId) {
    const hasSite =
      typeof parsed === 'object' && parsed !== null && typeof (parsed as { site?: unknown }).site === 'string';
    return refuse(res, deps, hasSite ? 'unknown_site' : 'bad_shape', null, false);
  }
  let site;
  try {
    site = await deps.sites.get(publicId);
  } catch (error) {
    deps.log.warn({ err: error }, 'site lookup failed');
    return refuse(res, deps, 'unavailable', null, false);
  }
  if (!site) return refuse(res, deps, 'unknown_site', null, false);
  const known = { id: site.id, at };
  if (!site.active) return refuse(res, deps, 'inactive_site', known, false);
  const host = senderHost(header(req, 'origin'), header(req, 'referer'));
  if (!host || !hostMatchesDomain(host, site.domain)) return refuse(res, deps, 'origin_mismatch', known, false);
  if (deps.isBot(header(req, 'user-agent'))) return refuse(res, deps, 'bot', known, false);
  const beacon = validateBeacon(parsed);
  if (beacon instanceof Rejection) return refuse(res, deps, beacon.reason, known, false);
  const siteKey = String(site.id);
  if (!deps.siteRate.take(siteKey))
    return refuse(res, deps, 'rate_limited', known, false, deps.siteRate.retryAfter(siteKey));
  const admission = await deps.limit.admit(site, beacon.pv, beacon.seq, at);
  if (admission.kind === 'refused') return refuse(res, deps, 'monthly_limit', known, false);
  if (admission.kind === 'sampled_out') return refuse(res, deps, 'over_limit', known, false);
  const context = {
    siteId: site.id,
    sampleRate: site.sampleRate,
    source: source.network,
    keepOneIn: admission.keepOneIn,
  };
  try {
    await deps.spool.append(Buffer.from(beaconRows(beacon, context, at)), beacon.metrics.length);
  } catch (error) {
    deps.log.warn({ err: error }, 'beacon not spooled');
    return refuse(res, deps, 'unavailable', null, false);
  }
  deps.metrics.accepted.inc();
  deps.metrics.acceptedRows.inc(beacon.metrics.length);
  res.writeHead(204, CORS).end();
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function refuse(
  res: ServerResponse,
  deps: BeaconRouteDeps,
  reason: RejectionReason,
  site: { id: number; at: Date } | null,
  close: boolean,
  retryAfterS?: number,
): void {
  if (res.headersSent) return;
  deps.metrics.rejected.inc({ reason });
  if (site) deps.rejections.add(site.id, reason, site.at);
  const status = REJECTION_STATUS[reason];
  const headers: Record<string, string> = { ...CORS };
  if (close) headers.connection = 'close';
  if (status === 204) {
    res.writeHead(204, headers).end();
    return;
  }
  if (status === 503) headers['retry-after'] = '5';
  if (retryAfterS !== undefined) headers['retry-after'] = String(retryAfterS);
  headers['content-type'] = 'application/json';
  res.writeHead(status, headers).end(JSON.stringify({ message: MESSAGES[reason], error: reason }));
}
