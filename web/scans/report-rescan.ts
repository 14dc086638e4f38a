import { formatTimeAgo } from '../../core/i18n/dates.ts';
import { PUBLIC_ID_PATTERN } from '../../core/ids.ts';
import type { Locale } from '../../core/i18n/locale.ts';
import type { Scan } from '../../core/scan/scan.ts';
import { html, type SafeHtml } from '../html.ts';
import { MONITORING_PATHS } from '../monitoring/model.ts';
import { scanText } from './labels.ts';

/** What the owner's "Scan again" part of a report needs. */
export interface RescanPart {
  scan: Scan;
  locale: Locale;
  csrf: string;
  /** The owner's plan's most page loads per on-demand scan: a scan again asks for the scan's runs, up to this. */
  maxRuns: number;
  /**
   * How old the result is, when the report was opened as POST /scans's reused answer (`?cached=1`): the part
   * then says so first, and its button reads "Scan now".
   */
  cachedAgeMs?: number;
}

const SCAN_ID = new RegExp(PUBLIC_ID_PATTERN);

/** The scan a posted "Scan again" names (`rescan_of`); anything but a scan id is ignored, and the store checks the owner. */
export const rescanOfField = (form: URLSearchParams): string | undefined => {
  const value = form.get('rescan_of');
  return value !== null && SCAN_ID.test(value) ? value : undefined;
};

/** Where a report's "Scan again" posts: a target's scan runs its target now, any other scan is scanned again, forced. */
export const rescanAction = (scan: Scan): string =>
  scan.targetId !== null ? MONITORING_PATHS.runTarget(scan.targetId) : '/scans';

/**
 * The report's "Scan again" for its owner: a forced scan (POST /scans with `force`, the same address, region,
 * visibility and runs) that leads to the new scan's progress page; for a monitored target's scan, the target's
 * run now (its history goes on). Either way the new scan remembers this one, and its report opens with the
 * comparison with it (web/scans/report-previous.ts). Authenticated scans cannot be repeated from here: their credentials are gone.
 */
export function rescanPart({ scan, locale, csrf, maxRuns, cachedAgeMs }: RescanPart): SafeHtml {
  const text = scanText(locale);
  const cached =
    cachedAgeMs === undefined
      ? html``
      : html`<p class="notice cached" role="status" id="cached-notice">${text.cachedNotice(formatTimeAgo(cachedAgeMs, locale))}</p>`;
  if (scan.authType !== null)
    return html`<div id="rescan">${cached}<p class="hint" id="rescan-auth">${text.scanAgainAuth}</p></div>`;
  // `rescan_of`: the new scan's report is compared with this one (services/scan-comparison.ts).
  const fields =
    scan.targetId !== null
      ? html`<input type="hidden" name="next" value="/reports/${scan.publicId}"><input type="hidden" name="rescan_of" value="${scan.publicId}">`
      : html`<input type="hidden" name="url" value="${scan.url}"><input type="hidden" name="region" value="${scan.region}">${
          scan.isPublic ? html`<input type="hidden" name="public" value="1">` : html``
        }<input type="hidden" name="force" value="1"><input type="hidden" name="runs" value="${Math.max(1, Math.min(scan.runs, maxRuns))}"><input type="hidden" name="rescan_of" value="${scan.publicId}">`;
  return html`<div id="rescan">${cached}<form method="post" action="${rescanAction(scan)}" id="rescan-form" class="rescan"><input type="hidden" name="_csrf" value="${csrf}">${fields}
    <button type="submit" id="scan-again" aria-describedby="rescan-hint">${cachedAgeMs === undefined ? text.scanAgain : text.scanNow}</button>
    <span class="hint" id="rescan-hint">${scan.targetId !== null ? text.scanAgainTargetHint : text.scanAgainHint}</span></form></div>`;
}
