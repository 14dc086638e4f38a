import { alertText } from '../../core/i18n/alerts.ts';
import { LOCALES } from '../../core/i18n/locale.ts';
import type { Alert } from '../../core/monitoring/alert.ts';
import { composeAlertEmail } from '../../core/monitoring/alert-email.ts';
import { testAlert } from './alert-fixture.ts';

const base = testAlert();
const regression: Alert = {
  ...base,
  type: 'score_regression',
  severity: 'warning',
  details: { score: 'overall', value: 80, reference: 97.5, baselineScans: 6 },
};
const resolved = (alert: Alert, kind: 'recovered' | 'settled', value: number): Alert => ({
  ...alert,
  resolvedAt: new Date('2026-11-22T12:00:00Z'),
  resolvedScanPublicId: 'b'.repeat(26),
  details: { ...alert.details, resolution: { kind, value } },
});

describe('alert titles and messages', () => {
  it('score_below_threshold names the score, its value, the threshold and the other crossings', () => {
    expect(alertText(base, 'en')).toEqual({
      title: 'Overall score below the critical threshold',
      message:
        'The overall score of shop.example.com is 45, below the critical threshold of 50. Also below their thresholds: Speed 61.',
    });
    expect(alertText(base, 'de')).toEqual({
      title: 'Score „Gesamt“ unter der kritischen Schwelle',
      message:
        'Der Score „Gesamt“ von shop.example.com liegt bei 45 und damit unter der kritischen Schwelle von 50. Ebenfalls unter ihrer Schwelle: Geschwindigkeit 61.',
    });
    expect(
      alertText({ ...base, severity: 'warning', details: { score: 'speed', value: 61, reference: 70 } }, 'en').title,
    ).toBe('Speed score below the warning threshold');
    expect(
      alertText({ ...base, severity: 'warning', details: { score: 'speed', value: 61, reference: 70 } }, 'de').title,
    ).toBe('Score „Geschwindigkeit“ unter der Warnschwelle');
  });

  it("score_regression names the drop and the baseline, in each language's number format", () => {
    expect(alertText(regression, 'en')).toEqual({
      title: 'Overall score dropped by 17.5 points',
      message:
        'The overall score of shop.example.com fell to 80, 17.5 points below its usual 97.5 (the median of the previous 6 scheduled scans).',
    });
    expect(alertText(regression, 'de')).toEqual({
      title: 'Score „Gesamt“ um 17,5 Punkte gefallen',
      message:
        'Der Score „Gesamt“ von shop.example.com ist auf 80 gefallen, 17,5 Punkte unter seinem üblichen Wert 97,5 (Median der letzten 6 geplanten Scans).',
    });
  });

  it('a resolved alert says how it resolved', () => {
    expect(alertText(resolved(base, 'recovered', 72), 'en').message).toMatch(
      / Resolved: every score is back at or above its threshold \(overall 72\)\.$/,
    );
    expect(alertText(resolved(base, 'recovered', 72), 'de').message).toMatch(
      / Behoben: Alle Scores liegen wieder auf oder über ihrer Schwelle \(„Gesamt“ 72\)\.$/,
    );
    expect(alertText(resolved(regression, 'recovered', 95), 'en').message).toMatch(
      / Resolved: the score is back at 95\.$/,
    );
    expect(alertText(resolved(regression, 'settled', 81), 'en').message).toMatch(
      / Resolved: the score has stayed at its new level \(81\) for 7 scheduled scans, so that level is now its baseline\.$/,
    );
    expect(alertText(resolved(regression, 'settled', 81), 'de').message).toMatch(
      / Behoben: Der Score ist 7 geplante Scans lang auf seinem neuen Niveau \(81\) geblieben; dieses Niveau ist jetzt sein Ausgangswert\.$/,
    );
  });

  it('exists for every type, severity, resolution and language', () => {
    for (const locale of LOCALES) {
      for (const alert of [
        base,
        { ...base, severity: 'warning' as const },
        regression,
        { ...regression, severity: 'critical' as const },
      ]) {
        for (const subject of [alert, resolved(alert, 'recovered', 90), resolved(alert, 'settled', 90)]) {
          const text = alertText(subject, locale);
          expect(text.title.length).toBeGreaterThan(10);
          expect(text.message).toContain('shop.example.com');
        }
      }
    }
  });
});

describe('alert e-mails', () => {
  const recipient = { email: 'owner@example.com', name: 'Ada <Admin>', locale: 'en' as const };

  it('carry severity, title and host in the subject, the message and links in both bodies (HTML escaped)', () => {
    const mail = composeAlertEmail(base, 'raised', recipient, 'https://perf.example.com');
    expect(mail.to).toBe('owner@example.com');
    expect(mail.subject).toBe('[Critical] Overall score below the critical threshold – shop.example.com');
    expect(mail.text).toContain('Hello Ada <Admin>,');
    expect(mail.text).toContain(alertText(base, 'en').message);
    expect(mail.text).toContain(`Report: https://perf.example.com/reports/${'a'.repeat(26)}`);
    expect(mail.text).toContain('All alerts: https://perf.example.com/alerts');
    expect(mail.html).toContain('Hello Ada &#60;Admin&#62;,');
    expect(mail.html).toContain(`<a href="https://perf.example.com/reports/${'a'.repeat(26)}">`);
  });

  it('name the change: escalated, resolved (linking the resolving scan), in German too', () => {
    expect(
      composeAlertEmail({ ...base, escalatedAt: new Date() }, 'escalated', recipient, 'https://x.test').subject,
    ).toBe('[Critical] Escalated: Overall score below the critical threshold – shop.example.com');
    const done = composeAlertEmail(
      resolved(base, 'recovered', 75),
      'resolved',
      { ...recipient, locale: 'de' },
      'https://x.test',
    );
    expect(done.subject).toBe('[Behoben] Score „Gesamt“ unter der kritischen Schwelle – shop.example.com');
    expect(done.text).toContain(`Bericht: https://x.test/reports/${'b'.repeat(26)}`);
    expect(done.text).toContain('Sie erhalten diese E-Mail, weil Sie https://shop.example.com/ überwachen.');
  });
});

