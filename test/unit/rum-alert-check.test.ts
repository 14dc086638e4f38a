import {
  judge,
  RUM_ALERT_MIN_SOURCES,
  rumEmailDue,
  step,
  type AlertState,
  type RumAlert,
  type RumAlertRule,
  type Verdict,
} from '../../core/rum/alert-check.ts';
import { composeRumAlertEmail } from '../../core/rum/alert-email.ts';
import { rumAlertPayload, type RumAlertNotice } from '../../core/webhooks/payloads.ts';
import { payloadProblems } from '../../core/webhooks/schemas.ts';
import { siteWindowsSql } from '../../db/clickhouse/rum-alert-queries.ts';
import { ClickHouseSqlError } from '../../db/clickhouse/sql.ts';

const auto: RumAlertRule = { mode: 'auto', metric: null, threshold: null, minSamples: 20 };
const manualInp: RumAlertRule = { mode: 'manual', metric: 'INP', threshold: 300, minSamples: 10 };
const breach: Verdict = { kind: 'breach', metric: 'LCP', p75: 5000, samples: 50, threshold: 4000 };
const ok: Verdict = { kind: 'ok', metric: 'LCP', p75: 2000, samples: 50, threshold: 4000 };
const none: Verdict = { kind: 'insufficient' };

describe('judge', () => {
  it("auto: breaches only when a Core Web Vital is rated poor (above Google's poor threshold), not needs-improvement", () => {
    expect(
      judge(
        auto,
        {
          LCP: { p75: 4000, samples: 20, sources: 9 },
          INP: { p75: 500, samples: 20, sources: 9 },
          CLS: { p75: 0.25, samples: 20, sources: 9 },
        },
        null,
      ),
    ).toEqual({ kind: 'ok', metric: 'LCP', p75: 4000, samples: 20, threshold: 4000 });
    expect(judge(auto, { LCP: { p75: 4001, samples: 20, sources: 9 } }, null)).toEqual({
      kind: 'breach',
      metric: 'LCP',
      p75: 4001,
      samples: 20,
      threshold: 4000,
    });
    expect(judge(auto, { CLS: { p75: 0.26, samples: 30, sources: 9 } }, null)).toEqual({
      kind: 'breach',
      metric: 'CLS',
      p75: 0.26,
      samples: 30,
      threshold: 0.25,
    });
  });

  it('auto: ignores FCP and TTFB, and names the worst breach relative to its threshold', () => {
    expect(
      judge(auto, { TTFB: { p75: 9000, samples: 99, sources: 9 }, FCP: { p75: 9000, samples: 99, sources: 9 } }, null),
    ).toEqual({ kind: 'insufficient' });
    const verdict = judge(
      auto,
      {
        LCP: { p75: 4400, samples: 25, sources: 9 },
        INP: { p75: 1000, samples: 25, sources: 9 },
        CLS: { p75: 0.3, samples: 25, sources: 9 },
      },
      null,
    );
    expect(verdict).toMatchObject({ kind: 'breach', metric: 'INP', threshold: 500 });
  });

  it('counts a metric only with min_samples samples', () => {
    expect(judge(auto, { LCP: { p75: 9000, samples: 19, sources: 9 } }, null)).toEqual({ kind: 'insufficient' });
    expect(
      judge(auto, { LCP: { p75: 9000, samples: 19, sources: 9 }, CLS: { p75: 0.01, samples: 20, sources: 9 } }, null),
    ).toMatchObject({ kind: 'ok', metric: 'CLS' });
    expect(judge(manualInp, { INP: { p75: 900, samples: 9, sources: 9 } }, null)).toEqual({ kind: 'insufficient' });
  });

  it('counts a metric only with samples from RUM_ALERT_MIN_SOURCES distinct sender networks', () => {
    expect(RUM_ALERT_MIN_SOURCES).toBe(5);
    expect(judge(auto, { LCP: { p75: 9000, samples: 500, sources: 4 } }, null)).toEqual({ kind: 'insufficient' });
    expect(judge(auto, { LCP: { p75: 9000, samples: 500, sources: 5 } }, null)).toMatchObject({
      kind: 'breach',
      metric: 'LCP',
    });
  });

  it('manual: breaches above the threshold, not at it, and watches only its metric', () => {
    expect(
      judge(
        manualInp,
        { INP: { p75: 300, samples: 10, sources: 9 }, LCP: { p75: 99_999, samples: 99, sources: 9 } },
        null,
      ),
    ).toMatchObject({ kind: 'ok', metric: 'INP', threshold: 300 });
    expect(judge(manualInp, { INP: { p75: 301, samples: 10, sources: 9 } }, null)).toEqual({
      kind: 'breach',
      metric: 'INP',
      p75: 301,
      samples: 10,
      threshold: 300,
    });
  });

  it('a triggered auto alert recovers on the metric it fired on: without enough samples of it there is no verdict', () => {
    expect(judge(auto, { CLS: { p75: 0.01, samples: 99, sources: 9 } }, 'LCP')).toEqual({ kind: 'insufficient' });
    expect(
      judge(auto, { CLS: { p75: 0.01, samples: 99, sources: 9 }, LCP: { p75: 2000, samples: 20, sources: 9 } }, 'LCP'),
    ).toMatchObject({ kind: 'ok', metric: 'LCP', p75: 2000 });
    expect(
      judge(auto, { CLS: { p75: 0.5, samples: 99, sources: 9 }, LCP: { p75: 2000, samples: 20, sources: 9 } }, 'LCP'),
    ).toMatchObject({ kind: 'breach', metric: 'CLS' });
  });
});

