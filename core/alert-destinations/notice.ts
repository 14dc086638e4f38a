import { isoTimestamp } from '../clock.ts';
import { alertText, SEVERITY_NAMES } from '../i18n/alerts.ts';
import { formatNumber, type Locale } from '../i18n/locale.ts';
import { flowRunUrl, liveDashboardUrl, scanReportUrl } from '../links.ts';
import type { Alert, AlertSeverity } from '../monitoring/alert.ts';
import { METRIC_RULES, roundMetric } from '../rum/metrics.ts';
import { SCORE_KEYS, scoreLabel, type ScoreKey } from '../scoring/categories.ts';
import type { RumAlertNotice } from '../webhooks/payloads.ts';

/** The chat services an alert can go to besides e-mail and the signed webhook. */
export const CHAT_KINDS = ['slack', 'teams'] as const;
export type ChatKind = (typeof CHAT_KINDS)[number];
export const isChatKind = (value: string): value is ChatKind => (CHAT_KINDS as readonly string[]).includes(value);
export const CHAT_KIND_NAMES: Record<ChatKind, string> = { slack: 'Slack', teams: 'Microsoft Teams' };

export interface ChatFact {
  label: string;
  value: string;
}

/** Where a chat message links to: a scan's report, a live-data dashboard, or the destinations page (a test). */
export type ChatLinkKind = 'report' | 'live' | 'settings';

/** The destinations page in the web area (`/account/alert-destinations`). */
export const ALERT_DESTINATIONS_PATH = '/account/alert-destinations';

/**
 * What a Slack or Teams message says, in the owner's language, independent of either format: built when the
 * alert changes and stored with the delivery (`chat_notice`), so every attempt and resend sends the same
 * words. Links are paths under BASE_URL, which the sender adds (core/alert-destinations/slack.ts, teams.ts).
 */
export interface ChatNotice {
  locale: Locale;
  state: 'triggered' | 'resolved' | 'test';
  severity: AlertSeverity | null;
  title: string;
  message: string;
  /** The values (the alert's details, generically, or the live-data reading). */
  facts: ChatFact[];
  /** The page the alert is about; `url` null when there is no one page (a live-data site). */
  page: { host: string; path: string; url: string | null } | null;
  link: { kind: ChatLinkKind; path: string };
  /** When it was raised or resolved (ISO 8601). */
  at: string;
}

export const CHAT_LABELS = {
  en: {
    states: { triggered: 'Triggered', resolved: 'Resolved', test: 'Test' },
    status: 'Status',
    severity: 'Severity',
    page: 'Page',
    site: 'Site',
    links: { report: 'Open the report', live: 'Open live data', settings: 'Open the alert destinations' },
    testTitle: 'Test message from WebPerf',
    testMessage:
      'This destination is set up: alerts of your monitored targets and live-data sites will be posted here when they are raised and when they resolve.',
    rumTitle: (name: string, metric: string) => `${name}: ${metric} p75`,
    rumTriggered: (metric: string, domain: string, p75: string, threshold: string) =>
      `The p75 of ${metric} on ${domain} is ${p75}, above the threshold of ${threshold}.`,
    rumResolved: (metric: string, domain: string, p75: string, threshold: string) =>
      `The p75 of ${metric} on ${domain} is back at ${p75}, within the threshold of ${threshold}.`,
    facts: {
      metric: 'Metric',
      p75: 'p75',
      threshold: 'Threshold',
      samples: 'Page views',
      windowMinutes: 'Window (minutes)',
      score: 'Score',
      value: 'Value',
      reference: 'Reference',
      crossings: 'Below their thresholds',
      baselineScans: 'Baseline scans',
      resolution: 'Resolution',
      region: 'Region',
    } as Record<string, string>,
    yes: 'yes',
    no: 'no',
  },
  de: {
    states: { triggered: 'Ausgelöst', resolved: 'Behoben', test: 'Test' },
    status: 'Status',
    severity: 'Schweregrad',
    page: 'Seite',
    site: 'Website',
    links: { report: 'Bericht öffnen', live: 'Live-Daten öffnen', settings: 'Alarmziele öffnen' },
    testTitle: 'Testnachricht von WebPerf',
    testMessage:
      'Dieses Ziel ist eingerichtet: Alarme Ihrer überwachten Ziele und Live-Daten-Websites erscheinen hier, wenn sie ausgelöst und wenn sie behoben werden.',
    rumTitle: (name: string, metric: string) => `${name}: ${metric} p75`,
    rumTriggered: (metric: string, domain: string, p75: string, threshold: string) =>
      `Das p75 von ${metric} auf ${domain} liegt bei ${p75} und damit über der Schwelle von ${threshold}.`,
    rumResolved: (metric: string, domain: string, p75: string, threshold: string) =>
      `Das p75 von ${metric} auf ${domain} liegt wieder bei ${p75} und damit innerhalb der Schwelle von ${threshold}.`,
    facts: {
      metric: 'Metrik',
      p75: 'p75',
      threshold: 'Schwelle',
      samples: 'Seitenaufrufe',
      windowMinutes: 'Zeitfenster (Minuten)',
      score: 'Score',
      value: 'Wert',
      reference: 'Vergleichswert',
      crossings: 'Unter ihrer Schwelle',
      baselineScans: 'Scans im Ausgangswert',
      resolution: 'Behebung',
      region: 'Region',
    } as Record<string, string>,
    yes: 'ja',
    no: 'nein',
  },
} as const;

