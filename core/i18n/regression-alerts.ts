import type { AlertResolution, RegressionFacts } from '../monitoring/alert.ts';
import { SETTLE_SCANS } from '../monitoring/regression-rules.ts';
import { formatNumber, type Locale } from './locale.ts';

/**
 * The title and message of a confirmed regression (score_regression or metric_regression with `regression`
 * facts: core/monitoring/regression-rules.ts): the metric and form factor, the page by host and path, the
 * baseline and current medians, the Hodges–Lehmann shift and the p-value, and how it resolved.
 */

const METRIC_NAMES: Record<RegressionFacts['metric'], string> = {
  lcp: 'LCP',
  fcp: 'FCP',
  si: 'Speed Index',
  tbt: 'TBT',
  cls: 'CLS',
  ttfb: 'TTFB',
  score: '',
  requests: 'Requests',
  bytes: 'Bytes',
};

const FORM_FACTOR_NAMES: Record<Locale, Record<'desktop' | 'mobile', string>> = {
  en: { desktop: 'desktop', mobile: 'mobile' },
  de: { desktop: 'Desktop', mobile: 'Mobil' },
};

/** A value in the metric's unit: ms for times, three decimals for CLS, points for the score. */
function valueOf(facts: RegressionFacts, value: number, locale: Locale): string {
  if (facts.metric === 'cls') return formatNumber(value, locale, 3);
  if (facts.metric === 'score') return formatNumber(value, locale, 1);
  return `${formatNumber(value, locale, 0)} ms`;
}

const signed = (text: string, value: number) => (value > 0 ? `+${text}` : value < 0 ? `−${text}` : text);

function pValue(p: number, locale: Locale): string {
  return p < 0.001 ? (locale === 'de' ? '< 0,001' : '< 0.001') : `= ${formatNumber(p, locale, 3)}`;
}

export function regressionAlertText(
  facts: RegressionFacts,
  page: { host: string },
  resolution: AlertResolution | undefined,
  locale: Locale,
): { title: string; message: string } {
  const where = `${page.host}${facts.path}`;
  const shift = signed(valueOf(facts, Math.abs(facts.shift), locale), facts.shift);
  const baseline = valueOf(facts, facts.baseline, locale);
  const current = valueOf(facts, facts.current, locale);
  const p = pValue(facts.p_value, locale);
  const also = facts.also?.length ? facts.also.join(', ') : null;
  const back = resolution ? valueOf(facts, resolution.value, locale) : '';
  if (locale === 'de') {
    const metric =
      facts.metric === 'score'
        ? 'Score „Gesamt“'
        : `${METRIC_NAMES[facts.metric]}${facts.form_factor ? ` (${FORM_FACTOR_NAMES.de[facts.form_factor]})` : ''}`;
    return {
      title:
        facts.metric === 'score'
          ? `Score „Gesamt“ um ${valueOf(facts, Math.abs(facts.shift), 'de')} Punkte gefallen`
          : `${metric} verschlechtert: ${baseline} → ${current}`,
      message:
        `${metric} von ${where} liegt bei ${current} statt üblich ${baseline} (Median der letzten ${facts.baseline_scans} geplanten Scans), bestätigt durch einen sofortigen zweiten Scan: geschätzte Verschiebung ${shift} (Hodges-Lehmann), p ${p}.` +
        (also ? ` Ebenfalls verschlechtert: ${also}.` : '') +
        (!resolution
          ? ''
          : resolution.kind === 'settled'
            ? ` Behoben: Der Wert ist ${SETTLE_SCANS} geplante Scans lang auf seinem neuen Niveau (${back}) geblieben; dieses Niveau ist jetzt sein Ausgangswert.`
            : ` Behoben: Der Wert liegt wieder bei ${back}.`),
    };
  }
  const metric =
    facts.metric === 'score'
      ? 'The overall score'
      : `${facts.form_factor ? `${capitalised(FORM_FACTOR_NAMES.en[facts.form_factor])} ` : ''}${METRIC_NAMES[facts.metric]}`;
  return {
    title:
      facts.metric === 'score'
        ? `Overall score dropped by ${valueOf(facts, Math.abs(facts.shift), 'en')} points`
        : `${metric} regressed: ${baseline} → ${current}`,
    message:
      `${metric} of ${where} is ${current}, against its usual ${baseline} (the median of the previous ${facts.baseline_scans} scheduled scans), confirmed by a second scan at once: estimated shift ${shift} (Hodges-Lehmann), p ${p}.` +
      (also ? ` Also regressed: ${also}.` : '') +
      (!resolution
        ? ''
        : resolution.kind === 'settled'
          ? ` Resolved: it has stayed at its new level (${back}) for ${SETTLE_SCANS} scheduled scans, so that level is now its baseline.`
          : ` Resolved: it is back at ${back}.`),
  };
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
