import {
  blockedRequests,
  domSize,
  httpStatus,
  httpVersion,
  https,
  legacyJs,
  redirects,
  renderBlocking,
  serverResponse,
  unusedJs,
  viewport,
} from '../../../core/scoring/checks/technical.ts';
import { fontDisplay } from '../../../core/scoring/checks/loading.ts';
import { duplicatedJs } from '../../../core/scoring/checks/scripts.ts';
import { PASS, run } from './fixtures/common.ts';
import { TECHNICAL_FIXTURES } from './fixtures/technical.ts';

/** The cost curve every check uses (core/scoring/cost.ts): 0.5 at its half point. */
const curve = (cost: number, halfAt: number) => 1 / (1 + cost / halfAt);

const result = (score: number, code: string, severity: string, params: Record<string, string | number> = {}) => ({
  score: expect.closeTo(score, 12),
  applicable: true,
  findings: [{ category: 'technical', code, severity, params }],
});

describe('technical.http-status', () => {
  const F = TECHNICAL_FIXTURES['technical.http-status'];

  it('passes below 400', () => {
    expect(run(httpStatus, F.clean)).toEqual(PASS);
    expect(run(httpStatus, F.status399)).toEqual(PASS);
  });

  it('scores 0, critical, from 400 on, with the status', () => {
    expect(run(httpStatus, F.status400)).toEqual(result(0, 'technical.http-error', 'critical', { status: 400 }));
    expect(run(httpStatus, F.status404)).toEqual(result(0, 'technical.http-error', 'critical', { status: 404 }));
    expect(run(httpStatus, F.status503)).toEqual(result(0, 'technical.http-error', 'critical', { status: 503 }));
  });
});

describe('technical.redirects', () => {
  const F = TECHNICAL_FIXTURES['technical.redirects'];

  it('passes without redirects', () => {
    expect(run(redirects, F.clean)).toEqual(PASS);
  });

  it('warns about one redirect with the first URL, costing the time Lighthouse says it wastes (0.5 at 600 ms)', () => {
    expect(run(redirects, F.measuredByLighthouse)).toEqual(
      result(curve(1_230, 600), 'technical.redirect-chain', 'warning', { count: 1, first_url: 'http://shop.example/' }),
    );
  });

  it('estimates 300 ms a hop when Lighthouse states no time', () => {
    expect(run(redirects, F.oneHop)).toEqual(
      result(curve(300, 600), 'technical.redirect-chain', 'warning', { count: 1, first_url: 'http://shop.example/' }),
    );
  });

  it('is critical from two redirects on, and more hops cost more', () => {
    expect(run(redirects, F.twoHops)).toEqual(
      result(0.5, 'technical.redirect-chain', 'critical', { count: 2, first_url: 'http://shop.example/' }),
    );
    expect(run(redirects, F.threeHops)).toEqual(
      result(0.4, 'technical.redirect-chain', 'critical', { count: 3, first_url: 'http://shop.example/a' }),
    );
  });
});

describe('technical.server-response', () => {
  const F = TECHNICAL_FIXTURES['technical.server-response'];

  it('passes up to 600 ms', () => {
    expect(run(serverResponse, F.clean)).toEqual(PASS);
    expect(run(serverResponse, F.at600)).toEqual(PASS);
  });

  it('warns above 600 ms and up to 1.8 s, costing the time over 600 ms (0.5 at 600 ms over)', () => {
    expect(run(serverResponse, F.justOver600)).toEqual(
      result(curve(1, 600), 'technical.slow-server-response', 'warning', { value_ms: 601 }),
    );
    expect(run(serverResponse, F.at1800)).toEqual(
      result(1 / 3, 'technical.slow-server-response', 'warning', { value_ms: 1800 }),
    );
  });

  it('is critical above 1.8 s, with the time rounded', () => {
    expect(run(serverResponse, F.justOver1800)).toEqual(
      result(curve(1_201, 600), 'technical.slow-server-response', 'critical', { value_ms: 1801 }),
    );
    expect(run(serverResponse, F.verySlow)).toEqual(
      result(curve(3_721.6, 600), 'technical.slow-server-response', 'critical', { value_ms: 4322 }),
    );
  });

  it('judges the time as reported, so 600.4 ms (shown as 600 ms) passes and 600.5 ms reads 601 ms', () => {
    expect(run(serverResponse, F.roundsTo600)).toEqual(PASS);
    expect(run(serverResponse, F.roundsTo601)).toEqual(
      result(curve(0.5, 600), 'technical.slow-server-response', 'warning', { value_ms: 601 }),
    );
  });
});