/** At most this many of an alert's details become facts (Slack allows 10 fields per section, two are status and severity). */
export const MAX_DETAIL_FACTS = 8;
/** A fact's value is cut to this many characters (well inside Slack's 2000 per field). */
export const MAX_FACT_LENGTH = 300;

/** "baselineScans", "baseline_scans" → "Baseline scans": the label of a detail no table names. */
const humanise = (key: string): string => {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

const cut = (text: string, max: number): string => {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
};

const isScoreKey = (value: string): value is ScoreKey => (SCORE_KEYS as readonly string[]).includes(value);

/** One value of a detail as text: numbers in the reader's format, score keys by their label, objects as `key value` pairs. */
function valueText(value: unknown, locale: Locale): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return Number.isFinite(value) ? formatNumber(value, locale, 2) : null;
  if (typeof value === 'string') return isScoreKey(value) ? scoreLabel(value, locale) : value;
  if (typeof value === 'boolean') return value ? CHAT_LABELS[locale].yes : CHAT_LABELS[locale].no;
  if (Array.isArray(value)) {
    const items = value.map((item) => valueText(item, locale)).filter((item): item is string => item !== null);
    return items.length ? items.join('; ') : null;
  }
  if (typeof value === 'object') {
    const parts = Object.entries(value as Record<string, unknown>).flatMap(([key, inner]) => {
      const text = typeof inner === 'object' && inner !== null ? null : valueText(inner, locale);
      return text === null ? [] : [`${labelOf(key, locale).toLowerCase()} ${text}`];
    });
    return parts.length ? parts.join(', ') : null;
  }
  return null;
}

const labelOf = (key: string, locale: Locale): string => CHAT_LABELS[locale].facts[key] ?? humanise(key);

/**
 * An alert's details as facts, whatever its type: every key in order, labelled from the table above or from
 * its own name, its value rendered by valueText; empty values left out, at most MAX_DETAIL_FACTS.
 */
export function detailFacts(details: object, locale: Locale): ChatFact[] {
  return Object.entries(details as Record<string, unknown>)
    .flatMap(([key, value]) => {
      const text = valueText(value, locale);
      return text === null || text === '' ? [] : [{ label: labelOf(key, locale), value: cut(text, MAX_FACT_LENGTH) }];
    })
    .slice(0, MAX_DETAIL_FACTS);
}

