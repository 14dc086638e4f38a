import type { Alert, AlertDetails, AlertSeverity, AlertType } from '../../core/monitoring/alert.ts';
import { emailDue } from '../../core/monitoring/alert-email.ts';
import {
  decideAlertTransitions,
  scoreCrossings,
  type AlertRuleInput,
  type PreviousScan,
} from '../../core/monitoring/alert-rules.ts';
import type { UnresolvedAlert } from '../../core/monitoring/alert-transition.ts';
import type { Thresholds } from '../../core/monitoring/thresholds.ts';
import type { ScanScores } from '../../core/scoring/categories.ts';

/** One test per row of the state tables in docs/monitoring-and-alerts.md (Score alerts); row ids match. */

const RAISED_AT = new Date('2026-11-20T12:00:00Z');
const day = (n: number) => new Date(RAISED_AT.getTime() + n * 86_400_000);
const scores = (overall: number, categories: Partial<ScanScores> = {}): ScanScores => ({
  overall,
  speed: 90,
  images: 90,
  caching: 90,
  technical: 90,
  wordpress: 100,
  ...categories,
});
const OVERALL_ONLY: Thresholds = { overall: { warning: 70, critical: 50 } };
/** Previous scans, newest first, finished one day apart before `newest`. */
const history = (overalls: number[], newest = day(-1)): PreviousScan[] =>
  overalls.map((overall, i) => ({ overall, finishedAt: new Date(newest.getTime() - i * 86_400_000) }));
const STEADY_98 = history([98, 97, 98, 99, 98, 98, 97]);
const open = (type: AlertType, severity: AlertSeverity, details: AlertDetails, id = 7): UnresolvedAlert => ({
  id,
  type,
  severity,
  details,
  createdAt: RAISED_AT,
});
const decide = (input: Partial<AlertRuleInput> & { scores: ScanScores }) =>
  decideAlertTransitions({ thresholds: OVERALL_ONLY, previous: [], unresolved: [], ...input });
const ofType = (type: AlertType, input: Partial<AlertRuleInput> & { scores: ScanScores }) =>
  decide(input).filter((t) => t.type === type);

describe('score_below_threshold', () => {
  const below = (severity: AlertSeverity, value = 60) =>
    open('score_below_threshold', severity, { score: 'overall', value, reference: severity === 'critical' ? 50 : 70 });

  it('B1: no alert, every watched score at or above its warning threshold: nothing', () => {
    expect(decide({ scores: scores(70) })).toEqual([]);
  });

  it('B2: no alert, a score below warning but not critical: raises a warning', () => {
    expect(decide({ scores: scores(69) })).toEqual([
      {
        change: 'raised',
        type: 'score_below_threshold',
        severity: 'warning',
        details: {
          score: 'overall',
          value: 69,
          reference: 70,
          crossings: [{ score: 'overall', value: 69, threshold: 70, severity: 'warning' }],
        },
      },
    ]);
  });

  it('B3: no alert, a score below critical: raises a critical alert', () => {
    expect(decide({ scores: scores(49) })).toMatchObject([
      { change: 'raised', severity: 'critical', details: { score: 'overall', value: 49, reference: 50 } },
    ]);
    expect(decide({ scores: scores(50) })).toMatchObject([{ change: 'raised', severity: 'warning' }]);
  });

  it('B4: warning open, still only below warning (even another score): unchanged', () => {
    expect(decide({ scores: scores(65), unresolved: [below('warning')] })).toEqual([]);
    expect(
      decide({
        thresholds: { ...OVERALL_ONLY, speed: { warning: 80, critical: 40 } },
        scores: scores(75, { speed: 60 }),
        unresolved: [below('warning')],
      }),
    ).toEqual([]);
  });

  it('B5: warning open, a score below critical: escalates the same alert', () => {
    expect(decide({ scores: scores(45), unresolved: [below('warning')] })).toEqual([
      {
        change: 'escalated',
        alertId: 7,
        type: 'score_below_threshold',
        severity: 'critical',
        details: {
          score: 'overall',
          value: 45,
          reference: 50,
          crossings: [{ score: 'overall', value: 45, threshold: 50, severity: 'critical' }],
        },
      },
    ]);
  });

  it('B6: critical open, still below critical: unchanged', () => {
    expect(decide({ scores: scores(30), unresolved: [below('critical', 45)] })).toEqual([]);
  });

  it('B7: critical open, improved to below warning only: unchanged (no de-escalation)', () => {
    expect(decide({ scores: scores(65), unresolved: [below('critical', 45)] })).toEqual([]);
  });

  it('B8: open (warning or critical), every score back at or above warning: resolved as recovered', () => {
    for (const severity of ['warning', 'critical'] as const) {
      expect(decide({ scores: scores(70), unresolved: [below(severity)] })).toEqual([
        { change: 'resolved', alertId: 7, type: 'score_below_threshold', resolution: { kind: 'recovered', value: 70 } },
      ]);
    }
  });

  it('B9: only resolved alerts (none unresolved), below again: raises a new alert', () => {
    expect(decide({ scores: scores(40), unresolved: [] })).toMatchObject([{ change: 'raised', severity: 'critical' }]);
  });

  it('B10: category thresholds: one alert naming the worst crossing and listing every one', () => {
    const thresholds: Thresholds = {
      overall: { warning: 70, critical: 50 },
      speed: { warning: 80, critical: 60 },
      images: { warning: 60, critical: 30 },
    };
    const transitions = decide({ thresholds, scores: scores(68, { speed: 55, images: 20, caching: 10 }) });
    expect(transitions).toHaveLength(1);
    expect(transitions[0]).toMatchObject({
      change: 'raised',
      severity: 'critical',
      details: { score: 'images', value: 20, reference: 30 },
    });
    // Critical first, the larger shortfall first (images 10 under, speed 5 under), then warnings; caching is not watched.
    expect(
      scoreCrossings(thresholds, scores(68, { speed: 55, images: 20, caching: 10 })).map((c) => [c.score, c.severity]),
    ).toEqual([
      ['images', 'critical'],
      ['speed', 'critical'],
      ['overall', 'warning'],
    ]);
    // A category alone raises it, while overall is fine.
    expect(decide({ thresholds, scores: scores(90, { speed: 79 }) })).toMatchObject([
      { change: 'raised', severity: 'warning', details: { score: 'speed', value: 79, reference: 80 } },
    ]);
  });
});

