import type { Page } from '../../core/pagination.ts';
import type { Scan, ScanStatus } from '../../core/scan/scan.ts';
import { html, SafeHtml } from '../html.ts';
import { layout, type Chrome } from '../layout.ts';
import { scanText } from './labels.ts';
import { fieldError, type FormErrors } from './url-box.ts';
import { scanRows, statusText } from './scan-table.ts';

export interface ScanListInput {
  chrome: Chrome;
  page: Page<Scan>;
  filters: { domain?: string; status?: ScanStatus };
  errors?: FormErrors;
  /** Scans ticked for comparison (kept when a comparison was refused). */
  picked?: readonly string[];
}

const STATUSES: ScanStatus[] = ['queued', 'running', 'finished', 'failed'];

export function scanListPage({ chrome, page, filters, errors, picked }: ScanListInput): string {
  const text = scanText(chrome.locale);
  const { current_page: current, last_page: last } = page.meta;
  const link = (p: number) => {
    const query = new URLSearchParams();
    if (filters.domain) query.set('domain', filters.domain);
    if (filters.status) query.set('status', filters.status);
    query.set('page', String(p));
    return `/scans?${query}`;
  };
  return layout(
    text.scansTitle,
    html`<h1>${text.scansTitle}</h1>
      <section><form method="get" action="/scans" class="filters" id="scan-filters">
        <span><label for="filter-domain">${text.filterUrl}</label><input id="filter-domain" name="domain" type="text" maxlength="2048" value="${filters.domain ?? ''}"></span>
        <span><label for="filter-status">${text.filterStatus}</label><select id="filter-status" name="status"><option value="">${text.anyStatus}</option>${STATUSES.map(
          (s) =>
            html`<option value="${s}" ${filters.status === s ? new SafeHtml('selected') : ''}>${statusText(s, chrome.locale)}</option>`,
        )}</select></span>
        <button type="submit">${text.filter}</button></form>${fieldError(errors, 'filters')}</section>
      <section><form method="get" action="/compare" id="compare-form">${fieldError(errors, 'compare')}
        ${page.items.length ? scanRows(page.items, chrome.locale, true, picked) : html`<p>${text.noScans}</p>`}
        <p class="muted">${text.compareHint}</p><button type="submit" id="compare-submit">${text.compare}</button></form>
        <nav class="pager" aria-label="${text.pageOf(current, last)}">${current > 1 ? html`<a href="${link(current - 1)}" rel="prev">${text.previous}</a>` : ''}
          <span>${text.pageOf(current, last)}</span>${current < last ? html`<a href="${link(current + 1)}" rel="next">${text.next}</a>` : ''}</nav></section>`,
    { ...chrome, sheets: ['scan-list'] },
  );
}

/** The progress page's state, also what its live endpoint sends. */