describe('the page an alert names', () => {
  it('is named by host and path (with its query), the home page by its host alone, in the text and the e-mail', () => {
    const pricing: Alert = { ...base, url: 'https://shop.example.com/pricing?plan=pro' };
    expect(alertText(pricing, 'en').message).toContain('The overall score of shop.example.com/pricing?plan=pro is 45');
    expect(alertText(pricing, 'de').message).toContain('von shop.example.com/pricing?plan=pro liegt');
    expect(alertText({ ...regression, url: 'https://shop.example.com/a/b' }, 'en').message).toContain(
      'The overall score of shop.example.com/a/b fell to 80',
    );
    expect(alertText(base, 'en').message).toContain('of shop.example.com is 45');
    const mail = composeAlertEmail(
      pricing,
      'raised',
      { email: 'a@b.example', name: 'A', locale: 'en' },
      'https://x.example',
    );
    expect(mail.subject).toMatch(/– shop\.example\.com\/pricing\?plan=pro$/);
  });
});

describe('confirmed regressions', () => {
  const facts = {
    metric: 'lcp' as const,
    form_factor: 'mobile' as const,
    baseline: 1800,
    current: 2650.5,
    shift: 842,
    p_value: 0.0083,
    baseline_scans: 14,
    path: '/pricing',
    confirmation_scan_id: 'c'.repeat(26),
  };
  const metric: Alert = {
    ...base,
    type: 'metric_regression',
    severity: 'warning',
    url: 'https://shop.example.com/pricing',
    details: { score: 'speed', value: 2650.5, reference: 1800, baselineScans: 14, regression: facts },
  };
  const score: Alert = {
    ...base,
    type: 'score_regression',
    severity: 'warning',
    url: 'https://shop.example.com/',
    details: {
      score: 'overall',
      value: 84,
      reference: 97,
      baselineScans: 9,
      regression: {
        ...facts,
        metric: 'score',
        form_factor: null,
        baseline: 97,
        current: 84,
        shift: -13,
        p_value: 0.0004,
        baseline_scans: 9,
        path: '/',
      },
    },
  };

  it('name the metric, the page by host and path, the values, the shift and the p-value, in English and German', () => {
    expect(alertText(metric, 'en')).toEqual({
      title: 'Mobile LCP regressed: 1,800 ms → 2,651 ms',
      message:
        'Mobile LCP of shop.example.com/pricing is 2,651 ms, against its usual 1,800 ms (the median of the previous 14 scheduled scans), confirmed by a second scan at once: estimated shift +842 ms (Hodges-Lehmann), p = 0.008.',
    });
    expect(alertText(metric, 'de')).toEqual({
      title: 'LCP (Mobil) verschlechtert: 1.800 ms → 2.651 ms',
      message:
        'LCP (Mobil) von shop.example.com/pricing liegt bei 2.651 ms statt üblich 1.800 ms (Median der letzten 14 geplanten Scans), bestätigt durch einen sofortigen zweiten Scan: geschätzte Verschiebung +842 ms (Hodges-Lehmann), p = 0,008.',
    });
    // The home page is named with its path too: a target on / and one on /pricing of one host are told apart.
    expect(alertText(score, 'en')).toEqual({
      title: 'Overall score dropped by 13 points',
      message:
        'The overall score of shop.example.com/ is 84, against its usual 97 (the median of the previous 9 scheduled scans), confirmed by a second scan at once: estimated shift −13 (Hodges-Lehmann), p < 0.001.',
    });
    expect(alertText(score, 'de').title).toBe('Score „Gesamt“ um 13 Punkte gefallen');
  });

  it('say how they resolved, and list the other metrics confirmed with them', () => {
    const both: Alert = {
      ...metric,
      details: { ...metric.details, regression: { ...facts, also: ['desktop.lcp', 'mobile.fcp'] } },
    };
    expect(alertText(both, 'en').message).toContain(' Also regressed: desktop.lcp, mobile.fcp.');
    expect(alertText(resolved(metric, 'recovered', 1850), 'en').message).toMatch(
      / Resolved: it is back at 1,850 ms\.$/,
    );
    expect(alertText(resolved(metric, 'settled', 2600), 'de').message).toMatch(
      / Behoben: Der Wert ist 7 geplante Scans lang auf seinem neuen Niveau \(2\.600 ms\) geblieben; dieses Niveau ist jetzt sein Ausgangswert\.$/,
    );
    const mail = composeAlertEmail(metric, 'raised', { email: 'a@b.example', name: 'A', locale: 'en' }, 'https://x');
    expect(mail.subject).toBe('[Warning] Mobile LCP regressed: 1,800 ms → 2,651 ms – shop.example.com/pricing');
  });
});