describe('score_regression is not a single-run rule here', () => {
  it('a scan far below its baseline raises no regression from the threshold rules (test/unit/regression-rules.test.ts: only a confirmed shift does)', () => {
    expect(ofType('score_regression', { scores: scores(78), previous: STEADY_98 })).toEqual([]);
    expect(decide({ scores: scores(45), previous: STEADY_98 }).map((t) => [t.type, t.change])).toEqual([
      ['score_below_threshold', 'raised'],
    ]);
  });
});

describe('e-mail due', () => {
  const alert = (overrides: Partial<Alert> = {}): Alert => ({
    id: 1,
    userId: 1,
    targetId: 1,
    type: 'score_below_threshold',
    severity: 'warning',
    details: { score: 'overall', value: 60, reference: 70 },
    url: 'https://example.com/',
    host: 'example.com',
    region: 'local',
    scanPublicId: 'a'.repeat(26),
    resolvedScanPublicId: null,
    isRead: false,
    isDismissed: false,
    createdAt: RAISED_AT,
    updatedAt: RAISED_AT,
    escalatedAt: null,
    resolvedAt: null,
    dismissedAt: null,
    raisedEmailedAt: null,
    escalatedEmailedAt: null,
    resolvedEmailedAt: null,
    ...overrides,
  });

  it.each([
    ['M1 raised: open, not sent', alert(), 'raised', 'send'],
    ['M2 raised: sent before', alert({ raisedEmailedAt: day(0) }), 'raised', 'sent'],
    ['M3 raised: dismissed', alert({ isDismissed: true }), 'raised', 'not_due'],
    ['M4 raised: resolved before it went out', alert({ resolvedAt: day(1) }), 'raised', 'not_due'],
    ['M5 escalated: escalated, not sent', alert({ escalatedAt: day(1) }), 'escalated', 'send'],
    ['M6 escalated: never escalated', alert(), 'escalated', 'not_due'],
    ['M7 escalated: dismissed', alert({ escalatedAt: day(1), isDismissed: true }), 'escalated', 'not_due'],
    ['M8 resolved: raise was e-mailed', alert({ resolvedAt: day(2), raisedEmailedAt: day(0) }), 'resolved', 'send'],
    ['M9 resolved: raise never e-mailed', alert({ resolvedAt: day(2) }), 'resolved', 'not_due'],
    [
      'M10 resolved: dismissed',
      alert({ resolvedAt: day(2), raisedEmailedAt: day(0), isDismissed: true }),
      'resolved',
      'not_due',
    ],
    [
      'M11 resolved: sent before',
      alert({ resolvedAt: day(2), raisedEmailedAt: day(0), resolvedEmailedAt: day(2) }),
      'resolved',
      'sent',
    ],
    ['M12 resolved: not resolved', alert({ raisedEmailedAt: day(0) }), 'resolved', 'not_due'],
  ] as const)('%s', (_row, subject, change, expected) => {
    expect(emailDue(subject, change)).toBe(expected);
  });
});
