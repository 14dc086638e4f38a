import { pageName } from '../url.ts';
import { alertText, SEVERITY_NAMES } from '../i18n/alerts.ts';
import type { Locale } from '../i18n/locale.ts';
import { alertsPageUrl, flowRunUrl, scanReportUrl } from '../links.ts';
import type { Alert, AlertChange } from './alert.ts';

/**
 * Whether the e-mail about `change` is still to be sent: `sent` once recorded, `not_due` when it no longer
 * makes sense. A dismissed alert sends nothing more (dismissing silences it until it resolves); the raise and
 * escalation e-mails are dropped once the alert has resolved (they would arrive as old news), and a
 * resolution is e-mailed only to an owner who was told about the raise.
 */
export function emailDue(alert: Alert, change: AlertChange): 'send' | 'sent' | 'not_due' {
  switch (change) {
    case 'raised':
      if (alert.raisedEmailedAt) return 'sent';
      return alert.isDismissed || alert.resolvedAt ? 'not_due' : 'send';
    case 'escalated':
      if (alert.escalatedEmailedAt) return 'sent';
      return alert.isDismissed || !alert.escalatedAt || alert.resolvedAt ? 'not_due' : 'send';
    case 'resolved':
      if (alert.resolvedEmailedAt) return 'sent';
      return alert.isDismissed || !alert.resolvedAt || !alert.raisedEmailedAt ? 'not_due' : 'send';
  }
}

export interface AlertEmail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

const WORDS = {
  en: {
    subject: { raised: '', escalated: 'Escalated: ', resolved: '' },
    resolvedTag: 'Resolved',
    hello: (name: string) => `Hello ${name},`,
    page: 'Page',
    region: 'region',
    report: 'Report',
    alerts: 'All alerts',
    why: (url: string) => `You receive this e-mail because you monitor ${url}.`,
  },
  de: {
    subject: { raised: '', escalated: 'Verschärft: ', resolved: '' },
    resolvedTag: 'Behoben',
    hello: (name: string) => `Hallo ${name},`,
    page: 'Seite',
    region: 'Region',
    report: 'Bericht',
    alerts: 'Alle Alerts',
    why: (url: string) => `Sie erhalten diese E-Mail, weil Sie ${url} überwachen.`,
  },
} as const;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The e-mail about one change of an alert, in the owner's language: the alert's own title and message (as the
 * API renders them), a link to the scan's report and one to the alerts page; a text body and a plain HTML one.
 */
export function composeAlertEmail(
  alert: Alert,
  change: AlertChange,
  recipient: { email: string; name: string; locale: Locale },
  baseUrl: string,
): AlertEmail {
  const { locale } = recipient;
  const words = WORDS[locale];
  const text = alertText(alert, locale);
  const tag = change === 'resolved' ? words.resolvedTag : SEVERITY_NAMES[locale][alert.severity];
  const scan = change === 'resolved' && alert.resolvedScanPublicId ? alert.resolvedScanPublicId : alert.scanPublicId;
  const links = [
    [`${words.page}`, alert.url, `${alert.url} (${words.region} ${alert.region})`],
    // A flow's budget alert names a flow run, not a scan: its link goes to the run's page.
    ...((report) => [[words.report, report, report]] as const)(
      alert.details.flow ? flowRunUrl(baseUrl, alert.details.flow.id, scan) : scanReportUrl(baseUrl, scan),
    ),
    [words.alerts, alertsPageUrl(baseUrl), alertsPageUrl(baseUrl)],
  ] as const;
  return {
    to: recipient.email,
    subject: `[${tag}] ${words.subject[change]}${text.title} – ${pageName(alert.url, alert.host)}`,
    text: [
      words.hello(recipient.name),
      '',
      text.message,
      '',
      ...links.map(([label, , shown]) => `${label}: ${shown}`),
      '',
      words.why(alert.url),
      '',
    ].join('\n'),
    html: [
      `<!doctype html><html lang="${locale}"><body style="font-family: sans-serif; line-height: 1.5">`,
      `<p>${escapeHtml(words.hello(recipient.name))}</p>`,
      `<h2 style="font-size: 1.1em">${escapeHtml(text.title)}</h2>`,
      `<p>${escapeHtml(text.message)}</p>`,
      `<ul>${links.map(([label, href, shown]) => `<li>${escapeHtml(label)}: <a href="${escapeHtml(href)}">${escapeHtml(shown)}</a></li>`).join('')}</ul>`,
      `<p style="color: #666; font-size: 0.9em">${escapeHtml(words.why(alert.url))}</p>`,
      '</body></html>',
    ].join('\n'),
  };
}
