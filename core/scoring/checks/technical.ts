import type { KeptAudit } from '../../scan/observation.ts';
import { DETAIL_LIMITS } from '../../scan/details.ts';
import { auditEvidence, responseEvidence } from '../evidence.ts';
import { type Check, defineCheck, fail, pass } from '../types.ts';
import { FORM_FACTORS } from '../../scan/observation.ts';

export const httpStatus = defineCheck({
  id: 'technical.http-status',
  category: 'technical',
  measures: 'HTTP status of the main document.',
  weight: 3,
  codes: ['technical.http-error'],
  run(obs, { finding }) {
    if (obs.httpStatus < 400) return pass();
    return fail(0, finding('technical.http-error', 'critical', { status: obs.httpStatus }));
  },
});

export const redirects = defineCheck({
  id: 'technical.redirects',
  category: 'technical',
  measures: 'Redirects before the page (one: warning; two or more: critical).',
  weight: 2,
  codes: ['technical.redirect-chain'],
  run(obs, { finding }) {
    const hops = obs.redirects.length;
    if (hops === 0) return pass();
    const items = obs.redirects.slice(0, DETAIL_LIMITS.items).map((r) => ({ url: r.url.slice(0, DETAIL_LIMITS.text) }));
    return fail(
      hops === 1 ? 0.6 : 0.2,
      finding(
        'technical.redirect-chain',
        hops === 1 ? 'warning' : 'critical',
        { count: hops, first_url: obs.redirects[0]!.url },
        { items },
      ),
    );
  },
});

export const serverResponse = defineCheck({
  id: 'technical.server-response',
  category: 'technical',
  measures: 'Server response time of the main document (warning above 600 ms, critical above 1.8 s).',
  weight: 2,
  codes: ['technical.slow-server-response'],
  run(obs, { finding }) {
    if (obs.ttfbMs <= 600) return pass();
    const critical = obs.ttfbMs > 1800;
    return fail(
      critical ? 0.1 : 0.5,
      finding(
        'technical.slow-server-response',
        critical ? 'critical' : 'warning',
        { value_ms: Math.round(obs.ttfbMs) },
        auditEvidence(obs, 'document-latency-insight'),
      ),
    );
  },
});

export const httpVersion = defineCheck({
  id: 'technical.http-version',
  category: 'technical',
  measures: 'Requests to the site itself served over HTTP/1.x instead of HTTP/2 or HTTP/3.',
  weight: 0.5,
  codes: ['technical.old-http'],
  run(obs, { finding }) {
    const host = new URL(obs.finalUrl).host;
    const own = obs.responses.filter((r) => r.protocol && URL.canParse(r.url) && new URL(r.url).host === host);
    const old = own.filter((r) => /^http\/1/i.test(r.protocol));
    if (own.length === 0 || old.length === 0) return pass();
    return fail(
      1 - (old.length / own.length) * 0.5,
      finding('technical.old-http', 'info', { count: old.length }, responseEvidence(old)),
    );
  },
});

export const https = defineCheck({
  id: 'technical.https',
  category: 'technical',
  measures: 'Whether the page is served over HTTPS, and with HSTS.',
  weight: 1,
  codes: ['technical.no-https', 'technical.no-hsts'],
  run(obs, { finding }) {
    if (obs.finalUrl.startsWith('http:')) return fail(0.5, finding('technical.no-https', 'warning'));
    const main = obs.responses.find((r) => r.url === obs.finalUrl);
    if (main && !main.headers['strict-transport-security']) return fail(0.9, finding('technical.no-hsts', 'info'));
    return pass();
  },
});

/** Findings straight from a Lighthouse 13 insight that failed on either form factor. */
function insightCheck<const Code extends string>(
  id: string,
  audit: KeptAudit,
  code: Code,
  measures: string,
  weight: number,
  severity: 'warning' | 'info',
): Check {
  return defineCheck({
    id,
    category: 'technical',
    measures,
    weight,
    codes: [code],
    run(obs, { finding }) {
      const worst = Math.min(obs.desktop.audits[audit]?.score ?? 1, obs.mobile.audits[audit]?.score ?? 1);
      if (worst >= 0.9) return pass();
      const count = Math.max(obs.desktop.audits[audit]?.items.length ?? 0, obs.mobile.audits[audit]?.items.length ?? 0);
      const failing = FORM_FACTORS.filter((f) => (obs[f].audits[audit]?.score ?? 1) < 0.9);
      return fail(
        Math.max(0.3, worst),
        finding(code, severity, { count }, auditEvidence(obs, audit, { factors: failing })),
      );
    },
  });
}

export const renderBlocking = insightCheck(
  'technical.render-blocking',
  'render-blocking-insight',
  'technical.render-blocking',
  'Stylesheets and scripts that block the first render.',
  1,
  'warning',
);
export const domSize = insightCheck(
  'technical.dom-size',
  'dom-size-insight',
  'technical.large-dom',
  'A DOM large enough to slow style and layout work.',
  0.5,
  'warning',
);
export const viewport = insightCheck(
  'technical.viewport',
  'viewport-insight',
  'technical.no-viewport',
  'A viewport meta tag fit for mobile devices.',
  0.5,
  'warning',
);
export const legacyJs = insightCheck(
  'technical.legacy-javascript',
  'legacy-javascript-insight',
  'technical.legacy-javascript',
  'Polyfills and transforms shipped to browsers that do not need them.',
  0.3,
  'info',
);
export const unusedJs = insightCheck(
  'technical.unused-javascript',
  'unused-javascript',
  'technical.unused-javascript',
  'JavaScript downloaded but not run during load.',
  0.3,
  'info',
);

export const blockedRequests = defineCheck({
  id: 'technical.blocked-requests',
  category: 'technical',
  measures:
    'Requests the page makes to private or special-use addresses, which scans refuse to make (so the result misses them).',
  weight: 0,
  codes: ['technical.blocked-requests'],
  run(obs, { finding }) {
    if (obs.blockedRequests.length === 0) return pass();
    return fail(
      1,
      finding('technical.blocked-requests', 'info', {
        count: obs.blockedRequests.length,
        first_target: obs.blockedRequests[0]!,
      }),
    );
  },
});

export const TECHNICAL_CHECKS = [
  httpStatus,
  redirects,
  serverResponse,
  httpVersion,
  https,
  renderBlocking,
  domSize,
  viewport,
  legacyJs,
  unusedJs,
  blockedRequests,
];
