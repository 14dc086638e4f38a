import type { Locale } from '../../core/i18n/locale.ts';
import { html, type SafeHtml } from '../html.ts';
import { PLAN_LABELS } from './labels.ts';

export const PLAN_PAGE = '/settings/plan';

/** The link every "over your plan" message of the web area carries, to the plan page. */
export const planLink = (locale: Locale): SafeHtml =>
  html`<a href="${PLAN_PAGE}" class="plan-link">${PLAN_LABELS[locale].planLink}</a>`;
