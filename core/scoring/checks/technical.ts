import { mainDocumentResponse } from '../../scan/main-document.ts';
import { costScore, KB } from '../cost.ts';
import { DETAIL_LIMITS } from '../../scan/details.ts';
import { auditEvidence, responseEvidence } from '../evidence.ts';
import { defineCheck, fail, pass } from '../types.ts';
import { insightCheck } from './insight-check.ts';
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
  measures:
    'Redirects before the page (one: warning; two or more: critical). Cost: the milliseconds Lighthouse says they waste (300 ms a hop when it gives no figure); 0.5 at 600 ms.',
  weight: 2,
  codes: ['technical.redirect-chain'],
  run(obs, { finding }) {
    const hops = obs.redirects.length;
    if (hops === 0) return pass();
    const measured = FORM_FACTORS.map((f) => obs[f].audits.redirects?.numericValue).filter(
      (ms): ms is number => typeof ms === 'number',
    );
    const wastedMs = measured.length ? Math.max(...measured) : hops * 300;
    // Lighthouse's time per hop, where it measured one, beside each hop the browser followed.
    const lighthouse = auditEvidence(obs, 'redirects');
    const items = obs.redirects.slice(0, DETAIL_LIMITS.items).map((r) => {
      const url = r.url.slice(0, DETAIL_LIMITS.text);
      const wasted = lighthouse.items?.find((item) => item.url === url)?.wasted_ms;
      return { url, ...(wasted ? { wasted_ms: wasted } : {}) };
    });
    return fail(
      costScore(wastedMs, 600),
      finding(
        'technical.redirect-chain',
        hops === 1 ? 'warning' : 'critical',
        { count: hops, first_url: obs.redirects[0]!.url },
        {
          items,
          ...(lighthouse.savings ? { savings: lighthouse.savings } : {}),
          impact: lighthouse.impact ?? { ms: Math.round(wastedMs), bytes: 0 },
        },
      ),
    );
  },
});

export const serverResponse = defineCheck({
  id: 'technical.server-response',
  category: 'technical',
  measures:
    'Server response time of the main document (warning above 600 ms, critical above 1.8 s). Cost: the milliseconds over 600; 0.5 at 600 ms over.',
  weight: 2,
  codes: ['technical.slow-server-response'],
  run(obs, { finding }) {
    // Judged on the value as reported (whole milliseconds), like the metrics.
    if (Math.round(obs.ttfbMs) <= 600) return pass();
    const critical = obs.ttfbMs > 1800;
    return fail(
      costScore(obs.ttfbMs - 600, 600),
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
  measures:
    "Requests to the site itself served over HTTP/1.x instead of HTTP/2 or HTTP/3. Cost: the milliseconds Lighthouse's modern-HTTP insight says HTTP/2 would save (0.5 at 1 s), else the bytes on HTTP/1.x (at most half the score: 0.75 at 512 KB).",
  weight: 0.5,
  codes: ['technical.old-http'],
  run(obs, { finding }) {
    const host = new URL(obs.finalUrl).host;
    const own = obs.responses.filter((r) => r.protocol && URL.canParse(r.url) && new URL(r.url).host === host);
    const old = own.filter((r) => /^http\/1/i.test(r.protocol));
    if (own.length === 0 || old.length === 0) return pass();
    const savedMs = FORM_FACTORS.map((f) => obs[f].audits['modern-http-insight']?.evidence?.savings.ms).filter(
      (ms): ms is number => typeof ms === 'number',
    );
    const oldBytes = old.reduce((sum, r) => sum + r.transferBytes, 0);
    const impact = savedMs.length && Math.max(...savedMs) > 0 ? { ms: Math.max(...savedMs), bytes: 0 } : undefined;
    return fail(
      savedMs.length ? costScore(Math.max(...savedMs), 1000) : 0.5 + 0.5 * costScore(oldBytes, 512 * KB),
      finding(
        'technical.old-http',
        'info',
        { count: old.length },
        { ...responseEvidence(old), ...(impact ? { impact } : {}) },
      ),
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
    const main = mainDocumentResponse(obs);
    if (main && !main.headers['strict-transport-security']) return fail(0.9, finding('technical.no-hsts', 'info'));
    return pass();
  },
});

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
