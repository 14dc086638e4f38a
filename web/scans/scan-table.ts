import type { Locale } from '../../core/i18n/locale.ts';
import type { Scan, ScanStatus } from '../../core/scan/scan.ts';
import { html, SafeHtml } from '../html.ts';
import { scorePill } from '../layout.ts';
import { scanText } from './labels.ts';

export const when = (date: Date | null, locale: Locale) =>
  date
    ? date.toLocaleString(locale === 'de' ? 'de-DE' : 'en-GB', {
        dateStyle: 'medium',
        timeStyle: 'short',
        timeZone: 'UTC',
      }) + ' UTC'
    : '—';

export const statusText = (status: ScanStatus, locale: Locale) => scanText(locale).status[status] ?? status;

/** Where a scan in a list leads: its progress while it runs, its report once it has ended. */
export const scanHref = (scan: Scan): string =>
  scan.status === 'queued' || scan.status === 'running' ? `/scans/${scan.publicId}` : `/reports/${scan.publicId}`;

/** Scheduled or on demand: a small label by the scan's URL, its longer meaning in the title. */
export const triggerLabel = (scan: Pick<Scan, 'trigger'>, locale: Locale): SafeHtml => {
  const text = scanText(locale);
  return html`<span class="trigger-label trigger-${scan.trigger === 'schedule' ? 'schedule' : 'on-demand'}" title="${text.triggerHint[scan.trigger] ?? ''}">${text.triggers[scan.trigger] ?? scan.trigger}</span>`;
};

/** `picked`: the scans whose checkbox is ticked (a comparison that was refused keeps its choice). */
export function scanRows(scans: Scan[], locale: Locale, selectable: boolean, picked: readonly string[] = []): SafeHtml {
  const text = scanText(locale);
  return html`<table class="scans stack"><thead><tr>${selectable ? html`<th scope="col"><span class="visually-hidden">${text.colSelect}</span></th>` : ''}<th scope="col">${text.colUrl}</th><th scope="col">${text.colScore}</th>
    <th scope="col">${text.colStatus}</th><th scope="col">${text.colRegion}</th><th scope="col">${text.colRequested}</th></tr></thead><tbody>${scans.map(
      (scan) => html`<tr data-scan-id="${scan.publicId}">${
        selectable
          ? html`<td class="select">${
              scan.status === 'finished'
                ? html`<input type="checkbox" name="scan" value="${scan.publicId}" id="pick-${scan.publicId}"${picked.includes(scan.publicId) ? new SafeHtml(' checked') : ''} aria-label="${text.colSelect}: ${scan.url}">`
                : ''
            }</td>`
          : ''
      }
        <td class="url wide"><a href="${scanHref(scan)}">${scan.url}</a> ${triggerLabel(scan, locale)}</td><td>${scorePill(scan.result?.scores.overall)}</td>
        <td class="status">${statusText(scan.status, locale)}</td><td data-label="${text.regionColumn}">${scan.region}</td><td class="when">${when(scan.requestedAt, locale)}</td></tr>`,
    )}</tbody></table>`;
}
