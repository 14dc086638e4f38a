import type { Locale } from '../../core/i18n/locale.ts';
import { shareRefusal, type Scan } from '../../core/scan/scan.ts';
import { html, type SafeHtml } from '../html.ts';
import { scanText } from './labels.ts';
import { planLink } from '../plan/link.ts';

export const SHARE_NOTICES = ['shared', 'unshared'] as const;
export type ShareNotice = (typeof SHARE_NOTICES)[number];

/** What the owner's "Share" part of a report needs. */
export interface SharePart {
  scan: Scan;
  locale: Locale;
  csrf: string;
  /** The share page's address while sharing is enabled (the API's `share_url`); null while it is off. */
  shareUrl: string | null;
  /** Whether the owner's plan has share links, its name, and the cheapest plan that has them. */
  plan: { allowed: boolean; label: string; needed: string };
  /** What the last enable or disable did (after its redirect). */
  notice?: ShareNotice;
}

/** Where the part's buttons post (web/scans/report-routes.ts): the API's share enable/disable, as forms. */
export const sharePath = (scanId: string, enabled: boolean): string =>
  `/reports/${scanId}/share/${enabled ? 'enable' : 'disable'}`;

/**
 * The report's "Share" for its owner: whether the report is public, whether its share link is on, the link
 * with a copy button (the live-data pages' copy script, `script-src 'self'`; without it the read-only box is
 * still there to select), and the button that turns sharing on or off. A plan without share links gets the
 * reason instead of a button.
 */
export function sharePart({ scan, locale, csrf, shareUrl, plan, notice }: SharePart): SafeHtml {
  const text = scanText(locale);
  const form = (enabled: boolean, id: string, label: string) =>
    html`<form method="post" action="${sharePath(scan.publicId, enabled)}" id="share-${enabled ? 'enable' : 'disable'}-form" class="inline"><input type="hidden" name="_csrf" value="${csrf}"><button type="submit" id="${id}">${label}</button></form>`;
  const refusal = shareRefusal(scan);
  const controls = !plan.allowed
    ? html`<p class="hint" id="share-plan">${text.shareNeedsPlan(plan.needed, plan.label)} ${planLink(locale)}</p>`
    : refusal && !shareUrl
      ? html`<p class="error" id="share-refused">${text.shareRefused[refusal]}</p>`
      : shareUrl
        ? html`<p id="share-state" data-share="on">${text.shareOn}</p>
        <div class="share-row"><label for="share-url">${text.shareLink}</label><input id="share-url" type="text" readonly value="${shareUrl}" spellcheck="false">
          <button type="button" class="copy" data-copy="share-url" data-done="${text.copied}" hidden>${text.copyLink}</button></div>
        ${form(false, 'share-off', text.shareTurnOff)}`
        : html`<p id="share-state" data-share="off">${text.shareOff}${scan.shareToken ? html` ${text.shareSameLink}` : html``}</p>
        ${form(true, 'share-on', scan.shareToken ? text.shareTurnOn : text.shareCreate)}`;
  return html`<section id="share" class="share" aria-labelledby="share-heading"><h2 id="share-heading">${text.shareTitle}</h2>
    ${notice ? html`<p class="notice" role="status" id="share-notice">${text.shareNotices[notice]}</p>` : html``}
    <p id="report-visibility" data-public="${scan.isPublic ? 'yes' : 'no'}">${scan.isPublic ? text.reportPublic : text.reportPrivate}</p>
    ${scan.authType ? html`<p class="warning" id="share-signed-in">${text.shareSignedIn}</p>` : html``}
    ${controls}</section>`;
}
