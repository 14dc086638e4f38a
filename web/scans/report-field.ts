import { localiseFinding } from '../../core/i18n/findings.ts';
import { formatNumber, type Locale } from '../../core/i18n/locale.ts';
import { lcpPageAnchor } from '../../core/rum/anchors.ts';
import { METRIC_RULES, rate } from '../../core/rum/metrics.ts';
import type { FormFactorMetrics } from '../../core/scan/result.ts';
import { FIELD_METRICS, FIELD_MIN_PAGE_VIEWS, type FieldData, type FieldMetric } from '../../services/field-data.ts';
import { html, type SafeHtml } from '../html.ts';
import { formatMetric } from '../live/format.ts';
import { LIVE_PATHS } from '../live/model.ts';
import { ratingBadge } from '../live/parts.ts';
import { reportFieldText } from './labels.ts';

/**
 * The report's "lab and field" part: the owner's live data for the scanned page (or, with too few page
 * views, the whole site), p75 of LCP, INP and CLS beside this scan's lab values, each rated by the Core Web
 * Vitals thresholds (core/rum/metrics.ts, as the live-data pages rate them), with the page views behind them
 * and a link to the site's live-data dashboard. services/field-data.ts decides what there is to show; the
 * route passes nothing (no part at all) on share pages, to other viewers and when the owner has no site for
 * the host. ClickHouse away: a one-line note, so the owner knows why their numbers are missing.
 */

/** The dashboard's longest period (it has no 28-day one); the link opens it there. */
const DASHBOARD_PERIOD = '30d';

const LAB: Record<FieldMetric, ((m: FormFactorMetrics) => number) | null> = {
  LCP: (m) => m.lcp_ms,
  INP: null,
  CLS: (m) => m.cls,
};

export function fieldSection(
  field: FieldData | undefined,
  lab: { desktop: FormFactorMetrics; mobile: FormFactorMetrics },
  locale: Locale,
): SafeHtml {
  if (!field || field.kind === 'no_site') return html``;
  const t = reportFieldText(locale);
  const days = formatNumber(field.days, locale);
  const link = html`<p><a id="field-link" href="${LIVE_PATHS.dashboard(field.site.id)}?period=${DASHBOARD_PERIOD}">${t.open(field.site.domain)}</a></p>`;
  const open = (state: string, content: SafeHtml) =>
    html`<section id="field" aria-labelledby="field-heading" data-state="${state}" data-site-id="${field.site.id}"><h2 id="field-heading">${t.title}</h2>${content}${link}</section>`;
  if (field.kind === 'unavailable')
    return open('unavailable', html`<p class="note" id="field-note">${t.unavailable}</p>`);
  if (field.kind === 'no_data')
    return open('no-data', html`<p class="note" id="field-note">${t.noData(field.site.domain, days)}</p>`);

  const views = t.pageViews(formatNumber(field.pageViews, locale));
  const scope =
    field.scope === 'page'
      ? t.ofPage(field.path, views)
      : t.ofSite(field.path, field.site.domain, views, formatNumber(FIELD_MIN_PAGE_VIEWS, locale));
  const rated = (metric: FieldMetric, value: number) => {
    const rating = rate(metric, value);
    return html`<span class="field-value rating-${rating}" data-rating="${rating}">${formatMetric(metric, value, locale)}</span> ${ratingBadge(rating, locale)}`;
  };
  const labCell = (metric: FieldMetric, factor: 'desktop' | 'mobile') => {
    const value = LAB[metric]?.(lab[factor]);
    return html`<td data-lab="${factor}" data-label="${factor === 'desktop' ? t.labDesktop : t.labMobile}">${value === undefined ? html`<span class="muted">${t.noLab}</span>` : rated(metric, value)}</td>`;
  };
  const fieldHeading = `${t.field} (${field.scope === 'page' ? t.scopePage : t.scopeSite})`;
  const row = (metric: FieldMetric) => {
    const { p75, samples } = field.metrics[metric];
    const rule = METRIC_RULES[metric];
    return html`<tr data-metric="${metric}" data-p75="${p75 === null ? '' : String(p75)}" data-samples="${samples}">
      <th scope="row" class="wide">${metric}<span class="field-name">${t.metricNames[metric]}</span><span class="field-rule">${t.thresholds(formatMetric(metric, rule.good, locale), formatMetric(metric, rule.poor, locale))}</span></th>
      ${labCell(metric, 'desktop')}${labCell(metric, 'mobile')}
      <td data-field="${field.scope}" data-label="${fieldHeading}">${p75 === null ? html`<span class="muted">${t.noValue}</span>` : rated(metric, p75)}<span class="field-samples">${t.samples(formatNumber(samples, locale))}</span></td></tr>`;
  };
  return open(
    'measured',
    html`<p class="note">${t.intro(days)}</p>
    <p id="field-scope" data-scope="${field.scope}" data-page-views="${field.pageViews}">${scope}</p>
    <table id="field-metrics" class="stack"><thead><tr><th scope="col">${t.metric}</th><th scope="col">${t.labDesktop}</th><th scope="col">${t.labMobile}</th><th scope="col">${fieldHeading}</th></tr></thead>
    <tbody>${FIELD_METRICS.map(row)}</tbody></table>
    <p class="note">${t.noLabInp}</p>${agreement(field, locale)}`,
  );
}

/** Where the lab and the field point at the same script, entity or element, each linked to its live-data row. */
function agreement(field: Extract<FieldData, { kind: 'measured' }>, locale: Locale): SafeHtml {
  const { culprits, lcpElement } = field.links;
  if (culprits.length === 0 && !lcpElement) return html``;
  const t = reportFieldText(locale);
  const live = (anchor: string) => `${LIVE_PATHS.dashboard(field.site.id)}?period=${DASHBOARD_PERIOD}#${anchor}`;
  const culpritName = (c: (typeof culprits)[number]['culprit']) =>
    c.kind === 'inline' ? t.inlineScripts : c.kind === 'first-party' ? new URL(c.name).pathname : c.name;
  return html`<h3 id="field-agreement-heading">${t.agreementTitle}</h3><ul id="field-agreement">${culprits.map(
    ({ anchor, culprit, findings }) =>
      html`<li data-culprit="${anchor}"><a href="${live(anchor)}">${t.agreementCulprit(culpritName(culprit))}</a>${
        findings.length
          ? html` ${t.agreementFindings(findings.map((f) => localiseFinding(f, locale).title).join(', '))}`
          : html` ${t.agreementEntity}`
      }</li>`,
  )}${
    lcpElement
      ? html`<li data-lcp-element="${lcpElement.selector}"><a href="${live(lcpPageAnchor(lcpElement.path))}">${t.agreementLcp}</a> <code>${lcpElement.selector}</code></li>`
      : html``
  }</ul>`;
}
