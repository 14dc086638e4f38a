import type { ResponseObservation, ScanObservation } from '../../scan/observation.ts';
import { responseEvidence } from '../evidence.ts';
import { defineCheck, fail, notApplicable, pass } from '../types.ts';

const STATIC_TYPES = new Set(['Script', 'Stylesheet', 'Image', 'Font']);
const DAY_S = 86_400;

/** Cache lifetime in seconds from Cache-Control (max-age, s-maxage; no-store/no-cache = 0) or Expires. */
export function cacheLifetimeSeconds(headers: Record<string, string>, now: Date): number {
  const control = headers['cache-control']?.toLowerCase() ?? '';
  if (/no-store|no-cache/.test(control)) return 0;
  const maxAge = /(?:^|[,\s])(?:s-maxage|max-age)\s*=\s*"?(\d+)/.exec(control);
  if (maxAge) return Number(maxAge[1]);
  const expires = headers.expires ? Date.parse(headers.expires) : NaN;
  return Number.isNaN(expires) ? 0 : Math.max(0, Math.round((expires - now.getTime()) / 1000));
}

const staticResponses = (obs: ScanObservation): ResponseObservation[] =>
  obs.responses.filter((r) => STATIC_TYPES.has(r.resourceType) && r.status === 200 && !r.url.startsWith('data:'));

export const cacheLifetime = defineCheck({
  id: 'caching.lifetime',
  category: 'caching',
  measures: 'Static resources (scripts, styles, images, fonts) cached for less than a day by the browser.',
  weight: 2,
  codes: ['caching.short-lifetime'],
  run(obs, { finding, scannedAt }) {
    const list = staticResponses(obs);
    if (list.length === 0) return notApplicable();
    const short = list.filter((r) => cacheLifetimeSeconds(r.headers, scannedAt) < DAY_S);
    if (short.length === 0) return pass();
    const totalBytes = list.reduce((s, r) => s + r.transferBytes, 0) || 1;
    const shortBytes = short.reduce((s, r) => s + r.transferBytes, 0);
    const share = Math.max(short.length / list.length, shortBytes / totalBytes);
    return fail(
      1 - share,
      finding(
        'caching.short-lifetime',
        share > 0.5 && shortBytes > 100 * 1024 ? 'critical' : 'warning',
        { count: short.length, total: list.length, total_bytes: shortBytes },
        responseEvidence(short),
      ),
    );
  },
});

const TEXT = /^(text\/|application\/(javascript|x-javascript|json|xml|ld\+json|manifest\+json)|image\/svg\+xml)/;

export const compression = defineCheck({
  id: 'caching.compression',
  category: 'caching',
  measures: 'Text responses over 1 KB (HTML, CSS, JavaScript, JSON, SVG) sent without gzip, brotli or zstd.',
  weight: 2,
  codes: ['caching.no-compression'],
  run(obs, { finding }) {
    const text = obs.responses.filter((r) => TEXT.test(r.mimeType) && r.status === 200 && r.resourceBytes > 1024);
    if (text.length === 0) return notApplicable();
    const plain = text.filter((r) => !/gzip|br|zstd|deflate/.test(r.headers['content-encoding'] ?? ''));
    if (plain.length === 0) return pass();
    const plainBytes = plain.reduce((s, r) => s + r.resourceBytes, 0);
    const allBytes = text.reduce((s, r) => s + r.resourceBytes, 0) || 1;
    return fail(
      1 - plainBytes / allBytes,
      finding(
        'caching.no-compression',
        plainBytes > 100 * 1024 ? 'critical' : 'warning',
        { count: plain.length, total_bytes: plainBytes },
        responseEvidence(plain, (r) => r.resourceBytes),
      ),
    );
  },
});

export const validators = defineCheck({
  id: 'caching.validators',
  category: 'caching',
  measures: 'Static resources without ETag or Last-Modified, which cannot be revalidated cheaply once expired.',
  weight: 0.5,
  codes: ['caching.no-validators'],
  run(obs, { finding, scannedAt }) {
    const list = staticResponses(obs);
    if (list.length === 0) return notApplicable();
    const missing = list.filter(
      (r) => !r.headers.etag && !r.headers['last-modified'] && cacheLifetimeSeconds(r.headers, scannedAt) < 365 * DAY_S,
    );
    if (missing.length === 0) return pass();
    return fail(
      1 - missing.length / list.length / 2,
      finding('caching.no-validators', 'info', { count: missing.length }, responseEvidence(missing)),
    );
  },
});

export const CACHING_CHECKS = [cacheLifetime, compression, validators];
