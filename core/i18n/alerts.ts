import type { Alert, AlertSeverity } from '../monitoring/alert.ts';
import { SETTLE_SCANS as REGRESSION_WINDOW } from '../monitoring/regression-rules.ts';
import { budgetAlertText } from './budget-alerts.ts';
import { flowFailureAlertText } from './flow-failure-alerts.ts';
import { regressionAlertText } from './regression-alerts.ts';
import { categoryOf, scoreLabel, type ScoreKey } from '../scoring/categories.ts';
import { pageName } from '../url.ts';
import { formatNumber, type Locale } from './locale.ts';

/**
 * An alert's title and message in the reader's language, rendered when read (API, web area, e-mail, webhooks)
 * from its type, severity and details, so one row serves every language. A resolved alert's message ends
 * with how it was resolved. A unit test checks both languages for every type, severity and resolution.
 */
export interface AlertText {
  title: string;
  message: string;
}

type AlertFacts = Pick<Alert, 'type' | 'severity' | 'details' | 'host' | 'url' | 'resolvedAt'>;

export const SEVERITY_NAMES: Record<Locale, Record<AlertSeverity, string>> = {
  en: { warning: 'Warning', critical: 'Critical' },
  de: { warning: 'Warnung', critical: 'Kritisch' },
};

const number = (value: number, locale: Locale) => formatNumber(value, locale, 1);
/** English names scores in lower case inside sentences ("the speed score"); German quotes the label (Score „Geschwindigkeit“). */
const inSentence = (score: ScoreKey, locale: Locale) =>
  locale === 'de' ? `„${scoreLabel(score, 'de')}“` : score === 'overall' ? 'overall' : categoryOf(score).inSentence.en;

const TEXTS = {
  en: {
    belowTitle: (score: string, severity: AlertSeverity) => `${score} score below the ${severity} threshold`,
    belowMessage: (score: string, host: string, value: string, severity: AlertSeverity, threshold: string) =>
      `The ${score} score of ${host} is ${value}, below the ${severity} threshold of ${threshold}.`,
    alsoBelow: (list: string) => ` Also below their thresholds: ${list}.`,
    belowRecovered: (score: string, value: string) =>
      ` Resolved: every score is back at or above its threshold (${score} ${value}).`,
    regressionTitle: (score: string, drop: string) => `${score} score dropped by ${drop} points`,
    regressionMessage: (score: string, host: string, value: string, drop: string, baseline: string, scans: number) =>
      `The ${score} score of ${host} fell to ${value}, ${drop} points below its usual ${baseline} (the median of the previous ${scans} scheduled scans).`,
    regressionRecovered: (value: string) => ` Resolved: the score is back at ${value}.`,
    regressionSettled: (value: string, window: number) =>
      ` Resolved: the score has stayed at its new level (${value}) for ${window} scheduled scans, so that level is now its baseline.`,
  },
  de: {
    belowTitle: (score: string, severity: AlertSeverity) =>
      `Score ${score} unter der ${severity === 'critical' ? 'kritischen Schwelle' : 'Warnschwelle'}`,
    belowMessage: (score: string, host: string, value: string, severity: AlertSeverity, threshold: string) =>
      `Der Score ${score} von ${host} liegt bei ${value} und damit unter der ${severity === 'critical' ? 'kritischen Schwelle' : 'Warnschwelle'} von ${threshold}.`,
    alsoBelow: (list: string) => ` Ebenfalls unter ihrer Schwelle: ${list}.`,
    belowRecovered: (score: string, value: string) =>
      ` Behoben: Alle Scores liegen wieder auf oder über ihrer Schwelle (${score} ${value}).`,
    regressionTitle: (score: string, drop: string) => `Score ${score} um ${drop} Punkte gefallen`,
    regressionMessage: (score: string, host: string, value: string, drop: string, baseline: string, scans: number) =>
      `Der Score ${score} von ${host} ist auf ${value} gefallen, ${drop} Punkte unter seinem üblichen Wert ${baseline} (Median der letzten ${scans} geplanten Scans).`,
    regressionRecovered: (value: string) => ` Behoben: Der Score liegt wieder bei ${value}.`,
    regressionSettled: (value: string, window: number) =>
      ` Behoben: Der Score ist ${window} geplante Scans lang auf seinem neuen Niveau (${value}) geblieben; dieses Niveau ist jetzt sein Ausgangswert.`,
  },
} as const;

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

export function alertText(alert: AlertFacts, locale: Locale): AlertText {
  if (alert.type === 'metric_over_budget') return budgetAlertText(alert, locale);
  if (alert.type === 'flow_failed') return flowFailureAlertText(alert, locale);
  const t = TEXTS[locale];
  const { details } = alert;
  const score = inSentence(details.score, locale);
  const value = number(details.value, locale);
  const resolution = alert.resolvedAt ? details.resolution : undefined;
  // The page by host and path: a target on /pricing and one on / of the same host are told apart.
  const page = pageName(alert.url, alert.host);
  if (alert.type === 'score_below_threshold') {
    const others = (details.crossings ?? [])
      .slice(1)
      .map((c) => `${scoreLabel(c.score, locale)} ${number(c.value, locale)}`);
    return {
      title: capitalised(t.belowTitle(score, alert.severity)),
      message:
        t.belowMessage(score, page, value, alert.severity, number(details.reference, locale)) +
        (others.length ? t.alsoBelow(others.join(', ')) : '') +
        (resolution ? t.belowRecovered(score, number(resolution.value, locale)) : ''),
    };
  }
  // Confirmed regressions (score_regression and metric_regression) carry their facts; older score_regression rows do not.
  if (details.regression) return regressionAlertText(details.regression, alert, resolution, locale);
  const drop = number(details.reference - details.value, locale);
  const resolved = !resolution
    ? ''
    : resolution.kind === 'settled'
      ? t.regressionSettled(number(resolution.value, locale), REGRESSION_WINDOW)
      : t.regressionRecovered(number(resolution.value, locale));
  return {
    title: capitalised(t.regressionTitle(score, drop)),
    message:
      t.regressionMessage(
        score,
        page,
        value,
        drop,
        number(details.reference, locale),
        details.baselineScans ?? REGRESSION_WINDOW,
      ) + resolved,
  };
}
