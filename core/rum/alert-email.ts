import { formatNumber, type Locale } from '../i18n/locale.ts';
import { liveDashboardUrl } from '../links.ts';
import type { RumAlertNotice } from '../webhooks/payloads.ts';
import type { Transition } from './alert-check.ts';
import { METRIC_RULES, roundMetric } from './metrics.ts';
import { liveDataEmailBody } from './email-body.ts';

export interface RumAlertEmail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

const value = (notice: Pick<RumAlertNotice, 'metric'>, n: number, locale: Locale) =>
  METRIC_RULES[notice.metric].unit === 'ms'
    ? `${formatNumber(roundMetric(notice.metric, n), locale)} ms`
    : formatNumber(roundMetric(notice.metric, n), locale, 4);

const WORDS = {
  en: {
    tag: { triggered: 'Live data', resolved: 'Resolved' },
    hello: (name: string) => `Hello ${name},`,
    subject: (n: RumAlertNotice, change: Transition) =>
      change === 'triggered'
        ? `${n.metric} p75 above ${value(n, n.threshold, 'en')}`
        : `${n.metric} p75 back at or below ${value(n, n.threshold, 'en')}`,
    body: (n: RumAlertNotice, change: Transition) =>
      change === 'triggered'
        ? `The live-data alert "${n.alertName}" on ${n.domain} triggered: the 75th percentile of ${n.metric} over the last ${n.windowMinutes} minutes is ${value(n, n.p75, 'en')}, above its threshold of ${value(n, n.threshold, 'en')} (${formatNumber(n.samples, 'en')} samples).`
        : `The live-data alert "${n.alertName}" on ${n.domain} resolved: the 75th percentile of ${n.metric} over the last ${n.windowMinutes} minutes is ${value(n, n.p75, 'en')}, at or below its threshold of ${value(n, n.threshold, 'en')} (${formatNumber(n.samples, 'en')} samples).`,
    dashboard: 'Live data',
    why: (domain: string) => `You receive this e-mail because you set up live-data alerts for ${domain}.`,
  },
  de: {
    tag: { triggered: 'Live-Daten', resolved: 'Behoben' },
    hello: (name: string) => `Hallo ${name},`,
    subject: (n: RumAlertNotice, change: Transition) =>
      change === 'triggered'
        ? `${n.metric} p75 über ${value(n, n.threshold, 'de')}`
        : `${n.metric} p75 wieder höchstens ${value(n, n.threshold, 'de')}`,
    body: (n: RumAlertNotice, change: Transition) =>
      change === 'triggered'
        ? `Der Live-Daten-Alert „${n.alertName}“ für ${n.domain} wurde ausgelöst: Das 75. Perzentil von ${n.metric} der letzten ${n.windowMinutes} Minuten beträgt ${value(n, n.p75, 'de')} und liegt über dem Schwellenwert von ${value(n, n.threshold, 'de')} (${formatNumber(n.samples, 'de')} Messungen).`
        : `Der Live-Daten-Alert „${n.alertName}“ für ${n.domain} ist behoben: Das 75. Perzentil von ${n.metric} der letzten ${n.windowMinutes} Minuten beträgt ${value(n, n.p75, 'de')} und liegt höchstens beim Schwellenwert von ${value(n, n.threshold, 'de')} (${formatNumber(n.samples, 'de')} Messungen).`,
    dashboard: 'Live-Daten',
    why: (domain: string) => `Sie erhalten diese E-Mail, weil Sie Live-Daten-Alerts für ${domain} eingerichtet haben.`,
  },
} as const;

/** The e-mail about a live-data alert's trigger or resolution, in the owner's language, linking to the site's dashboard. */
export function composeRumAlertEmail(
  notice: RumAlertNotice,
  change: Transition,
  recipient: { email: string; name: string; locale: Locale },
  baseUrl: string,
): RumAlertEmail {
  const words = WORDS[recipient.locale];
  const dashboard = liveDashboardUrl(baseUrl, notice.siteId);
  const message = words.body(notice, change);
  return {
    to: recipient.email,
    subject: `[${words.tag[change]}] ${words.subject(notice, change)} – ${notice.domain}`,
    ...liveDataEmailBody({
      locale: recipient.locale,
      hello: words.hello(recipient.name),
      heading: notice.alertName,
      message,
      dashboardLabel: words.dashboard,
      dashboardUrl: dashboard,
      why: words.why(notice.domain),
    }),
  };
}
