import { formatNumber } from '../../core/i18n/locale.ts';
import { LCP_PHASES, SLOW_INTERACTION_MS } from '../../core/rum/diagnostics.ts';
import { rate } from '../../core/rum/metrics.ts';
import { localiseFinding } from '../../core/i18n/findings.ts';
import type { LabLink } from '../../services/lab-field-links.ts';
import { html, type SafeHtml } from '../html.ts';
import { findingAnchor } from '../scans/report-anchors.ts';
import { formatMetric, percent } from './format.ts';
import type { LiveLabels } from './labels.ts';
import type { CulpritRow, DashboardModel, LcpPhasesRow } from './model.ts';

/**
 * The dashboard's diagnostics: the top INP culprits (of the site, or of the page chosen with `?page=`) and the
 * LCP phases per page. Every row has a stable fragment id (core/rum/anchors.ts) for links from elsewhere.
 */

/** The dashboard's address with its filters and, when given, the culprits' page (dashboard-page.ts builds it). */
export type DashboardHref = (page: string | null) => string;

export function inpCulpritsSection(model: DashboardModel, t: LiveLabels, href: DashboardHref): SafeHtml {
  const { culprits: data, locale, culpritPath } = model;
  const ms = (value: number) => formatMetric('INP', value, locale);
  const body =
    data.interactions === 0
      ? html`<p class="muted" id="culprits-empty">${t.culpritsNoInteractions}</p>`
      : data.slowInteractions === 0
        ? html`<p class="muted" id="culprits-empty">${t.culpritsNoSlow(ms(SLOW_INTERACTION_MS))}</p>`
        : html`<p id="culprits-counts">${t.culpritsCounts(formatNumber(data.slowInteractions, locale), formatNumber(data.interactions, locale), formatNumber(data.slowWithScripts, locale))}</p>
          ${data.culprits.length === 0 ? html`<p class="muted" id="culprits-empty">${t.culpritsNoScripts}</p>` : culpritsTable(model, t)}`;
  const pages = model.slowest.INP.filter((page) => page.path !== culpritPath);
  return html`<section id="inp-culprits" aria-labelledby="inp-culprits-heading"><h2 id="inp-culprits-heading">${t.culpritsTitle}</h2>
    <p class="lead">${t.culpritsIntro(ms(SLOW_INTERACTION_MS))}</p>
    ${culpritPath === null ? html`` : html`<p id="culprits-page"><strong>${t.culpritsPage(culpritPath)}</strong> <a href="${href(null)}#inp-culprits">${t.culpritsAllPages}</a></p>`}
    ${body}
    ${
      pages.length
        ? html`<p class="culprit-pages">${t.culpritsByPage} ${pages.map(
            (page, i) =>
              html`${i ? ', ' : ''}<a href="${href(page.path)}#inp-culprits" data-path="${page.path}"><code>${page.path}</code></a>`,
          )}</p>`
        : html``
    }</section>`;
}

function culpritsTable(model: DashboardModel, t: LiveLabels): SafeHtml {
  const { locale } = model;
  const slow = model.culprits.slowInteractions;
  const rows = model.culprits.culprits.map(
    (c) => html`<tr id="${c.anchor}" data-kind="${c.kind}" data-count="${c.slowInteractions}">
      <td class="wide url">${culpritName(c, t)}${labLink(model.labLinks.culprits.get(c.anchor), model, t, t.labThirdParty)}</td>
      <td data-label="${t.colSource}">${t.culpritKinds[c.kind]}</td>
      <td data-label="${t.colFunction}">${c.functionName ? html`<code>${c.functionName}</code>` : html`<span class="muted">—</span>`}</td>
      <td data-label="${t.colInvoker}">${c.invoker ? html`<code>${c.invoker}</code>` : html`<span class="muted">—</span>`}</td>
      <td class="num" data-label="${t.colSlowShare}">${percent(c.slowInteractions, slow, locale)}</td>
      <td class="num" data-label="${t.colSlowCount}">${formatNumber(c.slowInteractions, locale)}</td>
      <td class="num" data-label="${t.colInpP75}"><span class="rating rating-${rate('INP', c.inpP75)}">${formatMetric('INP', c.inpP75, locale)}</span></td>
      <td class="num" data-label="${t.colScriptTime}">${formatMetric('INP', c.scriptTimeP75, locale)}</td></tr>`,
  );
  const th = (label: string, num = false) => html`<th scope="col"${num ? html` class="num"` : html``}>${label}</th>`;
  return html`<table class="stack" id="culprits-table"><thead><tr>${th(t.colCulprit)}${th(t.colSource)}${th(t.colFunction)}${th(t.colInvoker)}${th(t.colSlowShare, true)}${th(t.colSlowCount, true)}${th(t.colInpP75, true)}${th(t.colScriptTime, true)}</tr></thead><tbody>${rows}</tbody></table>`;
}