describe('technical.http-version', () => {
  const F = TECHNICAL_FIXTURES['technical.http-version'];

  it('passes when the site serves HTTP/2 or HTTP/3', () => {
    expect(run(httpVersion, F.clean)).toEqual(PASS);
    expect(run(httpVersion, F.h3)).toEqual(PASS);
  });

  it('looks only at the final host, and skips responses without a protocol', () => {
    expect(run(httpVersion, F.othersOld)).toEqual(PASS);
  });

  it('passes (it has no not-applicable case) when there is no response to judge', () => {
    expect(run(httpVersion, F.noResponses)).toEqual(PASS);
  });

  it("costs the time Lighthouse's modern-HTTP insight says HTTP/2 would save (0.5 at 1 s)", () => {
    expect(run(httpVersion, F.measuredByLighthouse)).toEqual(
      result(curve(400, 1000), 'technical.old-http', 'info', { count: 1 }),
    );
  });

  it('without that insight, reports HTTP/1.x as info, costing the bytes on it (at most half the score)', () => {
    // The 5 KB script (document 5 KB, script 5 KB, image 40 KB).
    expect(run(httpVersion, F.oneOfThreeOld)).toEqual(
      result(0.5 + 0.5 * curve(5_000, 512 * 1024), 'technical.old-http', 'info', { count: 1 }),
    );
    expect(run(httpVersion, F.allOld)).toEqual(
      result(0.5 + 0.5 * curve(50_000, 512 * 1024), 'technical.old-http', 'info', { count: 3 }),
    );
    // One HTTP/1.1 response and two without a protocol: only the counted one costs.
    expect(run(httpVersion, F.oldAmongUnknown)).toEqual(
      result(0.5 + 0.5 * curve(5_000, 512 * 1024), 'technical.old-http', 'info', { count: 1 }),
    );
  });
});

describe('technical.https', () => {
  const F = TECHNICAL_FIXTURES['technical.https'];

  it('passes over HTTPS with HSTS', () => {
    expect(run(https, F.clean)).toEqual(PASS);
  });

  it('warns about plain HTTP, scoring 0.5, without also asking for HSTS', () => {
    expect(run(https, F.plainHttp)).toEqual(result(0.5, 'technical.no-https', 'warning'));
  });

  it('reports a missing HSTS header as info, scoring 0.9', () => {
    expect(run(https, F.noHsts)).toEqual(result(0.9, 'technical.no-hsts', 'info'));
  });

  it("judges HSTS on the page's document when no response has the final URL exactly", () => {
    expect(run(https, F.mainResponseMissing)).toEqual(result(0.9, 'technical.no-hsts', 'info'));
    expect(run(https, F.trailingSlash)).toEqual(PASS);
    expect(run(https, F.trailingSlashNoHsts)).toEqual(result(0.9, 'technical.no-hsts', 'info'));
  });
});

