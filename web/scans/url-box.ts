import type { Locale } from '../../core/i18n/locale.ts';
import { html, SafeHtml } from '../html.ts';
import { scanText } from './labels.ts';
import { planLink } from '../plan/link.ts';
import { runsText } from './runs-labels.ts';

/** Field errors: words, or words with a link (a plan limit's link to the plan page). */
export type FormErrors = Record<string, string | SafeHtml>;

/** What the URL box shows: the values to keep, the regions to offer, and errors next to their fields. */
export interface UrlBox {
  /** Set for a signed-in user: the box posts the scan; without it, the box asks to sign in first. */
  csrf?: string;
  regions: string[];
  values: { url?: string; region?: string; isPublic?: boolean; runs?: number };
  errors?: FormErrors;
  /**
   * The runs the signed-in user's plan allows per on-demand scan (`maxRunsPerScan`), and, when that is one,
   * the cheapest plan that allows more: the box then offers no choice but says what that plan adds.
   */
  runs?: { max: number; upgrade?: { plan: string; max: number } };
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
        ${runsChoice(locale, box)}
        <span class="check"><input id="scan-public" name="public" type="checkbox" value="1" ${box.values.isPublic ? new SafeHtml('checked') : ''}>
          <label for="scan-public">${text.publicLabel}</label></span></div>${fieldError(box.errors, 'region')}${fieldError(box.errors, 'runs')}${runsNote(locale, box)}`
        : ''
    }
  </form>`;
}

/** The runs select (1 to the plan's most), when the plan allows more than one. */
function runsChoice(locale: Locale, box: UrlBox): SafeHtml {
  const max = box.runs?.max ?? 1;
  if (max <= 1) return html``;
  const text = runsText(locale);
  const chosen = Math.min(Math.max(box.values.runs ?? 1, 1), max);
  return html`<span><label for="scan-runs">${text.runsLabel}</label><select id="scan-runs" name="runs"${
    box.errors?.runs
      ? new SafeHtml(' aria-invalid="true" aria-describedby="runs-error runs-hint"')
      : new SafeHtml(' aria-describedby="runs-hint"')
  }>${Array.from(
    { length: max },
    (_, i) =>
      html`<option value="${i + 1}" ${i + 1 === chosen ? new SafeHtml('selected') : ''}>${text.runsOption(i + 1)}</option>`,
  )}</select></span>`;
}

/** Under the options: what the runs mean, or, on a plan with one run, what a higher plan adds and where to get it. */
function runsNote(locale: Locale, box: UrlBox): SafeHtml {
  if (!box.runs) return html``;
  const text = runsText(locale);
  if (box.runs.max > 1) return html`<p class="hint" id="runs-hint">${text.runsHint(box.runs.max)}</p>`;
  const upgrade = box.runs.upgrade;
  return upgrade
    ? html`<p class="hint" id="runs-upgrade">${text.runsUpgrade(upgrade.plan, upgrade.max)} ${planLink(locale)}</p>`
    : html``;
}