/**
 * The owner's lab scan that names the same script, entity or element (services/lab-field-links.ts): the
 * report's first such finding, or its diagnostics (`matched` says what) for an entity or element match.
 */
function labLink(link: LabLink | undefined, model: DashboardModel, t: LiveLabels, matched: string): SafeHtml {
  if (!link) return html``;
  const first = link.findings[0];
  const target = first ? findingAnchor(first.code) : 'diagnostics';
  const what = first ? localiseFinding(first, model.locale).title : matched;
  return html`<p class="lab-link"><a href="/reports/${link.scanId}#${target}" data-scan="${link.scanId}">${t.labLink(what, new URL(link.url).pathname)}</a></p>`;
}

function culpritName(c: CulpritRow, t: LiveLabels): SafeHtml {
  if (c.kind === 'inline') return html`<span class="culprit-name">${t.culpritInline}</span>`;
  if (c.kind === 'first-party') return html`<code class="culprit-name">${c.name}</code>`;
  return html`<span class="culprit-name">${c.name}</span>${c.entity ? html`` : html` <span class="muted">(${t.culpritHost})</span>`}
    <ul class="culprit-scripts">${c.scripts.map((url) => html`<li><code class="muted">${url}</code></li>`)}</ul>`;
}

export function lcpPhasesSection(model: DashboardModel, t: LiveLabels): SafeHtml {
  const rows = model.lcpPhases;
  const th = (label: string, num = false) => html`<th scope="col"${num ? html` class="num"` : html``}>${label}</th>`;
  return html`<section id="lcp-phases" aria-labelledby="lcp-phases-heading"><h2 id="lcp-phases-heading">${t.lcpPhasesTitle}</h2>
    <p class="lead">${t.lcpPhasesIntro}</p>
    ${
      rows.length === 0
        ? html`<p class="muted" id="lcp-phases-empty">${t.noPages}</p>`
        : html`<table class="stack" id="lcp-phases-table"><thead><tr>${th(t.colPath)}${th(t.colP75, true)}${th(t.colLcpElement)}${th(t.colPhases)}</tr></thead>
          <tbody>${rows.map((row) => phasesRow(row, model, t))}</tbody></table>`
    }</section>`;
}

function phasesRow(row: LcpPhasesRow, model: DashboardModel, t: LiveLabels): SafeHtml {
  const { locale } = model;
  return html`<tr id="${row.anchor}" data-path="${row.path ?? ''}" data-p75="${row.p75}" data-phase-samples="${row.phaseSamples}">
    <td class="wide url">${row.path === null ? html`<strong>${t.lcpWholeSite}</strong>` : html`<code>${row.path}</code>`}</td>
    <td class="num" data-label="${t.colP75}"><span class="rating rating-${rate('LCP', row.p75)}">${formatMetric('LCP', row.p75, locale)}</span><br><span class="muted">${t.samples(formatNumber(row.samples, locale))}</span></td>
    <td class="wide attribution" data-label="${t.colLcpElement}">${row.target ? html`<code>${row.target}</code>` : html`<span class="muted">—</span>`}${row.url ? html`<br><code class="muted">${row.url}</code>` : html``}${row.path === null ? html`` : labLink(model.labLinks.lcpPages.get(row.path), model, t, t.labSameElement)}</td>
    <td class="wide" data-label="${t.colPhases}">${phaseBar(row, model, t)}</td></tr>`;
}

/** The four phase p75s as one stacked bar (hidden from screen readers) and written out as a list. */
function phaseBar(row: LcpPhasesRow, model: DashboardModel, t: LiveLabels): SafeHtml {
  const { locale } = model;
  if (row.phaseSamples === 0) return html`<p class="muted lcp-no-phases">${t.lcpNoPhases}</p>`;
  const total = LCP_PHASES.reduce((sum, phase) => sum + (row.phases[phase] ?? 0), 0);
  return html`<div class="rating-bar phase-bar" aria-hidden="true">${LCP_PHASES.map((phase) => {
    const value = row.phases[phase] ?? 0;
    return value > 0 && total > 0
      ? html`<span class="part part-phase-${phase}" style="width:${((value / total) * 100).toFixed(2)}%"></span>`
      : html``;
  })}</div>
    <ul class="rating-shares phase-list">${LCP_PHASES.map((phase) => {
      const value = row.phases[phase];
      return html`<li data-phase="${phase}" data-p75="${value ?? ''}"><span class="key key-phase-${phase}" aria-hidden="true"></span>${t.lcpPhaseNames[phase]}: ${value === null ? t.noValue : formatMetric('LCP', value, locale)}</li>`;
    })}</ul>
    ${row.phaseSamples < row.samples ? html`<p class="muted">${t.lcpPhaseSamples(formatNumber(row.phaseSamples, locale), formatNumber(row.samples, locale))}</p>` : html``}`;
}