/** Checks that follow one Lighthouse insight: pass from 0.9, otherwise the worse score (at least 0.3). */
const INSIGHTS = [
  {
    id: 'technical.render-blocking',
    check: renderBlocking,
    audit: 'render-blocking-insight',
    code: 'technical.render-blocking',
    severity: 'warning',
  },
  {
    id: 'technical.dom-size',
    check: domSize,
    audit: 'dom-size-insight',
    code: 'technical.large-dom',
    severity: 'warning',
  },
  {
    id: 'technical.viewport',
    check: viewport,
    audit: 'viewport-insight',
    code: 'technical.no-viewport',
    severity: 'warning',
  },
  {
    id: 'technical.legacy-javascript',
    check: legacyJs,
    audit: 'legacy-javascript-insight',
    code: 'technical.legacy-javascript',
    severity: 'info',
  },
  {
    id: 'technical.unused-javascript',
    check: unusedJs,
    audit: 'unused-javascript',
    code: 'technical.unused-javascript',
    severity: 'info',
  },
  {
    id: 'technical.font-display',
    check: fontDisplay,
    audit: 'font-display-insight',
    code: 'technical.font-display',
    severity: 'warning',
  },
  {
    id: 'technical.duplicated-javascript',
    check: duplicatedJs,
    audit: 'duplicated-javascript-insight',
    code: 'technical.duplicated-javascript',
    severity: 'warning',
  },
] as const;

for (const { id, check, audit, code, severity } of INSIGHTS) {
  describe(id, () => {
    const F = TECHNICAL_FIXTURES[id];

    it(`reads ${audit} and emits ${code}`, () => {
      expect(check.id).toBe(id);
      expect(Object.keys(F.failedBoth.obs.mobile.audits)).toEqual([audit]);
      expect(check.codes).toEqual([code]);
      expect(run(check, F.justBelowThreshold).findings).toHaveLength(1);
      // Another check's insight failing does not fail this one.
      const others = INSIGHTS.filter((i) => i.id !== id).map((i) => TECHNICAL_FIXTURES[i.id].failedBoth);
      for (const other of others) expect(run(check, other)).toEqual(PASS);
    });

    it('passes without the insight, or with a score of 0.9 or more on both form factors', () => {
      expect(run(check, F.noAudit)).toEqual(PASS);
      expect(run(check, F.passed)).toEqual(PASS);
      expect(run(check, F.atThreshold)).toEqual(PASS);
    });

    it('passes an insight without a score only when it states no savings', () => {
      expect(run(check, F.nullScore)).toEqual(PASS);
      expect(run(check, F.nullScoreWithSavings)).toEqual(result(curve(500, 1000), code, severity, { count: 4 }));
    });

    it("costs Lighthouse's millisecond savings (0.5 at 1 s), else its byte savings (0.5 at 256 KB)", () => {
      expect(run(check, F.savingsMs)).toEqual(result(curve(1_200, 1000), code, severity, { count: 2 }));
      expect(run(check, F.savingsBytesOnly)).toEqual(
        result(curve(100 * 1024, 256 * 1024), code, severity, { count: 2 }),
      );
    });

    it(`fails just below 0.9 with that score, as ${severity}, counting the rows`, () => {
      expect(run(check, F.justBelowThreshold)).toEqual(result(0.89, code, severity, { count: 2 }));
      expect(run(check, F.mobileOnly)).toEqual(result(0.6, code, severity, { count: 3 }));
    });

    it('without stated savings, takes the worse form factor, the larger row count, and scores at least 0.3', () => {
      expect(run(check, F.failedBoth)).toEqual(result(0.3, code, severity, { count: 5 }));
    });
  });
}

describe('technical.blocked-requests', () => {
  const F = TECHNICAL_FIXTURES['technical.blocked-requests'];

  it('passes when no request was refused', () => {
    expect(run(blockedRequests, F.clean)).toEqual(PASS);
  });

  it('reports refused requests as info, without moving the score (score 1, weight 0)', () => {
    expect(blockedRequests.weight).toBe(0);
    expect(run(blockedRequests, F.one)).toEqual(
      result(1, 'technical.blocked-requests', 'info', { count: 1, first_target: '192.168.1.10:443' }),
    );
    expect(run(blockedRequests, F.two)).toEqual(
      result(1, 'technical.blocked-requests', 'info', { count: 2, first_target: '10.0.0.7:80' }),
    );
  });
});
