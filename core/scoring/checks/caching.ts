import type { ResponseObservation, ScanObservation } from '../../scan/observation.ts';
import { FORM_FACTORS } from '../../scan/observation.ts';
import { auditEvidence, responseEvidence } from '../evidence.ts';
import { costScore, KB, MB, redownloadedBytes } from '../cost.ts';
import { responseImpact } from '../priority.ts';
import { defineCheck, fail, notApplicable, pass } from '../types.ts';

const STATIC_TYPES = new Set(['Script', 'Stylesheet', 'Image', 'Font']);
const DAY_S = 86_400;

/**
 * How long a cache may reuse a response, in seconds. The browser (default): Cache-Control's max-age, else
 * Expires relative to the scan; s-maxage is for shared caches and does not count. A shared cache (a CDN or
 * proxy, `shared`): s-maxage before max-age, and nothing for `private` responses. no-store and no-cache: 0.
 */
export function cacheLifetimeSeconds(
  headers: Record<string, string>,
  now: Date,
  options: { shared?: boolean } = {},
): number {
  const directives = new Map(
    (headers['cache-control'] ?? '')
      .toLowerCase()
      .split(',')
      .map((part) => part.trim().split('=') as [string, string | undefined])
      .map(([name, value]) => [name.trim(), value?.trim().replace(/^"|"$/g, '')] as const),
  );
  if (directives.has('no-store') || directives.has('no-cache')) return 0;
  if (options.shared && directives.has('private')) return 0;
  const seconds = (name: string) => {
    const value = directives.get(name);
    return value !== undefined && /^\d+$/.test(value) ? Number(value) : undefined;
  };
  const lifetime = (options.shared ? seconds('s-maxage') : undefined) ?? seconds('max-age');
  if (lifetime !== undefined) return lifetime;
  const expires = headers.expires ? Date.parse(headers.expires) : NaN;
  return Number.isNaN(expires) ? 0 : Math.max(0, Math.round((expires - now.getTime()) / 1000));
}

const staticResponses = (obs: ScanObservation): ResponseObservation[] =>
  obs.responses.filter((r) => STATIC_TYPES.has(r.resourceType) && r.status === 200 && !r.url.startsWith('data:'));

export const cacheLifetime = defineCheck({
  id: 'caching.lifetime',
  category: 'caching',
  measures:
    "Static resources (scripts, styles, images, fonts) cached for less than a day by the browser. Cost: the bytes a repeat visit downloads again (each file's size times the chance its lifetime ran out, as Lighthouse estimates it); 0.5 at 256 KB.",
  weight: 2,
  codes: ['caching.short-lifetime'],
  run(obs, { finding, scannedAt }) {
    const list = staticResponses(obs);
    if (list.length === 0) return notApplicable();
    const lifetimes = new Map(list.map((r) => [r, cacheLifetimeSeconds(r.headers, scannedAt)]));
    const short = list.filter((r) => lifetimes.get(r)! < DAY_S);
    if (short.length === 0) return pass();
    const shortBytes = short.reduce((s, r) => s + r.transferBytes, 0);
    const wasted = Math.round(short.reduce((s, r) => s + redownloadedBytes(r.transferBytes, lifetimes.get(r)!), 0));
    // Lighthouse's cache insight states what its own estimate of the same fault saves on the metrics.
    const { savings } = auditEvidence(obs, 'cache-insight');
    const impact = responseImpact(wasted, savings);
    return fail(
      costScore(wasted, LIFETIME_HALF_AT),
      finding(
        'caching.short-lifetime',
        wasted > 2 * LIFETIME_HALF_AT ? 'critical' : wasted >= 10 * KB ? 'warning' : 'info',
        { count: short.length, total: list.length, total_bytes: shortBytes, wasted_bytes: wasted },
        { ...responseEvidence(short), ...(savings ? { savings } : {}), ...(impact ? { impact } : {}) },
      ),
    );
  },
});

const LIFETIME_HALF_AT = 256 * KB;
/** gzip and brotli shrink HTML, CSS and JavaScript by about 70 % (HTTP Archive's median ratios). */
const COMPRESSION_SAVING = 0.7;
const COMPRESSION_HALF_AT = 100 * KB;
const VALIDATORS_HALF_AT = 1 * MB;

const TEXT = /^(text\/|application\/(javascript|x-javascript|json|xml|ld\+json|manifest\+json)|image\/svg\+xml)/;

export const compression = defineCheck({
  id: 'caching.compression',
  category: 'caching',
  measures:
    'Text responses over 1 KB (HTML, CSS, JavaScript, JSON, SVG) sent without gzip, brotli or zstd. Cost: the bytes compression would save (70 % of the uncompressed text); 0.5 at 100 KB.',
  weight: 2,
  codes: ['caching.no-compression'],
  run(obs, { finding }) {
    const text = obs.responses.filter((r) => TEXT.test(r.mimeType) && r.status === 200 && r.resourceBytes > 1024);
    if (text.length === 0) return notApplicable();
    const plain = text.filter((r) => !/gzip|br|zstd|deflate/.test(r.headers['content-encoding'] ?? ''));
    if (plain.length === 0) return pass();
    const plainBytes = plain.reduce((s, r) => s + r.resourceBytes, 0);
    const wasted = Math.round(plainBytes * COMPRESSION_SAVING);
    // The page's HTML among them: Lighthouse's document latency insight states what compressing it saves.
    const documentFactors = FORM_FACTORS.filter(
      (f) => obs[f].audits['document-latency-insight']?.checklist.usesCompression === false,
    );
    const document = documentFactors.length
      ? auditEvidence(obs, 'document-latency-insight', { factors: documentFactors })
      : {};
    const impact = responseImpact(wasted, document.savings);
    return fail(
      costScore(wasted, COMPRESSION_HALF_AT),
      finding(
        'caching.no-compression',
        plainBytes > 100 * KB ? 'critical' : 'warning',
        { count: plain.length, total_bytes: plainBytes, wasted_bytes: wasted },
        {
          ...responseEvidence(plain, (r) => r.resourceBytes),
          ...(document.savings ? { savings: document.savings, clues: [{ code: 'document.uncompressed' }] } : {}),
          ...(impact ? { impact } : {}),
        },
      ),
    );
  },
});

export const validators = defineCheck({
  id: 'caching.validators',
  category: 'caching',
  measures:
    'Static resources without ETag or Last-Modified, which cannot be revalidated cheaply once expired. Cost: the bytes downloaded whole instead of a 304 when their lifetime runs out; 0.5 at 1 MB.',
  weight: 0.5,
  codes: ['caching.no-validators'],
  run(obs, { finding, scannedAt }) {
    const list = staticResponses(obs);
    if (list.length === 0) return notApplicable();
    const lifetimes = new Map(list.map((r) => [r, cacheLifetimeSeconds(r.headers, scannedAt)]));
    const missing = list.filter(
      (r) => !r.headers.etag && !r.headers['last-modified'] && lifetimes.get(r)! < 365 * DAY_S,
    );
    if (missing.length === 0) return pass();
    const wasted = Math.round(missing.reduce((s, r) => s + redownloadedBytes(r.transferBytes, lifetimes.get(r)!), 0));
    return fail(
      costScore(wasted, VALIDATORS_HALF_AT),
      finding(
        'caching.no-validators',
        'info',
        { count: missing.length, wasted_bytes: wasted },
        { ...responseEvidence(missing), ...(wasted > 0 ? { impact: responseImpact(wasted)! } : {}) },
      ),
    );
  },
});

export const CACHING_CHECKS = [cacheLifetime, compression, validators];