describe('step', () => {
  const run = (verdicts: Verdict[], n: number, start: AlertState = { status: 'active', streak: 0 }) => {
    let state = start;
    return verdicts.map((verdict) => {
      const next = step(state, verdict, n);
      state = { status: next.status, streak: next.streak };
      return next.transition ?? `${next.status}:${next.streak}`;
    });
  };

  it('triggers after consecutive_threshold breaches in a row, not before; a good check in between starts again', () => {
    expect(run([breach, breach, ok, breach, breach, breach], 3)).toEqual([
      'active:1',
      'active:2',
      'active:0',
      'active:1',
      'active:2',
      'triggered',
    ]);
  });

  it('resolves after consecutive_threshold recoveries in a row; a breach in between starts again', () => {
    expect(run([ok, ok, breach, ok, ok, ok], 3, { status: 'triggered', streak: 0 })).toEqual([
      'triggered:1',
      'triggered:2',
      'triggered:0',
      'triggered:1',
      'triggered:2',
      'resolved',
    ]);
  });

  it('too few samples changes nothing, not even the streak', () => {
    expect(run([breach, none, none, breach], 2)).toEqual(['active:1', 'active:1', 'active:1', 'triggered']);
  });

  it('a threshold of 1 triggers and resolves at once, and a resolved alert can trigger again', () => {
    expect(run([breach, ok, ok, breach], 1)).toEqual(['triggered', 'resolved', 'resolved:0', 'triggered']);
  });
});

