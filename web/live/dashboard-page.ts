import { formatDate } from '../../core/i18n/dates.ts';
import { formatNumber, type Locale } from '../../core/i18n/locale.ts';
import {
  CORE_WEB_VITALS,
  CWV_MIN_SAMPLES,
  METRIC_RULES,
  rate,
  RUM_METRICS,
  type RumMetric,
} from '../../core/rum/metrics.ts';
import { metricHistoryChart } from '../charts/metric-history.ts';
import { html, SafeHtml } from '../html.ts';
import { layout } from '../layout.ts';
import { ALERT_LABELS } from './alert-labels.ts';
import { formatMetric, percent } from './format.ts';
import { LIVE_LABELS, type LiveLabels } from './labels.ts';
import {
  DEVICE_FILTERS,
  LIVE_PATHS as P,
  PERIODS,
  type DashboardModel,
  type DeviceFilter,
  type Period,
  type SlowPage,
} from './model.ts';
import { ratingBadge, ratingBar } from './parts.ts';
import { planLink } from '../plan/link.ts';
import { copyScriptTag, snippetBlock } from './sites-page.ts';
import { inpCulpritsSection, lcpPhasesSection } from './diagnostics-sections.ts';

/** The usage bar turns to a warning from this share of the monthly limit on. */
const NEAR_LIMIT = 0.9;

/** Where a filter link leads: this dashboard with one filter changed and the others kept (defaults left out). */
export function filterHref(siteId: number, period: Period, device: DeviceFilter, page: string | null = null): string {
  const query = new URLSearchParams();
  if (period !== '24h') query.set('period', period);
  if (device !== 'all') query.set('device', device);
  if (page !== null) query.set('page', page);
  const text = query.toString();
  return `${P.dashboard(siteId)}${text ? `?${text}` : ''}`;
}

export function dashboardPage(model: DashboardModel): string {
  const t = LIVE_LABELS[model.locale];
  const { site } = model;
  const empty = RUM_METRICS.every((metric) => model.metrics[metric].samples === 0);
  const hasHistory = RUM_METRICS.some((metric) => model.history[metric].length > 0);
  const body = html`<a class="back" href="${P.sites}">${t.allSites}</a>
    <h1>${t.dashboardTitle(site.domain)}</h1>
    <p class="lead"><span class="state ${site.active ? 'state-active' : 'state-paused'}">${site.active ? t.active : t.paused}</span> · ${t.periods[model.period]} · ${t.devices[model.device]} ·
      <a href="${P.alerts(site.id)}" id="alerts-link">${ALERT_LABELS[model.locale].alertsLink(site.alertCount)}</a></p>
    ${filters(model, t)}
    ${empty ? emptyState(model, t) : html`${verdict(model, t)}${summary(model, t)}${shares(model, t)}`}
    ${hasHistory ? history(model, t) : html``}
    ${empty ? html`` : html`${slowest(model, t)}${lcpPhasesSection(model, t)}${inpCulpritsSection(model, t, (page) => filterHref(site.id, model.period, model.device, page))}${navigation(model, t)}`}
    ${usage(model, t)}`;
  return layout(t.dashboardTitle(site.domain), body, {
    ...model.chrome,
    current: 'live',
    head: copyScriptTag(),
    sheets: ['monitoring', 'live'],
  });
}

function filters(model: DashboardModel, t: LiveLabels): SafeHtml {
  const link = (href: string, label: string, current: boolean, kind: string, value: string) =>
    html`<li><a href="${href}" class="filter-${kind}" data-value="${value}"${current ? new SafeHtml(' aria-current="true"') : ''}>${label}</a></li>`;
  return html`<section id="filters" aria-labelledby="filters-heading"><h2 id="filters-heading" class="visually-hidden">${t.filters}</h2>
    <div class="filter-group"><h3 id="period-heading">${t.period}</h3><ul class="filter-links" aria-labelledby="period-heading">${PERIODS.map(
      (period) =>
        link(
          filterHref(model.site.id, period, model.device, model.culpritPath),
          t.periods[period],
          period === model.period,
          'period',
          period,
        ),
    )}</ul></div>
    <div class="filter-group"><h3 id="device-heading">${t.device}</h3><ul class="filter-links" aria-labelledby="device-heading">${DEVICE_FILTERS.map(
      (device) =>
        link(
          filterHref(model.site.id, model.period, device, model.culpritPath),
          t.devices[device],
          device === model.device,
          'device',
          device,
        ),
    )}</ul></div></section>`;
}

