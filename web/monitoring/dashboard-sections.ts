import { pageName } from '../../core/url.ts';
import type { Locale } from '../../core/i18n/locale.ts';
import { chronological } from '../charts/series.ts';
import { sparkline } from '../charts/sparkline.ts';
import { html, type SafeHtml } from '../html.ts';
import { scorePill } from '../layout.ts';
import { LABELS } from './labels.ts';
import { MONITORING_PATHS as P, type AlertRow } from './model.ts';
import type { TargetRow } from './targets-page.ts';

/** The dashboard's targets: each with its latest score and a sparkline of its history, linking to its page. */
export function dashboardTargets(targets: readonly TargetRow[], total: number, locale: Locale): SafeHtml {
  const t = LABELS[locale];
  const rows = targets.map((target) => {
    const history = chronological(target.history.map((scan) => ({ ...scan, href: P.report(scan.scanId) })));
    const latest = [...history].reverse().find((scan) => scan.score !== null);
    return html`<li data-target-id="${target.id}"><a href="${P.target(target.id)}">${target.url}</a> ${scorePill(latest?.score ?? null)}
      ${history.length ? sparkline(history, { locale, thresholds: target.thresholds.overall }) : html`<span class="muted">${t.notScanned}</span>`}
      ${target.openAlerts ? html`<span class="error">${t.openAlerts(target.openAlerts)}</span>` : ''}</li>`;
  });
  return html`<section id="dashboard-targets"><h2>${t.targetsTitle}</h2>${rows.length ? html`<ul class="dash-list">${rows}</ul>` : html`<p>${t.noTargets}</p>`}
    <p><a href="${P.targets}">${t.allTargets}${total > targets.length ? ` (${total})` : ''}</a></p></section>`;
}

/** The dashboard's open alerts, newest first, each linking to the scan it is about. */
export function dashboardAlerts(alerts: readonly AlertRow[], locale: Locale): SafeHtml {
  const t = LABELS[locale];
  return html`<section id="dashboard-alerts"><h2>${t.alertsTitle}</h2>${
    alerts.length
      ? html`<ul class="dash-list">${alerts.map(
          (alert) =>
            html`<li data-alert-id="${alert.id}"><strong class="severity-${alert.severity}">${alert.title}</strong> · <a href="${P.report(alert.scanPublicId)}">${pageName(alert.url, alert.host)}</a></li>`,
        )}</ul>`
      : html`<p>${t.noAlerts}</p>`
  }<p><a href="${P.alerts}">${t.alertsTitle}</a></p></section>`;
}
