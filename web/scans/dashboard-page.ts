import type { Scan } from '../../core/scan/scan.ts';
import type { SafeHtml } from '../html.ts';
import { html } from '../html.ts';
import { layout, type Chrome } from '../layout.ts';
import { t } from '../text.ts';
import { scanText } from './labels.ts';
import { type UrlBox, urlBox } from './url-box.ts';
import { scanRows } from './scan-table.ts';
import { planLink } from '../plan/link.ts';

export interface DashboardInput {
  chrome: Chrome;
  box: UrlBox;
  latestScans: Scan[];
  usage: { used: number; limit: number | null; hasApi: boolean };
  /** Sections other features add (targets, alerts, live data), already rendered. */
  sections?: SafeHtml[];
}

export function dashboardPage(input: DashboardInput): string {
  const { chrome, usage } = input;
  const text = scanText(chrome.locale);
  return layout(
    text.dashboardTitle,
    html`<h1>${text.dashboardTitle}</h1>
      <section id="scan-box">${urlBox(chrome.locale, input.box)}</section>
      <section id="latest-scans"><h2>${text.latestScans}</h2>${
        input.latestScans.length
          ? html`${scanRows(input.latestScans, chrome.locale, false)}<p><a href="/scans">${text.allScans}</a></p>`
          : html`<p>${text.noScans}</p>`
      }</section>
      ${input.sections ?? []}
      <section id="api-usage"><h2>${text.apiUsage}</h2><p>${
        usage.hasApi
          ? text.apiUsed(usage.used, usage.limit === null ? text.unlimited : String(usage.limit))
          : html`${text.noApi} ${planLink(chrome.locale)}`
      } <a href="/settings#api-tokens">${t(chrome.locale).navSettings}</a></p></section>`,
    { ...chrome, sheets: ['scan-box', 'scan-list'] },
  );
}
