import { nextPlanUp, planDifferences, PLANS } from '../../core/plans.ts';
import { pageName, withDefaultScheme, normaliseScanUrl } from '../../core/url.ts';
import { planChangeCommand, requestablePlans } from '../../services/plan-requests.ts';

describe('the plan page rules', () => {
  it('the next plan up and what it adds: the limits that differ and the new features', () => {
    expect(nextPlanUp(PLANS.free)?.key).toBe('starter');
    expect(nextPlanUp(PLANS.pro)?.key).toBe('agency');
    expect(nextPlanUp(PLANS.agency)).toBeUndefined();
    const freeToStarter = planDifferences(PLANS.free, PLANS.starter);
    expect(freeToStarter.limits).toContainEqual({ limit: 'apiDailyLimit', from: 0, to: 500 });
    expect(freeToStarter.limits).toContainEqual({ limit: 'maxTargets', from: 1, to: 5 });
    expect(freeToStarter.limits).toContainEqual({ limit: 'maxFlows', from: 0, to: 2 });
    expect(freeToStarter.features.sort()).toEqual(['api', 'flows', 'live_data', 'oauth_authorize', 'share_links']);
    const proToAgency = planDifferences(PLANS.pro, PLANS.agency);
    expect(proToAgency.features).toEqual([]);
    expect(proToAgency.limits).toContainEqual({ limit: 'apiDailyLimit', from: 5000, to: -1 });
    // Pro and Agency take the same page loads per scan: not listed as a difference.
    expect(proToAgency.limits.map((d) => d.limit)).not.toContain('maxRunsPerScan');
  });

  it('offers every other plan, and names the operator command ready to paste', () => {
    expect(requestablePlans(PLANS.starter).map((p) => p.key)).toEqual(['free', 'pro', 'agency']);
    expect(planChangeCommand('ann@example.com', 'pro')).toBe(
      'npm run ops -- user:plan --email ann@example.com --plan pro',
    );
    expect(planChangeCommand("o'neil@example.com", 'agency')).toBe(
      `npm run ops -- user:plan --email 'o'\\''neil@example.com' --plan agency`,
    );
  });
});

describe('addresses typed into the web forms', () => {
  it('without a scheme are read as https, then normalised by the one rule', () => {
    expect(withDefaultScheme('example.com')).toBe('https://example.com');
    expect(withDefaultScheme('  example.com/a?b=1 ')).toBe('https://example.com/a?b=1');
    expect(withDefaultScheme('//example.com/x')).toBe('https://example.com/x');
    expect(withDefaultScheme('http://example.com')).toBe('http://example.com');
    expect(withDefaultScheme('')).toBe('');
    expect(normaliseScanUrl(withDefaultScheme('example.com'))).toEqual({
      ok: true,
      url: 'https://example.com/',
      host: 'example.com',
    });
    expect(normaliseScanUrl(withDefaultScheme('ftp://example.com')).ok).toBe(false);
  });

  it('a page is named by host and path', () => {
    expect(pageName('https://example.com/', 'example.com')).toBe('example.com');
    expect(pageName('https://example.com/pricing', 'example.com')).toBe('example.com/pricing');
    expect(pageName('not a url', 'example.com')).toBe('example.com');
  });
});