/** Host and path (with the query) of a page URL; the host alone when it does not parse. */
export function pageOf(url: string, host: string): { host: string; path: string; url: string } {
  try {
    const parsed = new URL(url);
    return { host: parsed.host || host, path: `${parsed.pathname}${parsed.search}`, url };
  } catch {
    return { host, path: '', url };
  }
}

/** A score alert (any type: title and message from alertText, the values from its details) raised or resolved. */
export function scoreAlertNotice(alert: Alert, state: 'triggered' | 'resolved', locale: Locale): ChatNotice {
  const { title, message } = alertText(alert, locale);
  const scan = state === 'resolved' ? (alert.resolvedScanPublicId ?? alert.scanPublicId) : alert.scanPublicId;
  const at = state === 'resolved' && alert.resolvedAt ? alert.resolvedAt : alert.createdAt;
  return {
    locale,
    state,
    severity: alert.severity,
    title,
    message,
    facts: [
      // flow_failed's score, value and reference are stand-ins (the flow has no score): its step says it all.
      ...detailFacts(
        alert.type === 'flow_failed'
          ? { failedStep: alert.details.failedStep, flow: alert.details.flow }
          : alert.details,
        locale,
      ),
      { label: CHAT_LABELS[locale].facts.region!, value: alert.region },
    ].slice(0, MAX_DETAIL_FACTS),
    page: pageOf(alert.url, alert.host),
    // A flow's alert names a flow run, not a scan: its link goes to the run's page (as its e-mail's does).
    link: {
      kind: 'report',
      path: alert.details.flow ? flowRunUrl('', alert.details.flow.id, scan) : scanReportUrl('', scan),
    },
    at: isoTimestamp(at),
  };
}

/** A live-data alert triggered or resolved (services/rum-alert-check.ts's notice). */
export function rumAlertChatNotice(
  notice: RumAlertNotice,
  state: 'triggered' | 'resolved',
  locale: Locale,
): ChatNotice {
  const text = CHAT_LABELS[locale];
  // As the live-data alert e-mail writes values (core/rum/alert-email.ts): milliseconds whole, CLS to 4 places.
  const withUnit = (value: number) =>
    METRIC_RULES[notice.metric].unit === 'ms'
      ? `${formatNumber(roundMetric(notice.metric, value), locale)} ms`
      : formatNumber(roundMetric(notice.metric, value), locale, 4);
  const p75 = withUnit(notice.p75);
  const threshold = withUnit(notice.threshold);
  return {
    locale,
    state,
    severity: null,
    title: text.rumTitle(notice.alertName, notice.metric),
    message: (state === 'triggered' ? text.rumTriggered : text.rumResolved)(
      notice.metric,
      notice.domain,
      p75,
      threshold,
    ),
    facts: [
      { label: text.facts.metric!, value: notice.metric },
      { label: text.facts.p75!, value: p75 },
      { label: text.facts.threshold!, value: threshold },
      { label: text.facts.samples!, value: formatNumber(notice.samples, locale) },
      { label: text.facts.windowMinutes!, value: formatNumber(notice.windowMinutes, locale) },
    ],
    page: { host: notice.domain, path: '', url: null },
    link: { kind: 'live', path: liveDashboardUrl('', notice.siteId) },
    at: notice.at,
  };
}

/** The destinations page's "Send test message". */
export function testChatNotice(locale: Locale, at: Date): ChatNotice {
  const text = CHAT_LABELS[locale];
  return {
    locale,
    state: 'test',
    severity: null,
    title: text.testTitle,
    message: text.testMessage,
    facts: [],
    page: null,
    link: { kind: 'settings', path: ALERT_DESTINATIONS_PATH },
    at: isoTimestamp(at),
  };
}

/** The status line's words: "Triggered", "Resolved" or "Test", with the severity's name when there is one. */
export function stateAndSeverity(notice: ChatNotice): { state: string; severity: string | null } {
  const text = CHAT_LABELS[notice.locale];
  return {
    state: text.states[notice.state],
    severity: notice.severity ? SEVERITY_NAMES[notice.locale][notice.severity] : null,
  };
}

export { cut as cutText };
