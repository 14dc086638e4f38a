import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { PROJECT_ROOT } from '../../infra/config.ts';
import {
  cheapestPlanAllowingFlowSteps,
  cheapestPlanWith,
  cheapestPlanWithMoreFlows,
  cheapestPlanWithMoreTargets,
  hasFeature,
  PLANS,
  planView,
  UNLIMITED,
} from '../../core/plans.ts';

describe('plans', () => {
  it('gate each capability at the plan the spec names', () => {
    const minimum = (feature: Parameters<typeof hasFeature>[1]) => cheapestPlanWith(feature).key;
    expect(minimum('api')).toBe('starter');
    expect(minimum('share_links')).toBe('starter');
    expect(minimum('live_data')).toBe('starter');
    expect(minimum('oauth_authorize')).toBe('starter');
    expect(minimum('scan_auth')).toBe('pro');
    expect(minimum('webhooks')).toBe('pro');
    expect(minimum('flows')).toBe('starter');
    // Higher plans keep everything lower plans have.
    const order = [PLANS.free, PLANS.starter, PLANS.pro, PLANS.agency];
    for (let i = 1; i < order.length; i++) {
      for (const feature of order[i - 1]!.features) expect(hasFeature(order[i]!, feature)).toBe(true);
      expect(order[i]!.hourlyScanLimit).toBeGreaterThan(order[i - 1]!.hourlyScanLimit);
    }
  });

  it('have the spec’s daily limits, with unlimited as -1', () => {
    expect(planView(PLANS.free)).toEqual({ key: 'free', label: 'Free', api_enabled: false, api_daily_limit: 0 });
    expect(PLANS.starter.apiDailyLimit).toBe(500);
    expect(PLANS.pro.apiDailyLimit).toBe(5000);
    expect(PLANS.agency.apiDailyLimit).toBe(UNLIMITED);
    expect(UNLIMITED).toBe(-1);
  });

  it('keep targets, scheduled runs and on-demand runs per plan, growing with the plan', () => {
    const table = Object.values(PLANS).map((p) => [p.key, p.maxTargets, p.scheduledRuns, p.maxRunsPerScan]);
    expect(table).toEqual([
      ['free', 1, 1, 1],
      ['starter', 5, 3, 3],
      ['pro', 25, 3, 5],
      ['agency', 1000, 5, 5],
    ]);
    const order = [PLANS.free, PLANS.starter, PLANS.pro, PLANS.agency];
    for (let i = 1; i < order.length; i++) {
      expect(order[i]!.maxTargets).toBeGreaterThan(order[i - 1]!.maxTargets);
      expect(order[i]!.scheduledRuns).toBeGreaterThanOrEqual(order[i - 1]!.scheduledRuns);
      expect(order[i]!.maxRunsPerScan).toBeGreaterThanOrEqual(order[i - 1]!.maxRunsPerScan);
    }
    // Lighthouse's own advice: 5 runs at most make the median about twice as stable as one; more only cost time.
    for (const plan of order) expect(plan.maxRunsPerScan).toBeLessThanOrEqual(5);
    expect(cheapestPlanWithMoreTargets(0)?.key).toBe('free');
    expect(cheapestPlanWithMoreTargets(5)?.key).toBe('pro');
    expect(cheapestPlanWithMoreTargets(1000)).toBeUndefined();
  });

  it('keep user flows and their steps per plan, none without the feature, growing with the plan', () => {
    const table = Object.values(PLANS).map((p) => [p.key, hasFeature(p, 'flows'), p.maxFlows, p.maxFlowSteps]);
    expect(table).toEqual([
      ['free', false, 0, 0],
      ['starter', true, 2, 15],
      ['pro', true, 10, 30],
      ['agency', true, 50, 50],
    ]);
    expect(cheapestPlanWithMoreFlows(0)?.key).toBe('starter');
    expect(cheapestPlanWithMoreFlows(2)?.key).toBe('pro');
    expect(cheapestPlanWithMoreFlows(50)).toBeUndefined();
    expect(cheapestPlanAllowingFlowSteps(15)?.key).toBe('starter');
    expect(cheapestPlanAllowingFlowSteps(16)?.key).toBe('pro');
    expect(cheapestPlanAllowingFlowSteps(51)).toBeUndefined();
  });

  it('are the only place that compares plan names', () => {
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (['node_modules', '.state', '.git', 'test'].includes(name)) continue;
        if (statSync(path).isDirectory()) walk(path);
        else if (path.endsWith('.ts') && !path.endsWith(join('core', 'plans.ts'))) {
          const source = readFileSync(path, 'utf8');
          if (/(===|!==|==|case)\s*'(free|starter|pro|agency)'|'(free|starter|pro|agency)'\s*(===|!==)/.test(source))
            offenders.push(relative(PROJECT_ROOT, path));
        }
      }
    };
    walk(PROJECT_ROOT);
    expect(offenders).toEqual([]);
  });
});