describe('e-mails and payloads', () => {
  const at = new Date('2026-11-23T10:05:00Z');
  const alert = (fields: Partial<RumAlert>): RumAlert => ({
    id: 1,
    siteId: 7,
    title: 't',
    mode: 'auto',
    metric: null,
    threshold: null,
    minSamples: 20,
    windowMinutes: 60,
    consecutiveThreshold: 2,
    status: 'triggered',
    streak: 0,
    lastMetric: null,
    lastP75: null,
    lastSamples: null,
    lastCheckedAt: null,
    triggeredMetric: 'LCP',
    triggeredAt: at,
    emailedAt: null,
    resolvedAt: null,
    resolvedEmailedAt: null,
    createdAt: at,
    updatedAt: at,
    ...fields,
  });

  it('sends a trigger e-mail once, drops it once the alert moved on, and sends a resolution only after a sent trigger', () => {
    expect(rumEmailDue(alert({}), 'triggered', at)).toBe('send');
    expect(rumEmailDue(alert({ emailedAt: at }), 'triggered', at)).toBe('sent');
    expect(rumEmailDue(alert({ status: 'resolved', resolvedAt: at }), 'triggered', at)).toBe('not_due');
    expect(rumEmailDue(alert({ triggeredAt: new Date(at.getTime() + 1) }), 'triggered', at)).toBe('not_due');
    expect(rumEmailDue(alert({ status: 'resolved', resolvedAt: at, emailedAt: at }), 'resolved', at)).toBe('send');
    expect(rumEmailDue(alert({ status: 'resolved', resolvedAt: at }), 'resolved', at)).toBe('not_due');
    expect(
      rumEmailDue(alert({ status: 'resolved', resolvedAt: at, emailedAt: at, resolvedEmailedAt: at }), 'resolved', at),
    ).toBe('sent');
  });

  const notice: RumAlertNotice = {
    alertName: 'Checkout vitals',
    domain: 'shop.example',
    siteId: 7,
    metric: 'CLS',
    p75: 0.31234,
    threshold: 0.25,
    samples: 120,
    windowMinutes: 30,
    at: '2026-11-23T10:05:00+00:00',
  };

  it("payloads carry exactly the spec's fields and match the published schemas", () => {
    const triggered = rumAlertPayload(notice, 'rum.alert.triggered', 'https://perf.example');
    expect(triggered).toEqual({
      event: 'rum.alert.triggered',
      alert_name: 'Checkout vitals',
      domain: 'shop.example',
      metric: 'CLS',
      p75: 0.3123,
      threshold: 0.25,
      unit: 'score',
      samples: 120,
      window_minutes: 30,
      triggered_at: '2026-11-23T10:05:00+00:00',
      rum_dashboard_url: 'https://perf.example/live/7',
    });
    expect(payloadProblems('rum.alert.triggered', triggered)).toBeNull();
    const resolved = rumAlertPayload(
      { ...notice, metric: 'LCP', p75: 2000.4, threshold: 4000 },
      'rum.alert.resolved',
      'https://perf.example',
    );
    expect(resolved).toMatchObject({ unit: 'ms', p75: 2000, resolved_at: '2026-11-23T10:05:00+00:00' });
    expect(resolved).not.toHaveProperty('triggered_at');
    expect(payloadProblems('rum.alert.resolved', resolved)).toBeNull();
  });

  it("writes the e-mail in the owner's language", () => {
    const en = composeRumAlertEmail(
      { ...notice, metric: 'LCP', p75: 4712, threshold: 4000 },
      'triggered',
      { email: 'a@example.com', name: 'Ann', locale: 'en' },
      'https://perf.example',
    );
    expect(en.subject).toBe('[Live data] LCP p75 above 4,000 ms – shop.example');
    expect(en.text).toContain(
      'the 75th percentile of LCP over the last 30 minutes is 4,712 ms, above its threshold of 4,000 ms (120 samples).',
    );
    expect(en.text).toContain('Live data: https://perf.example/live/7');
    const de = composeRumAlertEmail(
      notice,
      'resolved',
      { email: 'b@example.com', name: 'Bea', locale: 'de' },
      'https://perf.example',
    );
    expect(de.subject).toBe('[Behoben] CLS p75 wieder höchstens 0,25 – shop.example');
    expect(de.text).toContain('Das 75. Perzentil von CLS der letzten 30 Minuten beträgt 0,3123');
    expect(de.html).toContain('<a href="https://perf.example/live/7">');
  });
});

describe("the check's ClickHouse query", () => {
  it('asks for every site of a window at once, deduplicated by page view and metric id, over (now - window, now]', () => {
    const text = siteWindowsSql('webperf', [3, 1, 2], 15, new Date('2026-11-23T10:15:00Z'));
    expect(text).toContain(
      "WHERE site_id IN (3, 1, 2) AND ts > toDateTime(1795428000, 'UTC') AND ts <= toDateTime(1795428900, 'UTC')",
    );
    expect(text).toContain('argMax(value, seq)');
    expect(text).toContain('GROUP BY site_id, metric, dedupe_key');
    expect(text).toContain('quantileExact(0.75)(value)');
  });

  it('refuses what it cannot format: no sites, an id out of range, a window that is not whole minutes', () => {
    expect(() => siteWindowsSql('webperf', [], 15, new Date())).toThrow(ClickHouseSqlError);
    expect(() => siteWindowsSql('webperf', [1.5], 15, new Date())).toThrow(ClickHouseSqlError);
    expect(() => siteWindowsSql('webperf', [-1], 15, new Date())).toThrow(ClickHouseSqlError);
    expect(() => siteWindowsSql('webperf', [1], 0.5, new Date())).toThrow(ClickHouseSqlError);
    expect(() => siteWindowsSql('web perf', [1], 5, new Date())).toThrow(ClickHouseSqlError);
  });
});