function emptyState(model: DashboardModel, t: LiveLabels): SafeHtml {
  return html`<section id="empty-state" aria-labelledby="empty-heading"><h2 id="empty-heading">${t.emptyTitle}</h2>
    <p>${t.emptyText}</p><ul class="steps">${t.emptySteps.map((step) => html`<li>${step}</li>`)}</ul>
    ${model.period !== '30d' || model.device !== 'all' ? html`<p class="muted">${t.emptyOtherFilter}</p>` : html``}
    ${snippetBlock(model.site, model.locale)}</section>`;
}

function verdict(model: DashboardModel, t: LiveLabels): SafeHtml {
  const { pass, insufficient } = model.cwv;
  const [word, kind] =
    insufficient || pass === null ? [t.verdictNone, 'none'] : pass ? [t.verdictPass, 'pass'] : [t.verdictFail, 'fail'];
  const missing = CORE_WEB_VITALS.filter((metric) => model.metrics[metric].samples < CWV_MIN_SAMPLES).map(
    (metric) => `${metric} (${formatNumber(model.metrics[metric].samples, model.locale)})`,
  );
  return html`<section id="cwv" aria-labelledby="cwv-heading"><h2 id="cwv-heading">${t.verdictTitle}</h2>
    <p><span class="verdict verdict-${kind}" id="cwv-verdict" data-verdict="${kind}">${word}</span></p>
    ${kind === 'none' && missing.length ? html`<p id="cwv-missing">${t.verdictMissing(missing.join(', '))}</p>` : html``}
    <p class="hint" id="cwv-rule">${t.verdictRule(CWV_MIN_SAMPLES)}</p></section>`;
}

function summary(model: DashboardModel, t: LiveLabels): SafeHtml {
  const locale = model.locale;
  const card = (metric: RumMetric) => {
    const { p75, samples } = model.metrics[metric];
    const rule = METRIC_RULES[metric];
    const rating = p75 === null ? null : rate(metric, p75);
    return html`<li class="metric-card ${rating ? `card-${rating}` : ''}" id="metric-${metric}" data-metric="${metric}" data-p75="${p75 === null ? '' : String(p75)}" data-samples="${samples}">
      <h3>${metric}<span class="name">${t.metricNames[metric]}</span></h3>
      <span class="value">${p75 === null ? t.noValue : formatMetric(metric, p75, locale)}</span>
      <p>${rating ? ratingBadge(rating, locale) : html``}</p>
      <p class="samples">${t.samples(formatNumber(samples, locale))}</p>
      <p class="rule">${t.thresholds(formatMetric(metric, rule.good, locale), formatMetric(metric, rule.poor, locale))}</p></li>`;
  };
  return html`<section id="summary" aria-labelledby="summary-heading"><h2 id="summary-heading">${t.summaryTitle}</h2><p class="lead">${t.summaryIntro}</p>
    <ul class="metric-grid">${RUM_METRICS.map(card)}</ul></section>`;
}

function shares(model: DashboardModel, t: LiveLabels): SafeHtml {
  return html`<section id="shares" aria-labelledby="shares-heading"><h2 id="shares-heading">${t.sharesTitle}</h2><p class="lead">${t.sharesIntro}</p>
    <ul class="shares-list">${RUM_METRICS.map(
      (metric) =>
        html`<li data-metric="${metric}"><h3>${metric} <span class="muted">· ${t.metricNames[metric]}</span></h3>${ratingBar(model.metrics[metric].shares, model.locale, `shares-${metric}`)}</li>`,
    )}</ul></section>`;
}

function history(model: DashboardModel, t: LiveLabels): SafeHtml {
  const today = model.today;
  return html`<section id="history" aria-labelledby="history-heading"><h2 id="history-heading">${t.historyTitle}</h2><p class="lead">${t.historyIntro}</p>
    <div class="charts">${RUM_METRICS.map(
      (metric) =>
        html`<div class="chart-box"><h3>${metric} <span class="muted">· ${t.metricNames[metric]}</span></h3>${metricHistoryChart(metric, model.history[metric], { locale: model.locale, id: `history-${metric}`, days: 30, today })}</div>`,
    )}</div></section>`;
}

