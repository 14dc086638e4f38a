import type { LighthouseStepMode } from '../../core/flows/flow.ts';
import { formatDateTime } from '../../core/i18n/dates.ts';
import type { Locale } from '../../core/i18n/locale.ts';
import { html, SafeHtml } from '../html.ts';
import { FLOW_LABELS, type FlowNotice } from './labels.ts';
import type { FlowFormError, FlowFormErrors, FlowRunStatus } from './model.ts';

/** The hidden CSRF field of every form that posts. */
export const csrfField = (csrf: string) => html`<input type="hidden" name="_csrf" value="${csrf}">`;

/** An error in the page's language. */
export function errorText(error: FlowFormError, locale: Locale): string {
  if ('message' in error) return error.message;
  const words = FLOW_LABELS[locale].errors[error.code];
  return typeof words === 'function' ? words(error.limit ?? 0) : words;
}

/** A field name as an id: `steps/3/selector` → `steps-3-selector`. */
export const fieldId = (name: string) => name.replace(/[^A-Za-z0-9_-]/g, '-');

/** The attributes tying an input to its hint and error, and its error paragraph (nothing without one). */
export function fieldError(
  name: string,
  errors: FlowFormErrors,
  locale: Locale,
  hintId?: string,
): { attributes: SafeHtml; message: SafeHtml } {
  const error = errors[name];
  const errorId = `${fieldId(name)}-error`;
  const described = [hintId, error ? errorId : undefined].filter(Boolean).join(' ');
  return {
    attributes: new SafeHtml(
      `${error ? ' aria-invalid="true"' : ''}${described ? ` aria-describedby="${described}"` : ''}`,
    ),
    message: error
      ? html`<p class="error field-error" id="${errorId}" data-field="${name}">${errorText(error, locale)}</p>`
      : html``,
  };
}

/** The error of the form as a whole (`form`), above it. */
export const formError = (errors: FlowFormErrors, locale: Locale) =>
  errors.form ? html`<p class="error form-error" role="alert">${errorText(errors.form, locale)}</p>` : html``;

export const noticeBox = (notice: FlowNotice | undefined, locale: Locale) =>
  notice ? html`<p class="notice" role="status" id="notice">${FLOW_LABELS[locale].notices[notice]}</p>` : html``;

/** A run's status in words, with a class for its colour. */
export const statusBadge = (status: FlowRunStatus, locale: Locale) =>
  html`<span class="run-status status-${status}" data-status="${status}">${FLOW_LABELS[locale].statuses[status]}</span>`;

/** A measured step's Lighthouse mode in words, with a class for its colour. */
export const modeBadge = (mode: LighthouseStepMode, locale: Locale) =>
  html`<span class="mode mode-${mode}" data-mode="${mode}" title="${FLOW_LABELS[locale].modeHints[mode]}">${FLOW_LABELS[locale].modes[mode]}</span>`;

/** An ISO timestamp as a <time> in the pages' date format (UTC). */
export const timeOf = (iso: string, locale: Locale) =>
  html`<time datetime="${iso}">${formatDateTime(new Date(iso), locale)}</time>`;

export const whenText = (iso: string, locale: Locale) => formatDateTime(new Date(iso), locale);
