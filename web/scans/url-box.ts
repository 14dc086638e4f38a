import type { Locale } from '../../core/i18n/locale.ts';
import { html, SafeHtml } from '../html.ts';
import { scanText } from './labels.ts';

/** Field errors: words, or words with a link (a plan limit's link to the plan page). */
export type FormErrors = Record<string, string | SafeHtml>;

/** What the URL box shows: the values to keep, the regions to offer, and errors next to their fields. */
export interface UrlBox {
  /** Set for a signed-in user: the box posts the scan; without it, the box asks to sign in first. */
  csrf?: string;
  regions: string[];
  values: { url?: string; region?: string; isPublic?: boolean };
  errors?: FormErrors;
}

export const fieldError = (errors: FormErrors | undefined, name: string) =>
  errors?.[name] ? html`<p class="error" id="${name}-error">${errors[name]}</p>` : html``;

const described = (errors: FormErrors | undefined, name: string) =>
  errors?.[name] ? new SafeHtml(` aria-invalid="true" aria-describedby="${name}-error"`) : '';

export function urlBox(locale: Locale, box: UrlBox): SafeHtml {
  const text = scanText(locale);
  const signedIn = Boolean(box.csrf);
  const region = box.values.region ?? box.regions[0];
  return html`<form method="${signedIn ? 'post' : 'get'}" action="${signedIn ? '/scans' : '/scans/new'}" id="scan-form" class="url-box">
    ${signedIn ? html`<input type="hidden" name="_csrf" value="${box.csrf!}">` : ''}
    ${fieldError(box.errors, 'form')}
    <label for="scan-url">${text.urlLabel}</label>
    <div class="url-row"><input id="scan-url" name="url" type="text" inputmode="url" spellcheck="false" autocomplete="url" required maxlength="2048"
      placeholder="${text.urlPlaceholder}" value="${box.values.url ?? ''}"${described(box.errors, 'url')}>
    <button type="submit" id="scan-submit">${text.scanButton}</button></div>
    ${fieldError(box.errors, 'url')}
    ${
      signedIn
        ? html`<div class="options">${
            box.regions.length > 1
              ? html`<span><label for="scan-region">${text.regionLabel}</label><select id="scan-region" name="region">${box.regions.map(
                  (code) =>
                    html`<option value="${code}" ${code === region ? new SafeHtml('selected') : ''}>${code}</option>`,
                )}</select></span>`
              : html`<input type="hidden" name="region" value="${region ?? ''}">`
          }
        <span class="check"><input id="scan-public" name="public" type="checkbox" value="1" ${box.values.isPublic ? new SafeHtml('checked') : ''}>
          <label for="scan-public">${text.publicLabel}</label></span></div>${fieldError(box.errors, 'region')}`
        : ''
    }
  </form>`;
}