function slowestTable(metric: 'LCP' | 'INP', pages: readonly SlowPage[], locale: Locale, t: LiveLabels): SafeHtml {
  if (pages.length === 0) return html`<p class="muted" id="slowest-${metric}-none">${t.noPages}</p>`;
  const attributionHeading = metric === 'LCP' ? t.colLcpElement : t.colInpTarget;
  const rows = pages.map((page) => {
    const rating = rate(metric, page.p75);
    return html`<tr data-path="${page.path}" data-p75="${page.p75}"><td class="wide url"><code>${page.path}</code></td>
      <td class="num" data-label="${t.colP75}"><span class="rating rating-${rating}">${formatMetric(metric, page.p75, locale)}</span></td>
      <td class="num" data-label="${t.colSamples}">${formatNumber(page.samples, locale)}</td>
      <td class="wide attribution" data-label="${attributionHeading}">${page.target ? html`<code>${page.target}</code>` : html`<span class="muted">—</span>`}${
        page.url ? html`<br><code class="muted">${page.url}</code>` : html``
      }</td></tr>`;
  });
  return html`<table class="stack" id="slowest-${metric}"><thead><tr><th scope="col">${t.colPath}</th><th scope="col" class="num">${t.colP75}</th><th scope="col" class="num">${t.colSamples}</th><th scope="col">${attributionHeading}</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function slowest(model: DashboardModel, t: LiveLabels): SafeHtml {
  return html`<section id="slowest" aria-labelledby="slowest-heading"><h2 id="slowest-heading">${t.slowestTitle}</h2>
    <h3>${t.slowestLcp}</h3>${slowestTable('LCP', model.slowest.LCP, model.locale, t)}
    <h3>${t.slowestInp}</h3>${slowestTable('INP', model.slowest.INP, model.locale, t)}</section>`;
}

function navigation(model: DashboardModel, t: LiveLabels): SafeHtml {
  const locale = model.locale;
  const total = model.navigation.reduce((sum, row) => sum + row.pageviews, 0);
  const rows = [...model.navigation]
    .sort((a, b) => b.pageviews - a.pageviews)
    .map(
      (
        row,
      ) => html`<tr data-type="${row.type}" data-pageviews="${row.pageviews}"><td class="wide">${t.navigationTypes[row.type] ?? row.type}</td>
        <td class="num" data-label="${t.colPageviews}">${formatNumber(row.pageviews, locale)}</td><td class="num" data-label="${t.colShare}">${percent(row.pageviews, total, locale)}</td></tr>`,
    );
  return html`<section id="navigation" aria-labelledby="navigation-heading"><h2 id="navigation-heading">${t.navigationTitle}</h2><p class="lead">${t.navigationIntro}</p>
    ${total === 0 ? html`<p class="muted">${t.noValue}</p>` : html`<table class="stack" id="navigation-table"><thead><tr><th scope="col">${t.colType}</th><th scope="col" class="num">${t.colPageviews}</th><th scope="col" class="num">${t.colShare}</th></tr></thead><tbody>${rows}</tbody></table>`}</section>`;
}

function usage(model: DashboardModel, t: LiveLabels): SafeHtml {
  const locale = model.locale;
  const { monthlyLimit: limit } = model.site;
  const used = model.site.pageviewsThisMonth ?? 0;
  const share = limit > 0 ? Math.min(1, used / limit) : 1;
  const rejections = model.rejections.filter((row) => row.beacons > 0);
  return html`<section id="usage" aria-labelledby="usage-heading"><h2 id="usage-heading">${t.usageTitle}</h2>
    <p id="usage-text">${t.usage(formatNumber(used, locale), formatNumber(limit, locale))}</p>
    <div class="usage-bar" aria-hidden="true"><span style="width:${(share * 100).toFixed(1)}%"></span></div>
    ${
      model.site.limitReachedAt
        ? html`<p class="error" id="limit-reached-notice">${t.monthLimitReached(formatDate(model.site.limitReachedAt, locale))} ${planLink(locale)}</p>`
        : share >= NEAR_LIMIT
          ? html`<p class="error" id="usage-near-limit">${t.usageNearLimit}</p>`
          : html``
    }
    ${
      rejections.length
        ? html`<h3>${t.rejectionsTitle}</h3><table class="stack" id="rejections"><thead><tr><th scope="col">${t.colReason}</th><th scope="col" class="num">${t.colBeacons}</th></tr></thead><tbody>${rejections.map(
            (row) =>
              html`<tr data-reason="${row.reason}" data-beacons="${row.beacons}"><td class="wide">${t.reasons[row.reason] ?? row.reason}</td><td class="num" data-label="${t.colBeacons}">${formatNumber(row.beacons, locale)}</td></tr>`,
          )}</tbody></table>`
        : html``
    }</section>`;
}
